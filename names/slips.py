"""What one slip looks like, and which single edits make another name instead.

A slip is a mechanical accident of writing a name down: a finger on the key beside the intended one, a letter
doubled or dropped, two letters swapped, a vowel misheard, a consonant written as it sounds, a letter misread by
OCR. Names, on the other hand, are built from each other by a few morphological moves: a gendered or diminutive
ending (Paulo / Paula, Daniel / Daniela, Themba / Thembi), a class prefix (Andile / Wandile), an added syllable
(Sipho / Siphiwe). The matcher reads a single edit as a slip unless it is one of those moves, whatever the
part's length: a move makes another name in "Francesco" as much as in "Paulo", and a dropped "i" in
"Lungisani" is a slip as much as in "Sipho".

One rule here is about short parts only (seven letters or fewer, where one letter is a large share of the part
and real names lie one letter apart: Mabuza / Mabuya, Nkosi / Nkomo): there, a consonant written for another
that no mechanism of writing explains (not a key beside it, not a consonant that sounds or looks alike) is read
as another name. Names one letter apart keep their syllables, so a vowel written for a consonant or the reverse
(Njabulo / Njrbulo, Lindiwe / Lindiwn) is a slip however far apart the keys (1.3.0). A letter dropped or added
is never judged so: a key not struck, or struck twice, is a slip of any letter. Sesotho writes one sound as l
or d (before i and u: Lesotho's "Lineo" is South Africa's "Dineo"), so d and l sound alike (1.3.0).
"""

from functools import cache

from names.vocabulary import FEMININE_ADDED_VOWELS, NAME_ENDING_VOWEL_PAIRS

VOWELS = frozenset("aeiou")
# A part this short or shorter has real names one edit away: an unexplained edit there is another name.
SHORT_PART = 7

_KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
# Consonants one sound apart: voicing (b/p, d/t, g/k, v/f, z/s), the letters of one sound (c/k/q/s, j/y/i),
# nasals and liquids heard one for the other (m/n, l/r), v/w, and Sesotho's l/d.
_SOUND_ALIKE = ("bp", "dt", "gkcq", "vfw", "zsc", "jyi", "mn", "lr", "xks", "dl")
# Letters OCR reads one for the other.
_SHAPE_ALIKE = ("ce", "hnb", "uv", "ilj", "gq", "mn", "oa")


@cache
def _key_neighbours() -> dict[str, frozenset[str]]:
    """Keys touching each key on a QWERTY keyboard: beside it in its row, and diagonally or above/below in
    the rows next to it (the rows are staggered, so three columns of each neighbouring row are counted)."""
    found: dict[str, set[str]] = {}
    for row_index, row in enumerate(_KEY_ROWS):
        for column, key in enumerate(row):
            near = found.setdefault(key, set())
            near.update(row[i] for i in (column - 1, column + 1) if 0 <= i < len(row))
            for other in (row_index - 1, row_index + 1):
                if 0 <= other < len(_KEY_ROWS):
                    near.update(_KEY_ROWS[other][i] for i in (column - 1, column, column + 1)
                                if 0 <= i < len(_KEY_ROWS[other]))  # fmt: skip
    return {key: frozenset(near) for key, near in found.items()}


@cache
def _alike(x: str, y: str) -> bool:
    """Whether one letter is written for another by a slip: a key beside it, a vowel for a vowel, a consonant
    that sounds alike or a letter that looks alike to OCR."""
    if x == y or (x in VOWELS and y in VOWELS):
        return True
    if y in _key_neighbours().get(x, frozenset()):
        return True
    return any(x in group and y in group for group in (*_SOUND_ALIKE, *_SHAPE_ALIKE))


def unexplained_edit(a: str, b: str, length: int, written: tuple[str, str] | None = None) -> str | None:
    """For two spellings one substitution apart, of a part of ``length`` letters as written, why that
    substitution is no slip (another name: Mabuza / Mabuya), or None. A letter dropped or added, or two
    neighbours swapped, is always a slip; longer parts and spellings more than one edit apart are left to the
    edit budget. ``written`` is the two parts as written when a and b are their spelling keys."""
    if length > SHORT_PART or a == b:
        return None
    if len(a) != len(b):
        return None  # a letter dropped is a slip of any letter: a key not struck
    differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(differing) != 1:
        return None  # a swap, or more than one edit: not judged here
    i = differing[0]
    # A vowel written for a consonant or the reverse breaks the part's syllables (Njabulo / Njrbulo): names one
    # letter apart keep their shape and differ consonant for consonant (Mabuza / Mabuya). Judged on the letters
    # as written, and only where they are one substitution apart: the spelling key writes y as i (Mabuya is
    # "mabuia" to it), so its letters cannot say which is a vowel.
    if written and len(written[0]) == len(written[1]):
        letters = [(x, y) for x, y in zip(*written, strict=True) if x != y]
        if len(letters) == 1 and (letters[0][0] in VOWELS) != (letters[0][1] in VOWELS):
            return None
    return None if _alike(a[i], b[i]) else "a different consonant"


def ending_makes_another_name(a: str, b: str) -> str | None:
    """For two spellings that differ only in a final vowel (changed, added or dropped), whether the difference
    is one of the endings that build names from names, or None for a slip.

    Gendered and diminutive endings: a changed final vowel in NAME_ENDING_VOWEL_PAIRS (Paulo / Paula, Daniele /
    Daniela, Themba / Thembi, Thando / Thandi, Julie / Julio), an added final vowel in FEMININE_ADDED_VOWELS
    (Daniel / Daniela, Louis / Louise). Another vowel changed, added or dropped (Tsabedze / Tsabedzi,
    Lungisani / Lungisan), or a vowel that doubles the one before it (Banele / Banelee), is a slip."""
    stem = min(len(a), len(b)) - (len(a) == len(b))
    tail_a, tail_b = a[stem:], b[stem:]
    if tail_a and tail_b:
        return "a changed final vowel" if frozenset((tail_a, tail_b)) in NAME_ENDING_VOWEL_PAIRS else None
    added = tail_a or tail_b
    if added == a[stem - 1]:
        return None  # a doubled letter
    return "an added or dropped final vowel" if added in FEMININE_ADDED_VOWELS else None
