"""From a written name to the ordered name parts the matcher compares.

Every script is transliterated to lower-case Latin letters first (anyascii: a table per code point, no data
files to load), so "Владимир Путин", "Vladimir Putin" and "PUTIN, Vladimir" all become the parts
("vladimir", "putin"). What carries no identity is dropped and reported: titles and honorifics at the start,
generational suffixes and regnal numbers at the end, bracketed or quoted nicknames, punctuation and digits.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from anyascii import anyascii

from names.vocabulary import (
    ABJAD_SCRIPTS,
    DOTTED_TITLES,
    REGNAL_NUMBERS,
    SUFFIXES,
    SYLLABIC_NAME_SCRIPTS,
    TITLES,
)

# Names longer than this are cut: the alignment is exponential in the shorter name's length, and no real
# person's name needs more parts than this to be told apart.
MAX_PARTS = 8

_BRACKETED = re.compile(r"\([^)]*\)|\[[^\]]*\]|\"[^\"]*\"|“[^”]*”|«[^»]*»")
_DOTTED_ABBREVIATION = re.compile(r"^(?:[A-Za-z]\.){2,}$")
_SEPARATORS = re.compile(r"[\s\-‐‑–—_./\\|+&:;!?*#@~^=<>{}\[\]()\"“”«»,]+")
# Digits inside a word are OCR's misreadings of letters ("DLAM1NI", "M0TSA"); digits alone are dropped.
# "1" is read as "i", far commoner in names than "l".
_OCR_DIGITS = str.maketrans("0123456789", "oizeasgtbg")
# Apostrophes and the letters transliteration uses for glottal stops (ʿayn, hamza) join the word: O'Brien.
_JOINERS = re.compile(r"['’‘`ʻʼʿʾ´]")


@dataclass(frozen=True)
class Ignored:
    """A piece of the written name that the matcher dropped, and why (title, suffix, regnal number, ...)."""

    text: str
    reason: str


@dataclass(frozen=True)
class ParsedName:
    """A name as the matcher sees it.

    parts: lower-case Latin name parts in reading order ("Surname, Given" is turned round to "given surname").
    ignored: what was dropped, with the reason.
    scripts: the non-Latin scripts the name was written in (e.g. ("Cyrillic",)), empty for Latin names.
    kinds: per part, where its letters came from: "latin"; "translit" (another alphabet, transliterated);
    "syllabic" (CJK or Hangul, one character per syllable: romanised, never mistyped); or "abjad" (a script whose
    transliteration omits vowels, "mhmd": compared on consonants).
    """

    original: str
    parts: tuple[str, ...]
    ignored: tuple[Ignored, ...] = ()
    scripts: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.kinds) != len(self.parts):
            object.__setattr__(self, "kinds", ("latin",) * len(self.parts))


@dataclass(frozen=True)
class _Token:
    text: str
    kind: str = "latin"
    title: bool = False


def _script_of(char: str) -> str | None:
    """The Unicode script family of a letter, from its character name ("CYRILLIC SMALL LETTER A" -> CYRILLIC)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    if not name:
        return None
    first = name.split()[0]
    if first in ("CJK", "KANGXI"):
        return "CJK"
    return first


def _ascii_letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", anyascii(_JOINERS.sub("", text)).lower())


def _syllabic_tokens(word: str) -> list[str]:
    """A run of CJK or Hangul characters: one syllable per character, family name first, the rest one given name."""
    syllables = [_ascii_letters(char) for char in word]
    syllables = [syllable for syllable in syllables if syllable]
    if len(syllables) <= 1:
        return syllables
    return [syllables[0], "".join(syllables[1:])]


def _word_tokens(word: str) -> tuple[list[_Token], set[str]]:
    """One whitespace-free word, possibly mixing scripts, into Latin tokens and the scripts it used."""
    # an ASCII word is Latin letters or marks: no character name to look up (most names on every list)
    scripts = set() if word.isascii() else {script for script in map(_script_of, word) if script and script != "LATIN"}
    if scripts & SYLLABIC_NAME_SCRIPTS and not (scripts - SYLLABIC_NAME_SCRIPTS):
        return [_Token(token, "syllabic") for token in _syllabic_tokens(word)], scripts
    kind = "abjad" if scripts & ABJAD_SCRIPTS else "translit" if scripts else "latin"
    text = _ascii_letters(word)
    return ([_Token(text, kind)] if text else []), scripts


def _segment_tokens(segment: str, ignored: list[Ignored], scripts: set[str]) -> list[_Token]:
    tokens: list[_Token] = []
    for raw in segment.split():
        if _DOTTED_ABBREVIATION.match(raw) and raw.replace(".", "").lower() in DOTTED_TITLES:
            tokens.append(_Token(raw.replace(".", "").lower(), title=True))
            continue
        for word in _SEPARATORS.split(raw):
            if not word:
                continue
            if word.isdigit():
                ignored.append(Ignored(word, "digits"))
                continue
            if any(char.isdigit() for char in word):
                ignored.append(Ignored(word, "digits read as letters"))
                word = word.translate(_OCR_DIGITS)
            word_tokens, word_scripts = _word_tokens(word)
            scripts |= word_scripts
            tokens.extend(word_tokens)
    # Titles stand at the start, suffixes and regnal numbers at the end; both only while other parts remain,
    # and only as written in Latin letters (the Arabic "عمر", Omar, transliterates to "mr").
    while len(tokens) > 1 and (tokens[0].title or (tokens[0].kind == "latin" and tokens[0].text in TITLES)):
        ignored.append(Ignored(tokens.pop(0).text, "title"))
    while (
        len(tokens) > 1
        and tokens[-1].kind == "latin"
        and (tokens[-1].text in SUFFIXES or tokens[-1].text in REGNAL_NUMBERS)
    ):
        token = tokens.pop()
        ignored.append(Ignored(token.text, "regnal number" if token.text in REGNAL_NUMBERS else "suffix"))
    return tokens


def _is_only_titles(segment: str) -> bool:
    words = [_ascii_letters(word) for word in _SEPARATORS.split(segment)]
    words = [word for word in words if word]
    return bool(words) and all(
        word in TITLES or word in SUFFIXES or word in REGNAL_NUMBERS or word in DOTTED_TITLES for word in words
    )


@lru_cache(maxsize=65536)
def parse_name(name: str) -> ParsedName:
    """Parse a written name into ordered Latin name parts, reporting what was ignored. Pure and cached."""
    ignored: list[Ignored] = []
    text = unicodedata.normalize("NFKC", name or "")
    for bracketed in _BRACKETED.findall(text):
        ignored.append(Ignored(bracketed, "bracketed or quoted"))
    text = _BRACKETED.sub(" ", text)

    segments = [segment.strip() for segment in text.split(",")]
    kept: list[str] = []
    for segment in segments:
        if not segment:
            continue
        if kept and _is_only_titles(segment):
            ignored.append(Ignored(segment, "title or suffix after a comma"))
            continue
        kept.append(segment)
    if len(kept) == 2:
        # "Dlamini, Sipho": the family name was written first; read it as "Sipho Dlamini".
        kept = [kept[1], kept[0]]
        ignored.append(Ignored(",", "surname-first comma"))

    scripts: set[str] = set()
    tokens: list[_Token] = []
    for segment in kept:
        tokens.extend(_segment_tokens(segment, ignored, scripts))
    if len(tokens) > MAX_PARTS:
        ignored.append(Ignored(" ".join(token.text for token in tokens[MAX_PARTS:]), "beyond the part limit"))
        tokens = tokens[:MAX_PARTS]
    return ParsedName(
        original=name,
        parts=tuple(token.text for token in tokens),
        ignored=tuple(ignored),
        scripts=tuple(sorted(script.title() for script in scripts)),
        kinds=tuple(token.kind for token in tokens),
    )
