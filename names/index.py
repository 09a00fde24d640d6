"""An in-memory candidate index over a list of names (sanctions entries, PEPs), searched with the one matcher.

Screening a name against a list compares it with the few entries that share a blocking key with it, never with
the whole list. The keys are those of the name-key tables (``names.blocking``: a part's consonant skeleton, a
pair of parts in either order, a part with another's initial, and the slip-tolerant anchors of parts), plus one
key per whole normalised name so an exact name is always a candidate, whatever else the list holds.

Every (key, name) posting is one 64-bit integer: the key's hash in the high bits, the name's number in the low
bits, all in one sorted numpy array. A key's names are one contiguous slice found by binary search, so the index
costs 8 bytes per posting and a million entries fit in a few hundred megabytes (``bench/names_index.py``).
A hash collision only adds a candidate, which the matcher then turns away. Each name's normalised parts are kept
as numbers into one vocabulary of distinct parts (``_PartTable``), so the cheap likeness that picks the names worth
the matcher reads a candidate's parts without parsing or splitting strings per search.

Searching picks keys as the PEP name index does (``lookup_keys`` from how common the parts are expected to be,
then the buckets' real sizes: a key holding a large share of the list is a common part, and the more specific
keys beside it find the same true matches), ranks the names found by how many of the query's keys they hold
(pair keys count most) and compares the best-ranked with the full matcher (``names.compare``), each distinct name
once. Most of those share a part or two with the query and conflict in the rest: the matcher is given the floor no
date or country can lift a name from, and says "below it" from which parts can align at all, without aligning them
(``names.compare._ceiling``, never below the score; a record with an exact name is scored in full). Dates of birth
and countries adjust the score afterwards, with the reason in the explanation; an exact name stays a hit at the
threshold whatever they say.

``IndexHolder`` keeps one index per list family in a server process and rebuilds it when the list's version
(a cheap value the caller reads from its database or cache) changes.
"""

import math
import threading
import time
from array import array
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from rapidfuzz import fuzz, process

from names.blocking import DEFAULT_MAX_SHARE, _keys_with_estimates
from names.compare import (
    COUNTRY_AGREES,
    COUNTRY_DIFFERS,
    DEFAULT_THRESHOLD,
    MAX_ADJUSTMENT_GAIN,
    _compare_names,
)
from names.countries import normalise_country
from names.dates import DOB_CONFLICT, DOB_NEAR_MISS, DOB_YEAR_AGREES, BirthDate, birth_date_effect, parse_birth_date
from names.parse import parse_name
from names.weights import DEFAULT_FREQUENCIES, NameFrequencies

__all__ = ["IndexHit", "IndexHolder", "IndexRecord", "NameIndex"]

# A searched key other than a pair key may hold this many names however small the list; beyond it, at most
# DEFAULT_MAX_SHARE of the list (a part held by thousands is searched through its pairs and anchors instead).
BUCKET_FLOOR = 200
# Pair keys are the most specific there are and always searched, but a bucket larger than this is a pair of
# the commonest parts in a huge list; its names are still candidates through their other keys.
PAIR_BUCKET_MAX = 20_000
# How many of the best-ranked candidate names the full matcher compares per query (exact names come on top).
MAX_COMPARED = 25
# Of the candidate names (best-ranked by their keys first), how many the cheap string measure looks at.
RANKED_MAX = 600
# How many of a record's names (the closest to the query first) the matcher compares.
NAMES_PER_RECORD = 2
# How many candidates per name ``candidates`` proposes, for a caller that compares them with its own matcher.
MAX_CANDIDATES = 100
# How far below the threshold the cheap likeness of a name may be and the name still be compared.
CHEAP_MARGIN = 0.15
INITIAL_LIKENESS = 0.9
# What each kind of key adds to a candidate's rank: a shared pair of parts says most.
_KEY_RANK = {"x": 100.0, "p": 4.0, "t": 2.0, "i": 1.5, "n": 1.0, "u": 0.5}


@dataclass(frozen=True, slots=True)
class IndexRecord:
    """One entry of a list: its names (primary first, then aliases), dates of birth, countries and kind."""

    key: Hashable
    names: tuple[str, ...]
    birth_dates: tuple[str, ...] = ()  # "YYYY-MM-DD", "YYYY", or "YYYY/YYYY" (a range)
    countries: tuple[str, ...] = ()  # ISO 3166-1 alpha-2, upper case
    kind: str = "person"  # "person" | "entity"


@dataclass(frozen=True, slots=True)
class IndexHit:
    """A record matching a query: the score after date and country, the name's score alone, and why."""

    key: Hashable
    score: float
    name_score: float
    matched_name: str
    explanation: str


def _exact_key(parts: tuple[str, ...]) -> str:
    """A whole name, normalised (case, accents, punctuation, script, order): equal for the same name."""
    return "x:" + " ".join(sorted(parts))


def _name_keys(name: str) -> dict[str, float]:
    """Every key of one name, with the share of a population expected to hold it (0 for keys always searched)."""
    parsed = parse_name(name)
    if not parsed.parts:
        return {}
    keys = _keys_with_estimates(parsed, DEFAULT_FREQUENCIES)
    keys[_exact_key(parsed.parts)] = 0.0
    return keys


def _hash(key: str) -> int:
    return hash(key) & 0x7FFF_FFFF_FFFF_FFFF  # non-negative: the low bits are the name's number


# How many names' key hashes a process keeps for the next build (0.3 to 0.6 KB a name with its cache entry, as
# the names have 20 to 40 keys: 20 to 40 MB at most). A list is built again whenever it changes, and an import
# builds the index of its new entries and then of the whole list: the names already keyed are most of every build
# (a sanctions list of some 20,000 names fits whole; a larger build is keyed as before, the cache's bookkeeping
# aside).
KEY_HASHES_KEPT = 65_536


@lru_cache(maxsize=KEY_HASHES_KEPT)
def _name_key_hashes(name: str) -> bytes:
    """The hashes of a name's keys as the postings hold them (int64s, as bytes: compact, and immutable for the
    cache); empty for a name without parts. A pure function of the name within a process: the keys are those
    of ``_name_keys`` (their estimates read the fixed prior, never a build's ``frequencies``) and ``hash`` of a
    string is fixed for the process's life."""
    return array("q", map(_hash, _name_keys(name))).tobytes()


class NameIndex:
    """Names of many records under their blocking keys; ``search`` compares a name with its few candidates."""

    def __init__(
        self,
        records: list[IndexRecord],
        name_texts: list[str],
        name_records: np.ndarray,
        parts: "_PartTable",
        postings: np.ndarray,
        shift: int,
        frequencies: NameFrequencies,
    ) -> None:
        self._records = records
        self._name_texts = name_texts
        self._name_records = name_records
        self._entities = np.asarray([records[record].kind == "entity" for record in name_records], dtype=bool)
        self._parts = parts
        self._postings = postings
        self._shift = shift
        self._mask = (1 << shift) - 1
        self._frequencies = frequencies

    @classmethod
    def build(cls, records: Iterable[IndexRecord], *, frequencies: NameFrequencies | None = None) -> "NameIndex":
        """Index these records. ``frequencies`` weigh name parts in the matcher (the regional prior by default)."""
        kept: list[IndexRecord] = []
        name_texts: list[str] = []
        name_records = array("i")
        parts = _PartTable()
        # flat buffers, not lists of Python ints: a million records hold tens of millions of postings
        key_hashes = array("q")
        key_counts = array("i")
        for record in records:
            names = [name for name in dict.fromkeys(record.names) if name and name.strip()]
            if not names:
                continue
            number = len(kept)
            kept.append(record)
            for name in names:
                hashes = _name_key_hashes(name)
                if not hashes:
                    continue
                name_texts.append(name)
                name_records.append(number)
                parts.add(parse_name(name).parts)
                key_hashes.frombytes(hashes)
                key_counts.append(len(hashes) // 8)
        shift = max(1, len(name_texts).bit_length())
        postings = np.frombuffer(key_hashes, dtype=np.int64) >> shift << shift  # a copy: the buffer can go
        del key_hashes
        postings |= np.repeat(np.arange(len(name_texts), dtype=np.int64), np.frombuffer(key_counts, dtype=np.int32))
        del key_counts
        postings.sort()
        return cls(
            kept,
            name_texts,
            np.frombuffer(name_records, dtype=np.int32).copy(),
            parts.freeze(),
            postings,
            shift,
            frequencies if frequencies is not None else DEFAULT_FREQUENCIES,
        )

    def __len__(self) -> int:
        return len(self._records)

    @property
    def nbytes(self) -> int:
        """The index's own arrays, in bytes (the records and their strings belong to the caller)."""
        return int(
            self._postings.nbytes
            + self._name_records.nbytes
            + self._parts.nbytes
            + 8 * len(self._name_texts)
            + 8 * len(self)
        )

    # ------------------------------------------------------------------ candidates

    def _buckets(self, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Each key's slice of the postings (start and end arrays): two binary searches for all the keys."""
        lows = np.fromiter(
            ((_hash(key) >> self._shift) << self._shift for key in keys), dtype=np.int64, count=len(keys)
        )
        starts = np.searchsorted(self._postings, lows, side="left")
        ends = np.searchsorted(self._postings, lows + self._mask, side="right")
        return starts, ends

    def _ranked_names(self, names: Iterable[str]) -> tuple[np.ndarray, set[int]]:
        """The numbers of the names sharing searched keys with any of ``names``, best-ranked first, and the
        numbers of names equal to one of them once normalised (always compared)."""
        cap = max(BUCKET_FLOOR, int(DEFAULT_MAX_SHARE * len(self._name_texts)))
        spans: list[tuple[np.ndarray, np.ndarray]] = []  # the searched buckets' starts and ends, key by key
        ranks: list[float] = []
        exact: set[int] = set()
        for name in names:
            estimates = _name_keys(name)
            if not estimates:
                continue
            keys = list(estimates)
            starts, ends = self._buckets(keys)
            sizes = ends - starts
            specific = np.fromiter((key[0] in "px" for key in keys), dtype=bool, count=len(keys))
            present = sizes > 0
            usable = present & ((sizes <= cap) | (specific & (sizes <= PAIR_BUCKET_MAX)))
            if not usable.any() and present.any():
                # every key is large (a single common part): the smallest bucket, if it is not most of the list
                smallest = min(np.flatnonzero(present).tolist(), key=lambda at: (int(sizes[at]), keys[at]))
                usable[smallest] = sizes[smallest] <= PAIR_BUCKET_MAX
            chosen = np.flatnonzero(usable)
            for at in chosen.tolist():
                if keys[at][0] == "x":
                    exact.update((self._postings[starts[at] : ends[at]] & self._mask).tolist())
                ranks.append(_KEY_RANK.get(keys[at][0], 1.0) / math.log2(2 + int(sizes[at])))
            spans.append((starts[chosen], sizes[chosen]))
        if not ranks:
            return np.empty(0, dtype=np.int64), exact
        starts = np.concatenate([found for found, _ in spans])
        sizes = np.concatenate([size for _, size in spans])
        # every searched bucket's postings in one gather, bucket after bucket
        offsets = np.cumsum(sizes) - sizes
        numbers = self._postings[np.repeat(starts - offsets, sizes) + np.arange(int(sizes.sum()))] & self._mask
        weights = np.repeat(np.asarray(ranks), sizes)
        unique, inverse = np.unique(numbers, return_inverse=True)
        totals = np.bincount(inverse, weights=weights)
        order = np.argsort(-totals, kind="stable")
        return unique[order], exact

    @staticmethod
    def _without(ranked: np.ndarray, exact: set[int]) -> np.ndarray:
        """The ranked names other than the exact ones, in rank order."""
        if not exact:
            return ranked
        return ranked[~np.isin(ranked, np.fromiter(exact, dtype=np.int64, count=len(exact)))]

    def candidates(
        self, names: Iterable[str], *, kind: str | None = None, threshold: float | None = None
    ) -> list[Hashable]:
        """The keys of the records worth comparing with a person of these names (a name and its aliases), best
        candidates first, for a caller that compares them itself (PEP screening keeps its own explanations).
        With a threshold, names too unlike to reach it are left out (``_closest``, MAX_CANDIDATES per name);
        names equal once normalised always stay."""
        chosen: list[int] = []
        for name in dict.fromkeys(names):
            ranked, exact = self._ranked_names([name])
            others = self._without(ranked, exact)
            if threshold is not None:
                # a date of birth or country may lift a name to the threshold
                floor = threshold - MAX_ADJUSTMENT_GAIN
                chosen += [*sorted(exact), *self._closest(parse_name(name).parts, others, floor, limit=MAX_CANDIDATES)]
            else:
                chosen += [*sorted(exact), *others.tolist()]
        seen: dict[int, None] = {}
        for number in chosen:
            record = int(self._name_records[number])
            if kind is None or self._records[record].kind == kind:
                seen.setdefault(record)
        return [self._records[record].key for record in seen]

    # ------------------------------------------------------------------ search

    def _likeness(self, parts: tuple[str, ...], numbers: np.ndarray) -> np.ndarray:
        """How alike each candidate name is to the query's parts, cheaply (0..1).

        A cheap likeness stands in for the matcher's score: each part of the name with fewer parts is paired with
        its most alike part of the other (rapidfuzz's ratio; an initial is as alike as the matcher says, 0.9, to a
        part it begins), weighed as the matcher weighs query parts. Names whose likeness is far below the
        threshold (CHEAP_MARGIN, measured: every name the matcher scored 0.8 or more on the bench lists had a
        likeness of 0.6 or more; transliterations and merged parts read lower than the matcher reads them) are
        not compared: a shared common part ("dlamini") brings hundreds of names that share nothing else.
        The candidates' parts are read as numbers from the part table (no strings split per search); each
        distinct part is compared with the query's once.
        """
        table_ = self._parts
        starts = table_.starts[numbers]
        counts = table_.starts[numbers + 1] - starts
        # every candidate's parts in one flat run, a candidate's parts one segment of it
        segments = np.cumsum(counts) - counts
        owners = np.repeat(np.arange(len(numbers)), counts)
        positions = np.arange(int(counts.sum())) - segments[owners]
        flat = table_.ids[starts[owners] + positions]
        distinct_ids, inverse = np.unique(flat, return_inverse=True)
        distinct = table_.vocabulary[distinct_ids].tolist()
        likeness = process.cdist(list(parts), distinct, scorer=fuzz.ratio, dtype=np.float32) / 100.0
        first, single = table_.first[distinct_ids], table_.single[distinct_ids]
        for row, part in enumerate(parts):
            if len(part) == 1:
                likeness[row] = np.where(first == ord(part), INITIAL_LIKENESS, 0.0)
        if single.any():
            query_first = np.asarray([ord(part[0]) for part in parts])
            likeness[:, single] = np.where(query_first[:, None] == first[single][None, :], INITIAL_LIKENESS, 0.0)
        weights = np.asarray([self._frequencies.weight(part) for part in parts], dtype=np.float32)
        counts = counts.astype(np.float32)
        # the query has the fewer parts: each query part's best, weighed; else each candidate part's best, averaged
        # (each query part's best per candidate laid out column by column, as the padded table's maximum was: the
        # product sums in the same order, to the last bit)
        query_best = np.asfortranarray(np.maximum.reduceat(likeness[:, inverse], segments, axis=1))
        by_query = (weights @ query_best) / float(weights.sum())
        # each candidate part's best, in a row per candidate padded with zeros: summed as a row, as the likeness
        # of the written parts is
        best = np.zeros((len(numbers), int(counts.max())), dtype=np.float32)
        best[owners, positions] = likeness.max(axis=0)[inverse]
        by_candidate = best.sum(axis=1) / counts
        return np.where(counts >= len(parts), by_query, by_candidate)

    def _closest(self, parts: tuple[str, ...], numbers: np.ndarray, threshold: float, limit: int = 0) -> list[int]:
        """The candidate names worth the full matcher (a likeness within CHEAP_MARGIN of the threshold),
        closest first, at most ``limit`` (MAX_COMPARED)."""
        numbers = numbers[:RANKED_MAX]
        if not len(numbers) or not parts:
            return []
        values = self._likeness(parts, numbers)
        keep = np.flatnonzero(values >= threshold - CHEAP_MARGIN)
        keep = keep[np.argsort(-values[keep], kind="stable")][: limit or MAX_COMPARED]
        return numbers[keep].tolist()

    def search(
        self,
        name: str,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        limit: int = 20,
        birth_date: str | None = None,
        country: str | None = None,
        kind: str | None = None,
    ) -> list[IndexHit]:
        """The records whose names match ``name`` at ``threshold`` or above, best first, with explanations.

        The name is compared with the best-ranked candidates by the full matcher, each distinct candidate name
        once (a name listed on two lists, or as two records' alias, is one comparison), and a hit's explanation
        is that comparison's; a known date of birth or country then adjusts the score as in ``names.compare``
        (a record's several dates: the one agreeing best). A name equal to a record's once normalised always
        comes back, at the threshold at least.
        """
        parsed = parse_name(name or "")
        if not parsed.parts:
            return []
        query_date = _birth_date_or_none(birth_date)
        query_country = normalise_country(country) if country else None
        ranked, exact = self._ranked_names([name])
        if kind is not None:
            wanted = self._entities if kind == "entity" else ~self._entities
            ranked = ranked[wanted[ranked]]
            exact = {number for number in exact if wanted[number]}
        lifted = threshold - (MAX_ADJUSTMENT_GAIN if query_date or query_country else 0.0)
        order = [*sorted(exact), *self._closest(parsed.parts, self._without(ranked, exact), lifted)]
        best: dict[int, tuple[float, str, object]] = {}  # record -> (name score, name, the matcher's answer)
        tried: dict[int, int] = {}
        scored: dict[tuple, object] = {}  # (parts, kinds) of a candidate name -> the matcher's answer
        # a name that cannot score this much is no hit whatever a date or country add, and the matcher says so
        # without aligning it; a record with an exact name is scored in full (its best name decides how it shows)
        floor = threshold - MAX_ADJUSTMENT_GAIN
        exact_records = {int(self._name_records[number]) for number in exact}
        for number in order:
            record = int(self._name_records[number])
            # a record's names closest to the query are tried first; two say what its aliases can
            if tried.get(record, 0) >= NAMES_PER_RECORD and number not in exact:
                continue
            tried[record] = tried.get(record, 0) + 1
            text = self._name_texts[number]
            candidate = parse_name(text)
            # the name alone, as compare() scores it without date and country: the matcher reads parts and kinds
            result = scored.get((candidate.parts, candidate.kinds), _UNSCORED)
            if result is _UNSCORED or (result is None and record in exact_records):
                result = scored[(candidate.parts, candidate.kinds)] = _compare_names(
                    parsed, candidate, self._frequencies, None if record in exact_records else floor
                )
            if result is None:
                continue  # below the floor: neither a hit nor its record's best
            score = round(min(1.0, result.score), 4)
            if record not in best or score > best[record][0]:
                best[record] = (score, text, result)
        matches = {}
        exact_key = _exact_key(parsed.parts)
        for record, (score, text, result) in best.items():
            is_exact = _exact_key(parse_name(text).parts) == exact_key
            if score + MAX_ADJUSTMENT_GAIN >= threshold or is_exact:
                matches[record] = (_NameMatch.of(result), is_exact)
        hits = []
        for record_number, (match, is_exact) in matches.items():
            name_score, text, _ = best[record_number]
            record = self._records[record_number]
            adjustments = _adjustments(record, query_date, query_country)
            score = min(1.0, max(0.0, name_score + sum(effect for effect, _ in adjustments)))
            floor_note = ""
            if is_exact and score < threshold:
                score = threshold
                floor_note = "kept at the threshold: the name is exactly the listed one"
            if score < threshold:
                continue
            hits.append(
                IndexHit(
                    key=record.key,
                    score=round(score, 4),
                    name_score=round(name_score, 4),
                    matched_name=text,
                    explanation=_explain(name, text, match, adjustments, floor_note),
                )
            )
        hits.sort(key=lambda hit: (-hit.score, -hit.name_score, str(hit.key)))
        return hits[:limit]


_UNSCORED = object()


@dataclass(frozen=True, slots=True)
class _NameMatch:
    """What ``_explain`` reads of a match, from the comparison the search already made: ``compare()`` of the two
    names with no date or country scores and explains them from that same comparison, so it is not made twice
    (a test holds the two equal)."""

    score: float
    explanation: dict

    @classmethod
    def of(cls, result) -> "_NameMatch":
        score = round(min(1.0, max(0.0, result.score)), 4)
        return cls(score, {"parts": result.parts, "adjustments": result.notes})


class _PartTable:
    """Every indexed name's normalised parts as numbers into one vocabulary of distinct parts (flat arrays: a
    million names hold a few million parts and far fewer distinct ones), so a search reads its candidates'
    parts without splitting strings, and compares each distinct part with the query's once."""

    def __init__(self) -> None:
        self.vocabulary: list[str] | np.ndarray = []
        self._numbers: dict[str, int] = {}
        self._ids = array("i")
        self._ends = array("q", [0])

    def add(self, parts: Iterable[str]) -> None:
        # as the index read them before: the parts joined and split again (no empty part)
        for part in " ".join(parts).split():
            number = self._numbers.get(part)
            if number is None:
                number = self._numbers[part] = len(self.vocabulary)
                self.vocabulary.append(part)
            self._ids.append(number)
        self._ends.append(len(self._ids))

    def freeze(self) -> "_PartTable":
        self.ids = np.frombuffer(self._ids, dtype=np.int32).copy()
        self.starts = np.frombuffer(self._ends, dtype=np.int64).copy()
        self.first = np.fromiter((ord(part[0]) for part in self.vocabulary), dtype=np.int32, count=len(self.vocabulary))
        self.single = np.fromiter((len(part) == 1 for part in self.vocabulary), dtype=bool, count=len(self.vocabulary))
        # an array, so a search takes its distinct parts at once
        self.vocabulary = np.asarray(self.vocabulary, dtype=object)
        del self._numbers, self._ids, self._ends
        return self

    @property
    def nbytes(self) -> int:
        return int(self.ids.nbytes + self.starts.nbytes + self.first.nbytes + self.single.nbytes) + 8 * len(
            self.vocabulary
        )


def _birth_date_or_none(value: str | None) -> BirthDate | None:
    try:
        return parse_birth_date(value)
    except ValueError:
        return None


def _date_effect(query: BirthDate, listed: str) -> tuple[float, str] | None:
    """The effect of one listed date (a date, a year, or a range "YYYY/YYYY") on a query's date of birth."""
    listed = listed.strip()
    if "/" in listed:
        first, _, last = listed.partition("/")
        try:
            low, high = sorted((int(first[:4]), int(last[:4])))
        except ValueError:
            return None
        if low <= query.year <= high:
            return DOB_YEAR_AGREES, f"year of birth within the listed range ({query.year} in {low}-{high})"
        apart = min(abs(query.year - low), abs(query.year - high))
        effect = DOB_NEAR_MISS if apart == 1 else DOB_CONFLICT
        return effect, f"date of birth outside the listed range ({query} / {low}-{high})"
    candidate = _birth_date_or_none(listed)
    return None if candidate is None else birth_date_effect(query, candidate)


def _adjustments(record: IndexRecord, query_date: BirthDate | None, query_country: str | None) -> list[tuple]:
    """(effect, reason) for the date of birth (the listed date agreeing best) and the country."""
    found = []
    if query_date is not None:
        effects = [effect for listed in record.birth_dates if (effect := _date_effect(query_date, listed))]
        if effects:
            found.append(max(effects, key=lambda item: item[0]))
    if query_country:
        listed = {code for code in (normalise_country(country) for country in record.countries) if code}
        if listed:
            if query_country in listed:
                found.append((COUNTRY_AGREES, f"country agrees ({query_country})"))
            else:
                found.append(
                    (COUNTRY_DIFFERS, f"country differs ({query_country}; listed: {', '.join(sorted(listed))})")
                )
    return found


def _explain(query: str, matched: str, match, adjustments: list[tuple], floor_note: str) -> str:
    parts = match.explanation.get("parts", [])
    aligned = ", ".join(
        f"{part['query']}~{part['candidate']} ({part['note']})" for part in parts if part["query"] and part["candidate"]
    )
    missing = [part for part in parts if part["note"].startswith("no counterpart")]
    text = f"Name '{query}' matches '{matched}' at {match.score:.2f}"
    text += f": {aligned}" if aligned else ": no part aligned"
    if missing:
        text += f"; {len(missing)} part(s) without counterpart"
    for effect, reason in adjustments:
        text += f"; {reason} ({effect:+.2f})"
    for note in match.explanation.get("adjustments", []):
        if note["kind"] in ("readAsSlip", "singlePart", "initialsOnly"):
            text += f"; {note['note']}"
    if floor_note:
        text += f"; {floor_note}"
    return text + "."


class IndexHolder:
    """One index per list family per server process, rebuilt when the list's version changes.

    ``version()`` is asked at most every ``check_every`` seconds (it should be cheap: a counter or a row the
    list's writes bump); when it answers something new, ``load()`` is read again and a new index built. While
    a rebuild runs, other threads keep searching the index they had. ``invalidate()`` makes the next ``get()``
    ask the version at once (a write in this process need not wait for the period).
    """

    def __init__(
        self,
        *,
        load: Callable[[], Iterable[IndexRecord]],
        version: Callable[[], object],
        check_every: float = 1.0,
        frequencies: Callable[[], NameFrequencies] | None = None,
    ) -> None:
        self._load = load
        self._version = version
        self._check_every = check_every
        self._frequencies = frequencies
        self._lock = threading.Lock()
        self._index: NameIndex | None = None
        self._built_version: object = None
        self._next_check = 0.0

    def invalidate(self) -> None:
        self._next_check = 0.0

    def get(self) -> NameIndex:
        index = self._index
        now = time.monotonic()
        if index is not None and now < self._next_check:
            return index
        # one thread checks and rebuilds; the others keep the index they have (or wait for the first one)
        if not self._lock.acquire(blocking=index is None):
            return index  # type: ignore[return-value]
        try:
            if self._index is not None and time.monotonic() < self._next_check:
                return self._index
            version = self._version()
            if self._index is None or version != self._built_version:
                frequencies = self._frequencies() if self._frequencies is not None else None
                self._index = NameIndex.build(self._load(), frequencies=frequencies)
                self._built_version = version
            self._next_check = time.monotonic() + self._check_every
            return self._index
        finally:
            self._lock.release()
