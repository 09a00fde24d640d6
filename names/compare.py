"""Compare two people by name (every variant), then date of birth and country, with an explanation.

The name score aligns parts one-to-one, order-free, with the assignment that maximises the weighted part
similarities. Each aligned pair counts its similarity times the lesser of the two parts' weights (the
information both share). A part left without a counterpart conflicts when the other name also has one left
over (Sipho Dlamini / Themba Dlamini: Sipho and Themba both cost in full); a surplus part of the longer name
(an extra middle name) costs a tenth of its weight. So

    score = sum(similarity * weight of aligned pairs) / (sum(weight of aligned pairs) + cost of the others)

Shared common parts weigh little against the conflicting parts beside them, so they never reach the threshold
alone; a name with a single part, or one matched on initials only, is capped below the threshold.
"""

import datetime
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from names.countries import normalise_country
from names.dates import DOB_AGREES, BirthDate, birth_date_effect, parse_birth_date
from names.parse import ParsedName, parse_name
from names.parts import (
    NO_MATCH,
    ONE_SLIP_NOTE,
    PartSimilarity,
    differ_by_doubling,
    gendered_pair,
    part_similarity,
    slip_or_another_name,
)
from names.vocabulary import PARTICLES
from names.weights import DEFAULT_FREQUENCIES, NameFrequencies

MATCHER_VERSION = "1.3.0"

# The default for the PEP_MATCH_THRESHOLD setting: scores at or above it are matches.
DEFAULT_THRESHOLD = 0.8

# What a surplus part of the longer name costs, as a share of its weight.
EXTRA_PART_COST = 0.1
# Ceilings for names with too little to compare: below the default threshold, so they never match alone.
SINGLE_PART_CEILING = 0.6
INITIALS_ONLY_CEILING = 0.5
COUNTRY_AGREES = 0.02
COUNTRY_DIFFERS = -0.05
# The most date of birth and country can add to a name's score. A caller comparing many people who share one
# name may score the names once (without date of birth and country) and skip the people whose name score is
# below threshold - MAX_ADJUSTMENT_GAIN: no date or country can lift them to a match.
MAX_ADJUSTMENT_GAIN = DOB_AGREES + COUNTRY_AGREES


@dataclass(frozen=True)
class Person:
    """A person to match: a name, other names of the same person, and optionally date of birth and country.

    date_of_birth takes a date, a year, or "YYYY", "YYYY-MM", "YYYY-MM-DD"; country an ISO alpha-2 or alpha-3
    code or a country name ("Eswatini", "Swaziland"). Both are normalised on creation (country to alpha-2,
    None when unknown).
    """

    name: str
    aliases: tuple[str, ...] = ()
    date_of_birth: BirthDate | datetime.date | int | str | None = None
    country: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "aliases", tuple(alias for alias in (self.aliases or ()) if alias))
        object.__setattr__(self, "date_of_birth", parse_birth_date(self.date_of_birth))
        object.__setattr__(self, "country", normalise_country(self.country))

    @property
    def names(self) -> tuple[str, ...]:
        """The name and its aliases, each once, in order."""
        return tuple(dict.fromkeys(name for name in (self.name, *self.aliases) if name and name.strip()))


@dataclass(frozen=True)
class Match:
    """The result of a comparison: the score (0..1), whether it reaches the threshold, and why."""

    score: float
    is_match: bool
    threshold: float
    explanation: dict[str, Any]
    query_name: str
    candidate_name: str


@dataclass(frozen=True)
class _Aligned:
    query: int
    candidate: int
    similarity: PartSimilarity
    weight: float


@dataclass
class _NameScore:
    score: float
    query: ParsedName
    candidate: ParsedName
    query_parts: tuple[str, ...]
    candidate_parts: tuple[str, ...]
    parts_of: "_PartsOf | None" = None
    notes: list[dict[str, Any]] = field(default_factory=list)
    aligned: int = 0

    @cached_property
    def parts(self) -> list[dict[str, Any]]:
        """The alignment part by part, written out when read (only for the comparisons a caller explains)."""
        return self.parts_of.build() if self.parts_of is not None else []


def _best_assignment(similarity: list[list[float]], rows: int, columns: int) -> list[tuple[int, int]]:
    """The one-to-one assignment of rows to columns with the largest total; rows <= columns <= 8 (exact DP).

    Only a row's columns of positive value are tried (most are zero: two names share few parts), in column order,
    and the first assignment reaching a total wins a tie, so the answer does not depend on how the search is
    made."""
    choices = [[(column, value) for column, value in enumerate(values) if value > 0] for values in similarity[:rows]]
    if rows == 1:
        result: tuple[float, tuple[tuple[int, int], ...]] = (0.0, ())
        for column, value in choices[0]:
            if value > result[0] + 1e-12:
                result = (value, ((0, column),))
        return list(result[1])
    memo: dict[tuple[int, int], tuple[float, tuple[tuple[int, int], ...]]] = {}

    def best(row: int, used: int) -> tuple[float, tuple[tuple[int, int], ...]]:
        if row == rows:
            return 0.0, ()
        found = memo.get((row, used))
        if found is not None:
            return found
        result = best(row + 1, used)  # leave this row unaligned
        for column, value in choices[row]:
            if not used & (1 << column):
                total, pairs = best(row + 1, used | (1 << column))
                if total + value > result[0] + 1e-12:
                    result = (total + value, ((row, column), *pairs))
        memo[(row, used)] = result
        return result

    return list(best(0, 0)[1])


def _joined_kind(kinds: tuple[str, ...]) -> str:
    for kind in ("abjad", "translit"):
        if kind in kinds:
            return kind
    return "latin"


@lru_cache(maxsize=65536)
def _joins(parts: tuple[str, ...], kinds: tuple[str, ...]) -> tuple[tuple[int, int, str, str], ...]:
    """Each run of two or three adjacent parts (no initial among them) as one joined part, with its kind: the
    compound readings of a name, the same whatever name it is compared with."""
    found = []
    for start in range(len(parts)):
        for end in (start + 2, start + 3):
            if end > len(parts):
                break
            if any(len(part) == 1 for part in parts[start:end]):
                continue  # an initial is never half of a compound part
            found.append((start, end, "".join(parts[start:end]), _joined_kind(kinds[start:end])))
    return tuple(found)


def _merged_variants(parts: tuple[str, ...], kinds: tuple[str, ...], other: tuple[str, ...]) -> list[tuple]:
    """The parts as written, plus readings that join two or three adjacent parts into one where the other name
    has that joined form as one part ("jin ping" / "jinping", "van der merwe" / "vandermerwe",
    "abd al rahman" / "abdalrahman")."""
    variants = [(parts, kinds)]
    joins = _joins(parts, kinds)
    if not joins:
        return variants
    long_others = [part for part in other if len(part) > 3]
    for start, end, joined, kind in joins:
        for part in long_others:
            if part_similarity(joined, part, kind, "latin").score:
                variants.append(((*parts[:start], joined, *parts[end:]), (*kinds[:start], kind, *kinds[end:])))
                break
    return variants


@lru_cache(maxsize=262144)
def _cell(row: str, column: str, row_kind: str, column_kind: str) -> tuple[PartSimilarity, PartSimilarity]:
    """Two parts' similarity and, where it is none, their reading as a slip that may be another name (the noisy
    names' reading, ``slip_or_another_name``): one look-up for both."""
    similarity = part_similarity(row, column, row_kind, column_kind) if len(row) > 0 and len(column) > 0 else NO_MATCH
    if similarity.score:
        return similarity, NO_MATCH
    return similarity, slip_or_another_name(row, column, row_kind, column_kind)


@dataclass(frozen=True)
class _Sides:
    """The two names as the alignment sees them: rows are the shorter name's parts, columns the longer's."""

    rows: tuple[str, ...]
    columns: tuple[str, ...]
    row_weights: list[float]
    column_weights: list[float]
    transposed: bool  # rows are the candidate's parts
    query_parts: tuple[str, ...]
    candidate_parts: tuple[str, ...]


def _score_parts(
    query_parts: tuple[str, ...],
    query_kinds: tuple[str, ...],
    candidate_parts: tuple[str, ...],
    candidate_kinds: tuple[str, ...],
    frequencies: NameFrequencies,
    floor: float | None = None,
) -> tuple[float, "_PartsOf", list[dict[str, Any]], int] | None:
    """The score of one reading of each name, with what explains it; None when ``floor`` is given and the
    score cannot reach it (``_ceiling``), without aligning the parts."""
    query_weights = [frequencies.weight(part) for part in query_parts]
    candidate_weights = [frequencies.weight(part) for part in candidate_parts]
    transposed = len(query_parts) > len(candidate_parts)
    rows, columns = (candidate_parts, query_parts) if transposed else (query_parts, candidate_parts)
    row_kinds, column_kinds = (candidate_kinds, query_kinds) if transposed else (query_kinds, candidate_kinds)
    row_weights, column_weights = (
        (candidate_weights, query_weights) if transposed else (query_weights, candidate_weights)
    )
    sides = _Sides(rows, columns, row_weights, column_weights, transposed, query_parts, candidate_parts)
    # Noisy names. One edit that makes another name (Thando / Thandi) is refused by part_similarity(): in a name
    # written cleanly it is the difference between two people of one family. But slips come by record, not one at
    # a time (a careless clerk, a poor scan): where another part of the same name differs by one edit too, the
    # edit is as likely one more slip. Relatives share their family name as written, so a relative explains
    # the edit only with an independent slip beside it; one noisy record explains both. Two parts that would
    # each be another name (Nomvulo Fenamuga / Nomvula Fenamugi) vouch for each other: no relative differs in
    # two parts by one letter each. ``ambiguous`` holds those readings.
    similarities: list[list[PartSimilarity]] = []
    ambiguous: dict[tuple[int, int], PartSimilarity] = {}
    alike_rows: set[int] = set()  # the parts that can align at all, strictly or read as a slip
    alike_columns: set[int] = set()
    for r, row in enumerate(rows):
        line = []
        for c, column in enumerate(columns):
            similarity, reading = _cell(row, column, row_kinds[r], column_kinds[c])
            line.append(similarity)
            if reading.score:
                ambiguous[(r, c)] = reading
            if similarity.score or reading.score:
                alike_rows.add(r)
                alike_columns.add(c)
        similarities.append(line)
    family = _family_slips(similarities, sides, row_kinds, column_kinds)
    if family is not None:
        ambiguous.pop(family, None)  # read as a slip already (and alike already, as that reading)
    if floor is not None and _ceiling(alike_rows, alike_columns, sides) < floor:
        return None
    strict = _score_alignment(similarities, sides)
    if not ambiguous:
        return strict[:4]
    lenient_similarities = [
        [ambiguous.get((r, c), similarities[r][c]) for c in range(len(columns))] for r in range(len(rows))
    ]
    lenient = _score_alignment(lenient_similarities, sides)
    read_as_slips = [pair for pair in lenient[4] if (pair.query, pair.candidate) in ambiguous]
    witnesses = [
        pair
        for pair in lenient[4]
        if (pair.query, pair.candidate) not in ambiguous
        and _is_slip(pair.similarity, rows[pair.query], columns[pair.candidate])
        and _is_full_part(rows[pair.query])
        and _is_full_part(columns[pair.candidate])
        and not gendered_pair(rows[pair.query], columns[pair.candidate])
    ]
    if not read_as_slips or not (witnesses or len(read_as_slips) > 1) or lenient[0] <= strict[0] + 1e-9:
        return strict[:4]
    score, parts, notes, count, _ = lenient
    for index, pair in enumerate(read_as_slips):
        # a plain slip vouches first; otherwise the next edit read as a slip does
        witness = witnesses[0] if witnesses else read_as_slips[(index + 1) % len(read_as_slips)]
        row, column = rows[pair.query], columns[pair.candidate]
        query_part, candidate_part = (column, row) if transposed else (row, column)
        witness_query, witness_candidate = (
            (columns[witness.candidate], rows[witness.query])
            if transposed
            else (rows[witness.query], columns[witness.candidate])
        )
        reason = pair.similarity.note.removeprefix("1 slip, or another name (").removesuffix(")")
        notes.append(
            _note(
                "readAsSlip",
                score - strict[0],
                f"'{query_part}' ~ '{candidate_part}' would be another name ({reason}), read as a slip because"
                f" '{witness_query}' ~ '{witness_candidate}' "
                + ("has a slip too" if witnesses else "differs by one edit too"),
            )
        )
    return score, parts, notes, count


# Moves that build one given name from another (slips.py) but no family name: a feminine final vowel added or
# dropped (Daniel / Daniela; a family's women write its name as its men do, or by GENDERED_ENDINGS: Volkov /
# Volkova, still another name) and a class prefix (Andile / Wandile). In the family name's place the same edit
# is a slip (Mavimbela / Mavimbel, Motsa / otsa). A changed final vowel is not among them: family names lie one
# final vowel apart (Tembe / Tembo, Mabaso / Mabasa).
_GIVEN_NAME_MOVES = ("an added or dropped final vowel", "a consonant added in front")
FAMILY_SLIP_NOTE = "1 slip (in the family name, where {reason} builds no other name)"


def _family_slips(
    similarities: list[list[PartSimilarity]], sides: _Sides, row_kinds: tuple[str, ...], column_kinds: tuple[str, ...]
) -> tuple[int, int] | None:
    """Read a given-name move between the two family names as a slip (1.3.0): Mavimbela / Mavimbel, Motsa / otsa;
    the cell so read, or None.

    The family name's place is the last part of both names: the parser turns "Dlamini, Sipho" round, so only a
    name written family name first without a comma (order unknown) keeps the stricter reading."""
    if min(len(sides.query_parts), len(sides.candidate_parts)) < 2:
        return None
    last_query, last_candidate = len(sides.query_parts) - 1, len(sides.candidate_parts) - 1
    r, c = (last_candidate, last_query) if sides.transposed else (last_query, last_candidate)
    if similarities[r][c].score:
        return None
    reading = slip_or_another_name(sides.rows[r], sides.columns[c], row_kinds[r], column_kinds[c])
    reason = reading.note.removeprefix("1 slip, or another name (").removesuffix(")")
    if reading.score and reason in _GIVEN_NAME_MOVES:
        similarities[r][c] = PartSimilarity(reading.score, FAMILY_SLIP_NOTE.format(reason=reason))
        return r, c
    return None


def _is_slip(similarity: PartSimilarity, a: str, b: str) -> bool:
    """Whether an aligned pair shows a slip: one edit, or a letter doubled (which the spelling key folds, but
    which is a keystroke slip as often as a spelling habit). Spelling conventions (ph / f) are not slips."""
    return similarity.note in (ONE_SLIP_NOTE, *_FAMILY_SLIP_NOTES) or differ_by_doubling(a, b)


_FAMILY_SLIP_NOTES = tuple(FAMILY_SLIP_NOTE.format(reason=reason) for reason in _GIVEN_NAME_MOVES)


def _is_full_part(part: str) -> bool:
    return len(part) > 1 and part not in PARTICLES


# How far below the floor a ceiling must be for the comparison to be skipped: a caller rounds scores to four
# places, and a ceiling is a sum of floats.
_CEILING_MARGIN = 1e-3


def _ceiling(alike_rows: set[int], alike_columns: set[int], sides: _Sides) -> float:
    """A score no alignment of these parts can exceed (strict or with ambiguous edits read as slips), from which
    parts can align at all (``alike_rows``, ``alike_columns``: a part with a cell of some similarity, or of a
    reading as a slip): a part of the shorter name alike no part of the other is left over and costs its whole
    weight, as many of the longer name's unalignable parts cost theirs in full (the heaviest) and the rest a tenth,
    and an aligned pair adds at most its weight to both sides of the score. Most candidates an index proposes
    share a part or two with the query and conflict in the rest: this says so before aligning them."""
    rows, columns = sides.rows, sides.columns
    aligned = sum(sides.row_weights[r] for r in alike_rows)
    if not aligned:
        return 0.0
    left_rows = [r for r in range(len(rows)) if r not in alike_rows and rows[r] not in PARTICLES]
    cost = sum(sides.row_weights[r] for r in left_rows)
    weights = sides.column_weights
    left_columns = [weights[c] for c in range(len(columns)) if c not in alike_columns and columns[c] not in PARTICLES]
    left_columns.sort(reverse=True)
    cost += sum(left_columns[: len(left_rows)]) + EXTRA_PART_COST * sum(left_columns[len(left_rows) :])
    return aligned / (aligned + cost) + _CEILING_MARGIN


def _score_alignment(
    similarities: list[list[PartSimilarity]], sides: _Sides
) -> tuple[float, "_PartsOf", list[dict[str, Any]], int, list[_Aligned]]:
    """Align the parts one-to-one (the best assignment), then score: aligned similarity over aligned weight
    plus the cost of the parts left over; ceilings for a single part or initials only."""
    rows, columns = sides.rows, sides.columns
    row_weights, column_weights = sides.row_weights, sides.column_weights
    gains = [
        [similarities[r][c].score * min(row_weights[r], column_weights[c]) for c in range(len(columns))]
        for r in range(len(rows))
    ]
    aligned = [
        _Aligned(r, c, similarities[r][c], min(row_weights[r], column_weights[c]))
        for r, c in _best_assignment(gains, len(rows), len(columns))
    ]

    matched = sum(pair.similarity.score * pair.weight for pair in aligned)
    total = sum(pair.weight for pair in aligned)

    # Parts left over: in the shorter name each is a conflict (its place is taken by a different part); the
    # longer name's leftovers conflict up to the same number (heaviest first), the rest are surplus parts.
    used_rows = {pair.query for pair in aligned}
    used_columns = {pair.candidate for pair in aligned}
    left_rows = [r for r in range(len(rows)) if r not in used_rows and rows[r] not in PARTICLES]
    left_columns = [c for c in range(len(columns)) if c not in used_columns and columns[c] not in PARTICLES]
    left_columns.sort(key=lambda c: (-column_weights[c], c))
    conflicts = len(left_rows)
    cost = 0.0
    leftovers: list[tuple[str | None, str | None, float, str]] = []
    for r in left_rows:
        cost += row_weights[r]
        leftovers.append((rows[r], None, row_weights[r], "no counterpart: conflicts"))
    for rank, c in enumerate(left_columns):
        if rank < conflicts:
            weight, note = column_weights[c], "no counterpart: conflicts"
        else:
            weight, note = column_weights[c] * EXTRA_PART_COST, "extra part: costs little"
        cost += weight
        leftovers.append((None, columns[c], weight, note))

    denominator = total + cost
    score = matched / denominator if denominator > 0 else 0.0
    notes: list[dict[str, Any]] = []
    full = (
        [p for p in sides.query_parts if p not in PARTICLES],
        [p for p in sides.candidate_parts if p not in PARTICLES],
    )
    if min(len(full[0]), len(full[1])) <= 1 < max(len(full[0]), len(full[1])) and score > SINGLE_PART_CEILING:
        notes.append(_note("singlePart", SINGLE_PART_CEILING - score, "only one name part on one side"))
        score = SINGLE_PART_CEILING
    full_aligned = [pair for pair in aligned if pair.similarity.note != "initial" and len(rows[pair.query]) > 1]
    full_aligned = [pair for pair in full_aligned if rows[pair.query] not in PARTICLES]
    if aligned and not full_aligned and score > INITIALS_ONLY_CEILING:
        notes.append(_note("initialsOnly", INITIALS_ONLY_CEILING - score, "only initials or particles align"))
        score = INITIALS_ONLY_CEILING
    return score, _PartsOf(sides, aligned, leftovers), notes, len(aligned), aligned


@dataclass(frozen=True, slots=True)
class _PartsOf:
    """What an alignment says part by part, written out only for the comparison that is kept: a search compares
    a name with many candidates and explains only the few that match."""

    sides: _Sides
    aligned: list[_Aligned]
    leftovers: list[tuple[str | None, str | None, float, str]]

    def build(self) -> list[dict[str, Any]]:
        rows, columns, transposed = self.sides.rows, self.sides.columns, self.sides.transposed
        parts: list[dict[str, Any]] = []
        for pair in self.aligned:
            row, column = rows[pair.query], columns[pair.candidate]
            query_part, candidate_part = (column, row) if transposed else (row, column)
            parts.append(
                {
                    "query": query_part,
                    "candidate": candidate_part,
                    "score": round(pair.similarity.score, 4),
                    "weight": round(pair.weight, 4),
                    "note": pair.similarity.note,
                }
            )
        for row_part, column_part, weight, note in self.leftovers:
            query_part, candidate_part = (column_part, row_part) if transposed else (row_part, column_part)
            parts.append({"query": query_part, "candidate": candidate_part, "score": 0.0, "weight": round(weight, 4),
                          "note": note})  # fmt: skip
        return parts


def _note(kind: str, effect: float, note: str) -> dict[str, Any]:
    return {"kind": kind, "effect": round(effect, 4), "note": note}


def _compare_names(
    query: ParsedName, candidate: ParsedName, frequencies: NameFrequencies, floor: float | None = None
) -> _NameScore | None:
    """The best score of any reading of the two names, with its explanation. With a ``floor``, None when no
    reading can reach it (a search leaves such candidates out, and needs no score for them)."""
    best: _NameScore | None = None
    if not query.parts or not candidate.parts:
        return _NameScore(0.0, query, candidate, query.parts, candidate.parts)
    for query_parts, query_kinds in _merged_variants(query.parts, query.kinds, candidate.parts):
        for candidate_parts, candidate_kinds in _merged_variants(candidate.parts, candidate.kinds, query.parts):
            scored = _score_parts(query_parts, query_kinds, candidate_parts, candidate_kinds, frequencies, floor)
            if scored is None:
                continue
            score, parts, notes, aligned = scored
            if best is None or score > best.score + 1e-9:
                best = _NameScore(score, query, candidate, query_parts, candidate_parts, parts, notes, aligned)
    assert best is not None or floor is not None
    return best


def _adjustments(query: Person, candidate: Person) -> list[dict[str, Any]]:
    adjustments: list[dict[str, Any]] = []
    if isinstance(query.date_of_birth, BirthDate) and isinstance(candidate.date_of_birth, BirthDate):
        effect, note = birth_date_effect(query.date_of_birth, candidate.date_of_birth)
        adjustments.append(_note("dateOfBirth", effect, note))
    if query.country and candidate.country:
        if query.country == candidate.country:
            adjustments.append(_note("country", COUNTRY_AGREES, f"country agrees ({query.country})"))
        else:
            adjustments.append(
                _note("country", COUNTRY_DIFFERS, f"countries differ ({query.country} / {candidate.country})")
            )
    return adjustments


def _ignored(side: str, parsed: ParsedName) -> list[dict[str, Any]]:
    notes = [_note("ignored", 0.0, f"{side}: '{item.text}' ignored ({item.reason})") for item in parsed.ignored]
    if parsed.scripts:
        notes.append(_note("transliteration", 0.0, f"{side}: transliterated from {', '.join(parsed.scripts)}"))
    return notes


def _summary(score: float, threshold: float, name: _NameScore, adjustments: list[dict[str, Any]]) -> str:
    verdict = "Match" if score >= threshold else "No match"
    aligned = [p for p in name.parts if p["query"] and p["candidate"]]
    conflicts = [p for p in name.parts if p["note"].startswith("no counterpart")]
    pairs = ", ".join(f"{p['query']}~{p['candidate']} ({p['note']})" for p in aligned) or "none"
    longest = max(len(name.query_parts), len(name.candidate_parts))
    text = f"{verdict} at {score:.2f} (threshold {threshold:.2f}): {len(aligned)} of {longest} name parts aligned"
    text += f" [{pairs}]"
    if conflicts:
        text += f", {len(conflicts)} without counterpart"
    effects = [a["note"] for a in adjustments if a["effect"] and a["kind"] in ("dateOfBirth", "country")]
    if effects:
        text += "; " + "; ".join(effects)
    return text + "."


def compare(
    query: Person,
    candidate: Person,
    *,
    frequencies: NameFrequencies | None = None,
    threshold: float = DEFAULT_THRESHOLD,
) -> Match:
    """Score how likely two people are the same person (0..1), with an explanation.

    Every name variant of one side is compared with every variant of the other; the best alignment counts.
    Date of birth and country adjust the score only when both sides have them. Pure and deterministic.
    """
    frequencies = frequencies if frequencies is not None else DEFAULT_FREQUENCIES
    best: _NameScore | None = None
    for query_name in query.names:
        for candidate_name in candidate.names:
            result = _compare_names(parse_name(query_name), parse_name(candidate_name), frequencies)
            if best is None or result.score > best.score + 1e-9:
                best = result
    if best is None:
        best = _NameScore(0.0, parse_name(query.name), parse_name(candidate.name), (), ())
    adjustments = _adjustments(query, candidate)
    score = best.score + sum(item["effect"] for item in adjustments)
    score = round(min(1.0, max(0.0, score)), 4)
    all_adjustments = [
        *adjustments,
        *best.notes,
        *_ignored("query", best.query),
        *_ignored("candidate", best.candidate),
    ]
    if best.query.original != query.name:
        all_adjustments.append(_note("alias", 0.0, f"query compared through its alias '{best.query.original}'"))
    if best.candidate.original != candidate.name:
        all_adjustments.append(_note("alias", 0.0, f"candidate compared through its alias '{best.candidate.original}'"))
    explanation = {
        "matcher_version": MATCHER_VERSION,
        "parts": best.parts,
        "adjustments": all_adjustments,
        "summary": _summary(score, threshold, best, adjustments),
    }
    return Match(
        score=score,
        is_match=score >= threshold,
        threshold=threshold,
        explanation=explanation,
        query_name=best.query.original,
        candidate_name=best.candidate.original,
    )
