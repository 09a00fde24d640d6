"""How much a name part says about who a person is: rare parts identify, common parts barely do.

The caller passes counts of normalised name parts among our own users (``parse_name(name).parts`` of every user,
counted) and their total; a part's weight is its information (-log2 of its share) mapped onto 0.25..1. A part
held by one user in 10,000 or fewer, or by none, weighs 1; "dlamini", held by a large share of Eswatini's
people, weighs near the floor. Without counts, a small prior of the commonest parts in our region stands in.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from names.parse import parse_name
from names.vocabulary import PARTICLES

MIN_WEIGHT = 0.25
# A part as rare as one in 10,000 people (about 13.3 bits) or rarer carries full weight.
RARE_INFORMATION = math.log2(10_000)
# An initial stands for the many names that start with it: about one person in twelve shares a first letter.
INITIAL_SHARE = 1 / 12
PARTICLE_WEIGHT = 0.1


def weight_of_share(share: float) -> float:
    """The weight of a part held by this share of people (0 < share <= 1)."""
    if share <= 0:
        return 1.0
    information = -math.log2(min(share, 1.0))
    return round(MIN_WEIGHT + (1.0 - MIN_WEIGHT) * min(1.0, information / RARE_INFORMATION), 4)


INITIAL_WEIGHT = weight_of_share(INITIAL_SHARE)


# How many parts' weights one set of counts keeps (a few megabytes at most).
_WEIGHTS_KEPT = 200_000


@dataclass(frozen=True)
class NameFrequencies:
    """Counts of normalised name parts among our users, and how many users were counted."""

    counts: Mapping[str, int] = field(default_factory=dict)
    total: int = 0
    # each part's weight once worked out: a search weighs the same parts for every candidate it compares
    _weights: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_names(cls, names: Iterable[str]) -> "NameFrequencies":
        """Count the parts of these names (each part once per name), as the integration counts its users."""

        counts: dict[str, int] = {}
        total = 0
        for name in names:
            total += 1
            for part in set(parse_name(name).parts):
                counts[part] = counts.get(part, 0) + 1
        return cls(counts=counts, total=total)

    def count(self, part: str) -> int:
        return int(self.counts.get(part, 0))

    def share(self, part: str) -> float:
        """The share of counted people who have this part (0 when unseen or nothing was counted)."""
        if self.total <= 0:
            return 0.0
        return min(1.0, self.count(part) / self.total)

    def weight(self, part: str) -> float:
        """The weight of a part in a comparison: particles and initials weigh little, rare parts fully."""
        weight = self._weights.get(part)
        if weight is None:
            if part in PARTICLES:
                weight = PARTICLE_WEIGHT
            elif len(part) == 1:
                weight = INITIAL_WEIGHT
            else:
                weight = weight_of_share(self.share(part))
            if len(self._weights) < _WEIGHTS_KEPT:
                self._weights[part] = weight
        return weight


# A prior for when no counts are given: approximate shares (per 1,000 people) of the commonest name parts
# among the platform's users in Eswatini and its neighbours, plus a few of the world's commonest. It is a
# starting point that keeps "dlamini" from weighing like a rare surname; real counts replace it.
_PRIOR_PER_THOUSAND: dict[str, float] = {
    # family names of Eswatini and Southern Africa
    "dlamini": 180, "simelane": 25, "nkosi": 20, "mamba": 18, "shongwe": 18, "ndlovu": 18, "motsa": 15,
    "zwane": 15, "magagula": 15, "mdluli": 15, "maseko": 15, "khumalo": 15, "nxumalo": 14, "ngwenya": 14,
    "mabuza": 12, "hlophe": 12, "kunene": 10, "tsabedze": 10, "matsebula": 10, "mavuso": 10, "sibandze": 10,
    "ginindza": 10, "fakudze": 10, "mthethwa": 10, "shabangu": 10, "msibi": 10, "mhlanga": 10, "nkambule": 10,
    "gamedze": 10, "masilela": 10, "mkhabela": 10, "vilakati": 9, "nhlabatsi": 9, "mahlalela": 8, "mokoena": 10,
    "zulu": 12, "nkuna": 6, "baloyi": 8, "mathebula": 8, "maluleke": 8, "molefe": 6, "mahlangu": 8,
    "sithole": 8, "ntuli": 6, "mazibuko": 6, "ndaba": 5, "mnisi": 6, "thwala": 6, "malaza": 5, "mngomezulu": 5,
    # given names
    "sipho": 15, "themba": 12, "sibusiso": 10, "bongani": 10, "thabo": 8, "sandile": 8, "nomsa": 8, "mandla": 7,
    "thandiwe": 6, "thandi": 6, "zanele": 6, "nokuthula": 6, "sifiso": 6, "musa": 6, "lindiwe": 6, "siphiwe": 6,
    "sibongile": 6, "nonhlanhla": 5, "phumzile": 5, "lungile": 5, "busisiwe": 5, "bheki": 5, "mduduzi": 4,
    "nkosinathi": 4, "thulani": 5, "sabelo": 5, "gcina": 4, "nomcebo": 4, "zodwa": 4, "lwazi": 4, "thembi": 4,
    "john": 10, "mary": 8, "joseph": 6, "peter": 5, "david": 5, "elizabeth": 5, "grace": 5, "patience": 4,
    "precious": 4, "michael": 4, "james": 4, "samuel": 4, "daniel": 4, "sarah": 4, "ruth": 3, "moses": 3,
    "mohammed": 8, "muhammad": 8, "mohamed": 6, "ahmed": 5, "ali": 5, "maria": 8, "jose": 5, "juan": 4,
    "wang": 5, "li": 5, "zhang": 5, "chen": 4, "kumar": 4, "singh": 4, "smith": 4, "nguyen": 4,
}  # fmt: skip

DEFAULT_FREQUENCIES = NameFrequencies(
    counts={part: round(per_thousand * 1000) for part, per_thousand in _PRIOR_PER_THOUSAND.items()},
    total=1_000_000,
)
