"""How alike two name parts are: exact, an initial, a spelling or transliteration variant, a slip, or another name.

The typo model allows slips of the keyboard, of OCR and of transliteration: an edit budget that grows with the
part's length (none in parts of three letters or fewer, one up to seven, two beyond). It refuses edits that make
another name rather than misspell this one. Names mark gender, noun class or diminutive in their ending (Thando /
Thandi, Daniel / Daniela, Putin / Putina) and build related names by adding a syllable (Sipho / Siphiwe, Thandi /
Thandiwe) or a class prefix (Andile / Wandile): such an edit is a different name, not a slip, whatever the part's
length. Which single edits are slips and which build names is slips.py's model.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA

from names.slips import ending_makes_another_name, unexplained_edit
from names.vocabulary import ABJAD_PREFIXES, ATTACHABLE_PREFIXES, GENDERED_ENDINGS

VOWELS = frozenset("aeiou")

# Spelling conventions that write one sound several ways across languages and transliteration systems.
_CONSONANT_RULES = (
    (r"x", "ks"),
    (r"dzh|dj|zh", "j"),
    (r"ck|q", "k"),
    (r"c(?=[eiy])", "s"),
    (r"c(?!h)", "k"),
    (r"ph", "f"),
    (r"kh", "h"),
    (r"th", "t"),
    (r"y", "i"),
)
_FINAL_H_AND_DOUBLES = ((r"(?<=[aeiou])h$", ""), (r"(.)\1+", r"\1"))


def _compiled(*rules: tuple[str, str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(pattern), replacement) for pattern, replacement in rules)


# Applied in order to make a spelling key: equal keys are the same name spelled differently.
_SPELLING_RULES = _compiled(*_CONSONANT_RULES, (r"ou|oo", "u"), (r"ee", "i"), *_FINAL_H_AND_DOUBLES)

# Transliteration systems also disagree on voicing and on vowel digraphs (Korean "Gim Jeong" / "Kim Jong",
# Japanese "Shinzou" / "Shinzo"): for a part that came from another script these fold together too.
_TRANSLIT_RULES = _compiled(
    *_CONSONANT_RULES,
    (r"eo|ou|oo", "o"),
    (r"eu|uu", "u"),
    (r"ae|ai|ee", "e"),
    *_FINAL_H_AND_DOUBLES,
    (r"g", "k"),
    (r"d", "t"),
    (r"b", "p"),
    (r"z", "s"),
    (r"v|w", "f"),
    (r"(.)\1+", r"\1"),
)

# Letters a consonant skeleton drops with the vowels (see consonants()).
_SKELETON_DROP = re.compile(r"[aeiouwyhv]")


@lru_cache(maxsize=131072)
def spelling_key(part: str) -> str:
    """The part with spelling conventions folded together: Zelenskiy, Zelenskyy, Zelensky -> "zelenski"."""
    key = part
    for pattern, replacement in _SPELLING_RULES:
        key = pattern.sub(replacement, key)
    return key


@lru_cache(maxsize=131072)
def translit_key(part: str) -> str:
    """A looser key for parts transliterated from another script: voicing and vowel digraphs folded too
    (Japanese "shinzou" / "Shinzo", Korean "jeongeun" / "jongun")."""
    key = part
    for pattern, replacement in _TRANSLIT_RULES:
        key = pattern.sub(replacement, key)
    return key


@lru_cache(maxsize=131072)
def consonant_readings(part: str) -> frozenset[str]:
    """The consonants of a part, read with v as a vowel letter and with v as b: Hebrew writes b and v with one
    letter ("בנט" -> "vnt", Bennett) and uses v for o/u ("נתניהו" -> "ntnyhv", Netanyahu)."""
    return frozenset({consonants(part), consonants(part.replace("v", "b"))} - {""})


@lru_cache(maxsize=131072)
def consonants(part: str) -> str:
    """The consonants of the spelling key, doubled letters once, with w, y, v, h and j dropped with the vowels:
    abjads write long vowels with the letters for w/v and y/j ("נתניהו" -> "ntnyhv", Netanyahu), and h is as often
    a spelling mark (kh, th, sh). Muhammad, Mohammed and the Arabic "mhmd" all give "mmd" -> "md"."""
    return re.sub(r"(.)\1+", r"\1", _SKELETON_DROP.sub("", spelling_key(part).replace("j", "i")))


@lru_cache(maxsize=131072)
def skeleton(part: str) -> str:
    """The consonants of the spelling key, doubled letters once: Muhammad, Mohammed and the Arabic "mhmd" -> "mhmd".

    Used to compare with transliterations from scripts that omit short vowels, and as a blocking key. Too short
    a skeleton says little, so below two consonants the spelling key itself stands in.
    """
    found = consonants(part)
    return found if len(found) >= 2 else spelling_key(part)


def vowel_groups(text: str) -> int:
    """Syllables, approximately: runs of vowels."""
    return len(re.findall(r"[aeiouy]+", text))


def edit_budget(length: int) -> int:
    """Slips allowed in a part of this many letters: none up to 3, one up to 7, two beyond."""
    if length <= 3:
        return 0
    if length <= 7:
        return 1
    return 2


# Letters that stand in front of a part in one spelling and not another: transliteration habits (Yevgeny /
# Evgeniy) and aspiration, never a name's prefix.
_FRONT_GLIDES = frozenset("yijh")


# The gendered endings as written and as the spelling and transliteration keys write them ("skaya" -> "skaia").
_GENDERED = frozenset(
    (key(masculine), key(feminine))
    for masculine, feminine in GENDERED_ENDINGS
    for key in (str, spelling_key, translit_key)
)
# A stem shorter than this is no family name with an ending (Ivan / Ivana is a given name's added vowel).
_GENDERED_STEM = 3


@lru_cache(maxsize=131072)
def gendered_pair(a: str, b: str) -> bool:
    """Whether two parts are one stem with a masculine and a feminine family-name ending (Kowalski / Kowalska,
    Papadopoulos / Papadopoulou). Such a difference is never evidence of slips in a name (see compare.py)."""
    for masculine, feminine in _GENDERED:
        for x, y in ((a, b), (b, a)):
            if x.endswith(masculine) and y.endswith(feminine):
                stem = x[: len(x) - len(masculine)]
                if len(stem) >= _GENDERED_STEM and stem == y[: len(y) - len(feminine)]:
                    return True
    return False


def another_name(
    a: str, b: str, transliterated: bool = False, length: int = 0, written: tuple[str, str] | None = None
) -> str | None:
    """Why the difference between two spellings makes a different name rather than a slip, or None.

    The moves that build names from names (see slips.py): a name-building final vowel changed, or a feminine
    one added (Thando/Thandi, Paulo/Paula, Daniel/Daniela), at any length; an added syllable (Sipho/Siphiwe,
    Thandi/Thandiwe); a consonant prefixed to a name that starts with a vowel (Andile/Wandile). And in short
    parts, an edit no mechanism of writing explains (Mabuza/Mabuya). Everything else is a slip. ``length`` is
    the longer part as written, when a and b are its spelling or transliteration keys (which may be longer or
    shorter: x -> ks, ph -> f), and ``written`` the two parts as written.
    """
    prefix = 0
    for char_a, char_b in zip(a, b, strict=False):
        if char_a != char_b:
            break
        prefix += 1
    tail_a, tail_b = a[prefix:], b[prefix:]
    if a[0] != b[0] and len(a) != len(b) and not transliterated:
        longer, shorter = (a, b) if len(a) > len(b) else (b, a)
        # a consonant prefixed to a vowel makes another name (Andile / Wandile: Nguni class prefixes); a vowel in
        # front is the augment of the same word (Nkosi / Inkosi), a glide a transliteration habit (Yevgeny /
        # Evgeniy), and a consonant struck before another consonant (Xsamkelo) a slip
        if longer[0] not in VOWELS and longer[0] not in _FRONT_GLIDES and shorter[0] in VOWELS:
            return "a consonant added in front"
    if prefix >= 2 and len(tail_a) <= 1 and len(tail_b) <= 1 and (tail_a or tail_b):
        if all(tail in VOWELS for tail in (tail_a, tail_b) if tail):
            return ending_makes_another_name(a, b)
    if abs(len(a) - len(b)) >= 2 and vowel_groups(a) != vowel_groups(b):
        return "an added syllable"
    if not transliterated:
        return unexplained_edit(a, b, length or max(len(a), len(b)), written)
    return None


def makes_another_name(
    a: str, b: str, transliterated: bool = False, length: int = 0, written: tuple[str, str] | None = None
) -> bool:
    """Whether the difference between two spellings makes a different name rather than a slip (another_name)."""
    return another_name(a, b, transliterated, length, written) is not None


@dataclass(frozen=True)
class PartSimilarity:
    """How alike two parts are (0..1) and why, in a word or two for the explanation."""

    score: float
    note: str


NO_MATCH = PartSimilarity(0.0, "different")

# Scores per kind of agreement. A slip costs more than a spelling variant; an initial says little, and its
# low weight (see weights.py) already keeps it from carrying a match alone.
EXACT = 1.0
SPELLING_VARIANT = 0.95
TRANSLITERATION_VARIANT = 0.92
INITIAL = 0.9
ATTACHED_PARTICLE = 0.9
CONSONANTS_AGREE = 0.9
SLIP_BASE = 0.98
SLIP_COST = 0.08


def _slip(a: str, b: str, transliterated: bool) -> PartSimilarity:
    """Compare two full parts allowing slips within the budget, on both raw and spelling-key forms (and the
    looser transliteration key when one of them came from another script)."""
    key_a, key_b = spelling_key(a), spelling_key(b)
    if key_a == key_b:
        return PartSimilarity(SPELLING_VARIANT, "spelling variant")
    forms = [(a, b), (key_a, key_b)]
    if transliterated:
        loose_a, loose_b = translit_key(a), translit_key(b)
        if loose_a == loose_b:
            return PartSimilarity(TRANSLITERATION_VARIANT, "transliteration variant")
        forms.append((loose_a, loose_b))
    best = None
    for x, y in forms:
        budget = edit_budget(max(len(x), len(y)))
        if budget == 0:
            continue
        distance = OSA.distance(x, y, score_cutoff=budget + 1)
        if distance <= budget and not makes_another_name(x, y, transliterated, max(len(a), len(b)), (a, b)):
            best = distance if best is None else min(best, distance)
    if best is None:
        return NO_MATCH
    return PartSimilarity(round(SLIP_BASE - SLIP_COST * best, 4), f"{best} slip" + ("s" if best > 1 else ""))


# A part that differs from another by one edit making another name (Thando / Thandi) is refused, unless the
# rest of the name shows slips: then the edit is as likely one more slip (see compare.py, "noisy names").
ONE_SLIP = round(SLIP_BASE - SLIP_COST, 4)
ONE_SLIP_NOTE = "1 slip"
# Parts this short have no edit budget; one edit in them is read as a slip only in a noisy name.
SHORT_SLIPPABLE = 3
SHORT_PART_REASON = "one letter of three"


@lru_cache(maxsize=262144)
def slip_or_another_name(a: str, b: str, a_kind: str = "latin", b_kind: str = "latin") -> PartSimilarity:
    """The reading of two parts as one slip where part_similarity() refuses it because that one edit makes
    another name (a changed, added or dropped final vowel, a letter added in front), or because the part has
    three letters and no edit budget (Tau / Tai); NO_MATCH otherwise, and for
    a gendered family-name ending (Volkov / Volkova), which is a family's two forms of its name however noisy
    the rest.

    Only for full parts written in an alphabet (not initials, not consonant-only or syllabic transliterations),
    and only for a single edit: an added syllable is never one slip.
    """
    if a == b or len(a) == 1 or len(b) == 1 or {a_kind, b_kind} & {"abjad", "syllabic"}:
        return NO_MATCH
    transliterated = a_kind != "latin" or b_kind != "latin"
    forms = [(a, b), (spelling_key(a), spelling_key(b))]
    if transliterated:
        forms.append((translit_key(a), translit_key(b)))
    for x, y in forms:
        if OSA.distance(x, y, score_cutoff=2) != 1:
            continue
        if edit_budget(max(len(x), len(y))) == 0:
            # a part of three letters has no budget: one letter of three spells another name as often as not
            # (Tau / Tai), so alone it is refused, but in a noisy name it is one more slip (1.3.0)
            if max(len(a), len(b)) == SHORT_SLIPPABLE and min(len(x), len(y)) >= 2:
                return PartSimilarity(ONE_SLIP, f"1 slip, or another name ({SHORT_PART_REASON})")
            continue
        reason = another_name(x, y, transliterated, max(len(a), len(b)), (a, b))
        if reason is not None and not gendered_pair(x, y):
            return PartSimilarity(ONE_SLIP, f"1 slip, or another name ({reason})")
    return NO_MATCH


_DOUBLED = re.compile(r"(.)\1+")


def differ_by_doubling(a: str, b: str) -> bool:
    """Whether two spellings differ only in letters written twice (Thandolwethu / Thanddolwethu): a spelling
    variant to the spelling key, and the commonest keystroke slip there is."""
    return a != b and _DOUBLED.sub(r"\1", a) == _DOUBLED.sub(r"\1", b)


def _consonants(a: str, b: str) -> PartSimilarity:
    """Compare a part transliterated from an abjad ("mhmd") with another on consonants only."""
    readings_a, readings_b = consonant_readings(a), consonant_readings(b)
    if readings_a & readings_b:
        return PartSimilarity(CONSONANTS_AGREE, "consonants agree (script without vowels)")
    skel_a, skel_b = consonants(a), consonants(b)
    if min(len(skel_a), len(skel_b)) >= 4 and OSA.distance(skel_a, skel_b, score_cutoff=2) <= 1:
        return PartSimilarity(round(CONSONANTS_AGREE - SLIP_COST, 4), "consonants agree but one")
    return NO_MATCH


def _attached_particle(a: str, b: str, abjad: bool) -> PartSimilarity:
    """ "alassad" against "assad", "lambikiza" against "mbikiza": a particle written joined to the part."""
    prefixes = ATTACHABLE_PREFIXES + ABJAD_PREFIXES if abjad else ATTACHABLE_PREFIXES
    if not (a.startswith(prefixes) or b.startswith(prefixes)):
        return NO_MATCH  # the common case, in one test per part
    for longer, shorter in ((a, b), (b, a)):
        for prefix in prefixes:
            rest = longer[len(prefix) :]
            shortest = 2 if abjad else 3
            if longer.startswith(prefix) and len(rest) >= shortest and len(shorter) >= shortest:
                if rest == shorter or spelling_key(rest) == spelling_key(shorter):
                    return PartSimilarity(ATTACHED_PARTICLE, f"same part with '{prefix}' attached")
                if abjad and consonant_readings(rest) & consonant_readings(shorter):
                    return PartSimilarity(ATTACHED_PARTICLE, f"same part with '{prefix}' attached")
    return NO_MATCH


@lru_cache(maxsize=262144)
def part_similarity(a: str, b: str, a_kind: str = "latin", b_kind: str = "latin") -> PartSimilarity:
    """How alike two name parts are. Kinds say where the letters came from: "latin", "translit" (another
    script) or "abjad" (a script without short vowels). Symmetric, deterministic, cached."""
    if a == b:
        return PartSimilarity(EXACT, "exact")
    if len(a) == 1 or len(b) == 1:
        if a[0] == b[0]:
            return PartSimilarity(INITIAL, "initial")
        return NO_MATCH
    abjad = "abjad" in (a_kind, b_kind)
    if abjad:
        result = _consonants(a, b)
        if result.score:
            return result
    if "syllabic" in (a_kind, b_kind):
        # romanised from whole characters: spellings differ by convention, never by a slip (Jinping / Jinming
        # are two names)
        if spelling_key(a) == spelling_key(b):
            return PartSimilarity(SPELLING_VARIANT, "spelling variant")
        if translit_key(a) == translit_key(b):
            return PartSimilarity(TRANSLITERATION_VARIANT, "transliteration variant")
        return NO_MATCH
    result = _slip(a, b, transliterated=a_kind != "latin" or b_kind != "latin")
    if result.score:
        return result
    return _attached_particle(a, b, abjad)
