"""Generate the adversarial labelled pairs (adversarial_dev.csv, adversarial_test.csv) by a fixed procedure.

    .venv/bin/python bench/names/adversarial.py          # rewrite both files
    .venv/bin/python bench/names/adversarial.py --check  # fail if the files differ from what the procedure gives

Why a generator and not a hand list: every pair is labelled by how it was made, not by what the matcher says,
so the set cannot be fitted to the matcher pair by pair. Nothing here reads the matcher (names) or the
other sets in bench/names.

The procedure:

1. People are drawn from name pools written below (given names and family names of Eswatini and its
   neighbours, of Mozambique, of South Africa's English and Afrikaans speakers, Swahili-Arabic names of the
   east coast, Russian and Greek names). Each pool is split in two by position (even / odd), so the dev set
   and the test set share no name: whatever was learnt looking at dev failures is measured on names never
   looked at. About a third of the people get a middle name.
2. Positives (label 1) are the same person written another way, one category per way (see POSITIVES): a random
   slip in every part of four letters or more ("typo-each"), a slip in one part ("typo-one"), an adjacent
   transposition, diacritics, case and punctuation, surname first, an initial, a missing middle name, a title,
   siSwati / isiZulu / Sesotho spelling habits (see spelling_habit), the name written in Cyrillic, Arabic or (for
   Greek names) an independent Greek-to-Latin romanisation, and combinations. Slips are drawn uniformly over
   positions and kinds (keyboard-neighbour or vowel substitution, insertion, deletion, transposition). A slip
   that happens to spell another name of the pools is discarded: its label would be a guess. Nicknames are left
   out on purpose: no rule derives Bheki from Bhekumuzi; they belong in aliases.
3. Negatives (label 0) are two different people built to look alike (see NEGATIVES): the same family name
   with another given name (half of them a common family name), the same given name with another family
   name, a family name one or two letters from another real one, relatives with related given names
   (a hand list of real pairs: Thando / Thandi, Antonio / Antonia, ...), relatives written with a slip in
   the family name, two people sharing two parts of three, a different initial, and unrelated people.
4. The random generator is seeded; the files are written in category order, so a change to the procedure
   shows up as a reviewable diff. Pairs that would appear with both labels are dropped (none so far).

Parts of three letters or fewer get no slip: one letter changed in "Ali" or "Ben" spells another name, and
the matcher refuses slips there by design; a typo there is not recoverable by any name matcher.
"""

import argparse
import csv
import io
import random
import re
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20240521
FIELDS = ("query", "candidate", "label", "category", "query_dob", "candidate_dob", "query_country",
          "candidate_country", "candidate_aliases")  # fmt: skip

# ---------------------------------------------------------------------------------------------------- pools
# Written for this set; region tags decide which scripts and spelling habits apply.
SWAZI_GIVEN = """
Nomvula Mfanzile Ncamsile Phindile Temalangeni Sikhumbuzo Bonisile Nokwanda Zandile Siphesihle Ntombifuthi
Mbongeni Dumisani Khanyisile Thulisile Gcinile Banele Senzo Mcolisi Hlengiwe Thabsile Thembekile Sindisiwe
Mxolisi Simangele Sabelo Mpendulo Tengetile Nelisiwe Makhosazana Siboniso Melusi Ntokozo Velaphi Sanele
Lomcebo Fikile Nosipho Welile Sibonelo Khetsiwe Bhekithemba Lungisani Nqobile Ayanda Mbuso Sinethemba
Mthunzi Nonjabulo Celiwe Thokozani Phiwokuhle Sandziso Lwandle Mfundo Hlobsile Zinhle Nokulunga Bongumusa
Kwanele Samkelo Tfobile Sithembiso Nomfundo Mzwandile Nokubonga Lindokuhle Zakhele Thandolwethu
""".split()
SWAZI_FAMILY = """
Dlamini Simelane Nkambule Mkhonta Gama Hlatshwako Maziya Mamba Ngcamphalala Kunene Shabangu Sihlongonyane
Msimango Mkhatshwa Tfwala Dvuba Lukhele Nxumalo Mahlalela Magongo Matse Mabuza Masilela Ndzimandze Vilakati
Ntshalintshali Nhleko Mncina Dladla Mavimbela Khumalo Mngometulu Gumedze Fakudze Motsa Tsabedze Mdluli
Sacolo Bhembe Mthupha Malinga Shongwe Hlophe Lokotfwako Manana Mabila Sukati Thwala Msibi Maseko Magagula
Nsibandze Madonsela Mkhabela Matsebula Mtsetfwa Gwebu Mhlanga Ndlela Nkwanyana Zwane Ginindza Khoza
""".split()
MOZ_GIVEN = "Armando Felisberto Celestino Ermelinda Graciano Albertina Januario Deolinda Anselmo Belmira".split()
MOZ_FAMILY = "Machava Cossa Tembe Sitoe Mondlane Nhantumbo Macuacua Guambe Chissano Mabunda".split()
ZA_GIVEN = "Johannes Marthinus Elizabeth Margaretha Hendrik Susanna Cornelius Gertruida Willem Annelie".split()
ZA_FAMILY = "Pretorius Bezuidenhout Venter Steenkamp Oosthuizen Potgieter Swanepoel Grobler Kruger Coetzee".split()
ARABIC_GIVEN = "Hassan Fatuma Yusuf Khadija Ibrahim Mwanaisha Salim Zainabu Omari Rehema".split()
ARABIC_FAMILY = "Abdallah Suleiman Mbarak Hamisi Shaaban Ramadhani Bakari Athumani Mussa Rashidi".split()
RUSSIAN = [  # (Cyrillic, Latin as a passport would write it)
    ("Дмитрий", "Dmitriy"), ("Светлана", "Svetlana"), ("Алексей", "Aleksey"), ("Татьяна", "Tatyana"),
    ("Николай", "Nikolay"), ("Ирина", "Irina"), ("Сергей", "Sergey"), ("Екатерина", "Yekaterina"),
]  # fmt: skip
RUSSIAN_FAMILY = [
    ("Кузнецов", "Kuznetsov"), ("Соколов", "Sokolov"), ("Морозов", "Morozov"), ("Волков", "Volkov"),
    ("Лебедев", "Lebedev"), ("Новиков", "Novikov"), ("Фёдоров", "Fedorov"), ("Михайлов", "Mikhaylov"),
]  # fmt: skip
GREEK_GIVEN = "Γιώργος Ελένη Δημήτρης Κατερίνα Κωνσταντίνος Σοφία Νικόλαος Βασιλική".split()
GREEK_FAMILY = "Παπαδόπουλος Οικονόμου Γεωργίου Καραγιάννης Βλάχος Αντωνίου Μαυρίδης Χριστοδούλου".split()

# Real related given names (derivations, short forms, gender pairs): different people in one family.
RELATED_GIVEN = [
    ("Thando", "Thandi"), ("Themba", "Thembi"), ("Lungile", "Lungelo"), ("Phumzile", "Phumlani"),
    ("Gugu", "Gugulethu"), ("Nandi", "Nandipha"), ("Andile", "Andiswa"), ("Mbali", "Mbalenhle"),
    ("Vusi", "Vusumuzi"), ("Mandla", "Mandlenkosi"), ("Jabu", "Jabulile"), ("Thulani", "Thuli"),
    ("Xolani", "Xoliswa"), ("Nkosana", "Nkosazana"), ("Sibongile", "Sibongiseni"), ("Simphiwe", "Siphiwe"),
    ("Zodwa", "Zodwakhe"), ("Bheki", "Bhekani"), ("Musa", "Musawenkosi"), ("Nhlanhla", "Nonhlanhla"),
    ("Antonio", "Antonia"), ("Roberto", "Roberta"), ("Paulo", "Paula"), ("Fernando", "Fernanda"),
    ("Gabriel", "Gabriela"), ("Luis", "Luisa"), ("Francesco", "Francesca"), ("Julio", "Julia"),
    ("Evgeniy", "Evgeniya"), ("Aleksandr", "Aleksandra"), ("Christo", "Christa"), ("Jacobus", "Jacoba"),
]  # fmt: skip
# Different family names one or two letters apart (both real): Masuku and Maseko are two families.
NEAR_FAMILY = [
    ("Masuku", "Maseko"), ("Mkhonta", "Mkhonto"), ("Ndlovu", "Ndlela"), ("Mabuza", "Mabuya"),
    ("Mthembu", "Mthimkhulu"), ("Nkosi", "Nkomo"), ("Zwane", "Zwide"), ("Khoza", "Khosa"),
    ("Mamba", "Mabaso"), ("Shabangu", "Shabalala"), ("Msibi", "Msimang"), ("Hlophe", "Hlongwane"),
    ("Botha", "Booth"), ("Venter", "Vermeulen"), ("Cossa", "Costa"), ("Tembe", "Tembo"),
]  # fmt: skip
COMMON_FAMILY = ["Dlamini", "Simelane", "Nkosi", "Mamba", "Shongwe", "Ndlovu", "Motsa", "Zwane", "Magagula"]
TITLES = ["Hon.", "Dr", "Inkhosikati", "Mr", "Prof.", "Rev.", "Umntfwana", "Senator"]

# ------------------------------------------------------------------------------------------- scripts
_CYRILLIC = [
    ("shch", "щ"), ("sh", "ш"), ("ch", "ч"), ("zh", "ж"), ("ts", "ц"), ("kh", "кх"), ("ph", "пх"), ("th", "т"),
    ("ya", "я"), ("yu", "ю"), ("a", "а"), ("b", "б"), ("c", "к"), ("d", "д"), ("e", "е"), ("f", "ф"),
    ("g", "г"), ("h", "х"), ("i", "и"), ("j", "дж"), ("k", "к"), ("l", "л"), ("m", "м"), ("n", "н"),
    ("o", "о"), ("p", "п"), ("q", "к"), ("r", "р"), ("s", "с"), ("t", "т"), ("u", "у"), ("v", "в"),
    ("w", "в"), ("x", "кс"), ("y", "й"), ("z", "з"),
]  # fmt: skip
# Arabic as the press of the region writes a Swahili-Arabic name: long vowels as letters, short ones left out
# where Arabic itself leaves them out (after a consonant, a/e -> nothing, i -> ي, o/u -> و).
_ARABIC = [
    ("sh", "ش"), ("kh", "خ"), ("th", "ث"), ("dh", "ذ"), ("gh", "غ"), ("aa", "ا"), ("b", "ب"), ("t", "ت"),
    ("j", "ج"), ("h", "ح"), ("d", "د"), ("r", "ر"), ("z", "ز"), ("s", "س"), ("f", "ف"), ("q", "ق"), ("k", "ك"),
    ("l", "ل"), ("m", "م"), ("n", "ن"), ("w", "و"), ("y", "ي"), ("i", "ي"), ("e", ""), ("o", "و"), ("u", "و"),
    ("a", ""), ("g", "غ"), ("p", "ب"), ("v", "ف"), ("c", "ك"), ("x", "كس"),
]  # fmt: skip
# Greek to Latin as ELOT 743 writes it (not the transliteration library the matcher uses).
_GREEK = [
    ("ου", "ou"), ("αι", "ai"), ("ει", "ei"), ("οι", "oi"), ("μπ", "mp"), ("ντ", "nt"), ("γκ", "gk"),
    ("γγ", "ng"), ("α", "a"), ("β", "v"), ("γ", "g"), ("δ", "d"), ("ε", "e"), ("ζ", "z"), ("η", "i"),
    ("θ", "th"), ("ι", "i"), ("κ", "k"), ("λ", "l"), ("μ", "m"), ("ν", "n"), ("ξ", "x"), ("ο", "o"), ("π", "p"),
    ("ρ", "r"), ("σ", "s"), ("ς", "s"), ("τ", "t"), ("υ", "y"), ("φ", "f"), ("χ", "ch"), ("ψ", "ps"),
    ("ω", "o"),
]  # fmt: skip


def _by_table(word: str, table: list[tuple[str, str]]) -> str:
    out, rest = [], word.lower()
    while rest:
        for source, target in table:
            if rest.startswith(source):
                out.append(target)
                rest = rest[len(source) :]
                break
        else:
            out.append(rest[0])
            rest = rest[1:]
    text = "".join(out)
    return text[:1].upper() + text[1:]


def to_cyrillic(name: str) -> str:
    return " ".join(_by_table(word, _CYRILLIC) for word in name.split())


def to_arabic(name: str) -> str:
    words = []
    for word in name.split():
        lower = word.lower()
        # a word-initial vowel is written with alif; a word-final a with ta marbuta-less alif
        head = "ا" if lower[0] in "aeiou" else ""
        body = _by_table(lower[1:] if head else lower, _ARABIC)
        tail = "ا" if lower.endswith("a") else ""
        words.append(head + body + tail)
    return " ".join(words)


def greek_to_latin(name: str) -> str:
    plain = "".join(c for c in unicodedata.normalize("NFD", name) if unicodedata.category(c) != "Mn")
    return " ".join(_by_table(word, _GREEK) for word in plain.split())


# --------------------------------------------------------------------------------------------- slips
_KEYBOARD = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
VOWELS = "aeiou"


def _neighbours(char: str) -> str:
    for row_index, row in enumerate(_KEYBOARD):
        column = row.find(char)
        if column < 0:
            continue
        near = [row[i] for i in (column - 1, column + 1) if 0 <= i < len(row)]
        for other in (row_index - 1, row_index + 1):
            if 0 <= other < len(_KEYBOARD):
                near += [_KEYBOARD[other][i] for i in (column - 1, column) if 0 <= i < len(_KEYBOARD[other])]
        return "".join(near)
    return char


def slip(word: str, rng: random.Random) -> str:
    """One slip at a uniformly drawn position: substitution (a keyboard neighbour, or a vowel for a vowel),
    insertion (a doubled or neighbouring letter), deletion, or transposition of two adjacent letters."""
    lower = word.lower()
    kind = rng.choice(("substitute", "vowel", "insert", "delete", "transpose"))
    position = rng.randrange(len(lower))
    char = lower[position]
    if kind == "vowel" and char not in VOWELS:
        kind = "substitute"
    if kind == "substitute":
        new = lower[:position] + rng.choice(_neighbours(char)) + lower[position + 1 :]
    elif kind == "vowel":
        new = lower[:position] + rng.choice([v for v in VOWELS if v != char]) + lower[position + 1 :]
    elif kind == "insert":
        added = rng.choice([char, *_neighbours(char)])
        new = lower[:position] + added + lower[position:]
    elif kind == "delete":
        new = lower[:position] + lower[position + 1 :]
    else:
        position = min(position, len(lower) - 2)
        new = lower[:position] + lower[position + 1] + lower[position] + lower[position + 2 :]
    return _like(new, word)


def _like(new: str, model: str) -> str:
    return new.upper() if model.isupper() else new[:1].upper() + new[1:] if model[:1].isupper() else new


# siSwati, isiZulu and Sesotho spelling habits, each a (written, also written) pair applied before a vowel
# (or w): aspiration written or not (Khumalo / Kumalo, Thabsile / Tabsile, Bhembe / Bembe); siSwati's nkh,
# dv and tf where isiZulu writes nk, d and th (Nkhosi / Nkosi, Dvuba / Duba, kutfola / ukuthola: Tfwala /
# Thwala); Sesotho's tsh for ts. The siSwati-only spellings are only taken away, never added (not every d is
# a dv).
_BOTH_WAYS = [("kh", "k"), ("th", "t"), ("ph", "p"), ("bh", "b"), ("nkh", "nk")]
_ONE_WAY = [("dv", "d"), ("tf", "th"), ("tsh", "ts")]


def spelling_habit(word: str, rng: random.Random) -> str | None:
    lower = word.lower()
    habits = _ONE_WAY + _BOTH_WAYS + [(other, written) for written, other in _BOTH_WAYS]
    options = set()
    for source, target in habits:
        for match in re.finditer(f"(?<![a-z]h)(?<!s){source}(?=[aeiouw])", lower):
            if target.startswith(source) and lower[match.end() : match.end() + 1] == "h":
                continue
            if source in ("k", "t", "p", "b") and match.start() > 0 and lower[match.start() - 1] in "nsct":
                continue  # nk is its own habit; sk, ck, tt are not aspirated stops
            options.add(lower[: match.start()] + target + lower[match.end() :])
    options.discard(lower)
    return _like(rng.choice(sorted(options)), word) if options else None


_ACCENTS = {"a": "áàâã", "e": "éèêë", "i": "íï", "o": "óôõö", "u": "úüû", "c": "ç", "n": "ñ"}


def accented(word: str, rng: random.Random) -> str:
    positions = [i for i, c in enumerate(word.lower()) if c in _ACCENTS]
    chosen = set(rng.sample(positions, k=min(len(positions), rng.randint(1, 2))))
    out = []
    for i, c in enumerate(word):
        if i in chosen:
            mark = rng.choice(_ACCENTS[c.lower()])
            out.append(mark.upper() if c.isupper() else mark)
        else:
            out.append(c)
    return "".join(out)


# ------------------------------------------------------------------------------------------ people
def _half(items: list, half: int) -> list:
    return items[half::2]


def _pool_half(name: str) -> int | None:
    for pool in (SWAZI_GIVEN, SWAZI_FAMILY, MOZ_GIVEN, MOZ_FAMILY, ZA_GIVEN, ZA_FAMILY, ARABIC_GIVEN, ARABIC_FAMILY):
        if name in pool:
            return pool.index(name) % 2
    return None


def _claimed(pairs: list[tuple[str, str]], half: int) -> list[tuple[str, str]]:
    claimed, free = [], []
    for pair in pairs:
        halves = {_pool_half(name) for name in pair} - {None}
        if not halves:
            free.append(pair)
        elif halves == {half}:
            claimed.append(pair)
    return claimed + _half(free, half)


class Pools:
    """One half of the name pools (dev: even positions, test: odd positions), with no name in both halves."""

    def __init__(self, half: int) -> None:
        self.swazi_given, self.swazi_family = _half(SWAZI_GIVEN, half), _half(SWAZI_FAMILY, half)
        self.moz_given, self.moz_family = _half(MOZ_GIVEN, half), _half(MOZ_FAMILY, half)
        self.za_given, self.za_family = _half(ZA_GIVEN, half), _half(ZA_FAMILY, half)
        self.arabic_given, self.arabic_family = _half(ARABIC_GIVEN, half), _half(ARABIC_FAMILY, half)
        self.russian, self.russian_family = _half(RUSSIAN, half), _half(RUSSIAN_FAMILY, half)
        self.greek_given, self.greek_family = _half(GREEK_GIVEN, half), _half(GREEK_FAMILY, half)
        self.common_family = [name for name in self.swazi_family if name in COMMON_FAMILY]
        # a pair of related or near names goes with the half holding one of its names, else by position
        self.related = _claimed(RELATED_GIVEN, half)
        self.near_family = _claimed(NEAR_FAMILY, half)
        self.all_names = {
            name.lower()
            for pool in (
                SWAZI_GIVEN,
                SWAZI_FAMILY,
                MOZ_GIVEN,
                MOZ_FAMILY,
                ZA_GIVEN,
                ZA_FAMILY,
                ARABIC_GIVEN,
                ARABIC_FAMILY,
            )  # fmt: skip
            for name in pool
        } | {name.lower() for pair in RELATED_GIVEN + NEAR_FAMILY for name in pair}
        self.all_names |= {latin.lower() for _, latin in RUSSIAN + RUSSIAN_FAMILY}

    def names(self) -> set[str]:
        """Every name this half can draw (for checking that the halves are disjoint)."""
        pools = (self.swazi_given, self.swazi_family, self.moz_given, self.moz_family, self.za_given, self.za_family,
                 self.arabic_given, self.arabic_family, self.greek_given, self.greek_family)  # fmt: skip
        names = {name.lower() for pool in pools for name in pool}
        names |= {name.lower() for pair in self.russian + self.russian_family for name in pair}
        return names | {name.lower() for pair in self.related + self.near_family for name in pair}

    def region(self, rng: random.Random) -> str:
        # mostly Eswatini, as the platform's users are
        return rng.choices(("swazi", "moz", "za", "arabic"), weights=(70, 10, 10, 10))[0]

    def given_pool(self, region: str) -> list[str]:
        return {"swazi": self.swazi_given, "moz": self.moz_given, "za": self.za_given, "arabic": self.arabic_given}[
            region
        ]

    def family_pool(self, region: str) -> list[str]:
        return {"swazi": self.swazi_family, "moz": self.moz_family, "za": self.za_family,
                "arabic": self.arabic_family}[region]  # fmt: skip

    def person(self, rng: random.Random, region: str | None = None, middle: bool | None = None) -> list[str]:
        region = region or self.region(rng)
        given = self.given_pool(region)
        first = rng.choice(given)
        parts = [first]
        if middle if middle is not None else rng.random() < 1 / 3:
            parts.append(rng.choice([name for name in given if name != first]))
        parts.append(rng.choice(self.family_pool(region)))
        return parts


def _slipped(parts: list[str], indexes: list[int], pools: Pools, rng: random.Random) -> list[str] | None:
    out = list(parts)
    for index in indexes:
        for _ in range(20):
            new = slip(parts[index], rng)
            if new.lower() != parts[index].lower() and new.lower() not in pools.all_names:
                out[index] = new
                break
        else:
            return None
    return out


def _long(parts: list[str]) -> list[int]:
    return [index for index, part in enumerate(parts) if len(part) >= 4]


# ------------------------------------------------------------------------------------------ positives
Maker = Callable[[Pools, random.Random], tuple[str, str] | None]


def typo_each(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    other = _slipped(parts, _long(parts), pools, rng)
    return other and (" ".join(parts), " ".join(other))


def typo_one(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    other = _slipped(parts, [rng.choice(_long(parts))], pools, rng)
    return other and (" ".join(parts), " ".join(other))


def transposition(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    index = rng.choice(_long(parts))
    word = parts[index].lower()
    position = rng.randrange(len(word) - 1)
    swapped = word[:position] + word[position + 1] + word[position] + word[position + 2 :]
    if swapped == word or swapped in pools.all_names:
        return None
    other = list(parts)
    other[index] = _like(swapped, parts[index])
    return " ".join(parts), " ".join(other)


def diacritics(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    return " ".join(parts), " ".join(accented(part, rng) if rng.random() < 0.7 else part for part in parts)


def case_punctuation(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    style = rng.choice(("upper", "lower", "hyphen", "spaces"))
    if style == "upper":
        other = " ".join(parts).upper()
    elif style == "lower":
        other = " ".join(parts).lower()
    elif style == "hyphen":
        other = "-".join(parts[:-1]) + " " + parts[-1]
    else:
        other = "  ".join(parts) + " "
    return " ".join(parts), other


def surname_first(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    style = rng.choice(("comma", "upper", "plain"))
    if style == "comma":
        other = f"{parts[-1]}, {' '.join(parts[:-1])}"
    elif style == "upper":
        other = f"{parts[-1].upper()} {' '.join(parts[:-1])}"
    else:
        other = " ".join([parts[-1], *parts[:-1]])
    return " ".join(parts), other


def initial(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    index = rng.randrange(len(parts) - 1)  # a given or middle name, never the family name
    other = list(parts)
    other[index] = parts[index][0] + "."
    return " ".join(parts), " ".join(other)


def missing_middle(pools: Pools, rng: random.Random):
    parts = pools.person(rng, middle=True)
    return " ".join(parts), " ".join([parts[0], parts[-1]])


def title(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    return f"{rng.choice(TITLES)} {' '.join(parts)}", " ".join(parts)


def siswati_spelling(pools: Pools, rng: random.Random):
    parts = pools.person(rng, region="swazi")
    other, changed = list(parts), False
    for index in range(len(parts)):
        if rng.random() < 0.6:
            variant = spelling_habit(parts[index], rng)
            if variant and variant.lower() not in pools.all_names:
                other[index], changed = variant, True
    return changed and (" ".join(parts), " ".join(other))


def cyrillic(pools: Pools, rng: random.Random):
    if rng.random() < 0.3:
        given, family = rng.choice(pools.russian), rng.choice(pools.russian_family)
        return f"{given[0]} {family[0]}", f"{given[1]} {family[1]}"
    parts = pools.person(rng, region="swazi", middle=False)
    return to_cyrillic(" ".join(parts)), " ".join(parts)


def arabic(pools: Pools, rng: random.Random):
    parts = pools.person(rng, region="arabic", middle=False)
    return to_arabic(" ".join(parts)), " ".join(parts)


def greek(pools: Pools, rng: random.Random):
    name = f"{rng.choice(pools.greek_given)} {rng.choice(pools.greek_family)}"
    return name, greek_to_latin(name)


def reordered_with_typo(pools: Pools, rng: random.Random):
    parts = pools.person(rng)
    other = _slipped(parts, [rng.choice(_long(parts))], pools, rng)
    return other and (" ".join(parts), f"{other[-1]}, {' '.join(other[:-1])}")


def initial_with_typo(pools: Pools, rng: random.Random):
    parts = pools.person(rng, middle=False)
    other = _slipped(parts, [len(parts) - 1], pools, rng) if len(parts[-1]) >= 4 else None
    return other and (" ".join(parts), f"{parts[0][0]}. {other[-1]}")


def middle_missing_with_typo(pools: Pools, rng: random.Random):
    parts = pools.person(rng, middle=True)
    short = [parts[0], parts[-1]]
    other = _slipped(short, _long(short), pools, rng)
    return other and (" ".join(parts), " ".join(other))


POSITIVES: dict[str, tuple[Maker, int]] = {
    "typo-each": (typo_each, 60),
    "typo-one": (typo_one, 40),
    "transposition": (transposition, 25),
    "diacritics": (diacritics, 20),
    "case-punctuation": (case_punctuation, 15),
    "surname-first": (surname_first, 25),
    "initial": (initial, 25),
    "missing-middle": (missing_middle, 25),
    "title": (title, 15),
    "siswati-spelling": (siswati_spelling, 30),
    "script-cyrillic": (cyrillic, 20),
    "script-arabic": (arabic, 10),
    "script-greek": (greek, 10),
    "surname-first-typo": (reordered_with_typo, 20),
    "initial-typo": (initial_with_typo, 15),
    "missing-middle-typo": (middle_missing_with_typo, 20),
}


# ------------------------------------------------------------------------------------------ negatives
def same_family(pools: Pools, rng: random.Random):
    region = pools.region(rng)
    given = pools.given_pool(region)
    first, second = rng.sample(given, 2)
    family = rng.choice(pools.common_family if region == "swazi" and rng.random() < 0.5 else pools.family_pool(region))
    return f"{first} {family}", f"{second} {family}"


def same_given(pools: Pools, rng: random.Random):
    region = pools.region(rng)
    first = rng.choice(pools.given_pool(region))
    family_a, family_b = rng.sample(pools.family_pool(region), 2)
    return f"{first} {family_a}", f"{first} {family_b}"


def near_family(pools: Pools, rng: random.Random):
    first = rng.choice(pools.swazi_given)
    family_a, family_b = rng.choice(pools.near_family)
    return f"{first} {family_a}", f"{first} {family_b}"


def related_given(pools: Pools, rng: random.Random):
    first_a, first_b = rng.choice(pools.related)
    family = rng.choice(pools.family_pool(pools.region(rng)))
    return f"{first_a} {family}", f"{first_b} {family}"


def related_given_slipped(pools: Pools, rng: random.Random):
    """Relatives, one of them written with a slip in the family name: the hardest negative for any matcher
    that reads one slip as a sign of more."""
    first_a, first_b = rng.choice(pools.related)
    family = rng.choice([name for name in pools.family_pool(pools.region(rng)) if len(name) >= 4])
    slipped = _slipped([family], [0], pools, rng)
    return slipped and (f"{first_a} {family}", f"{first_b} {slipped[0]}")


def shared_two_of_three(pools: Pools, rng: random.Random):
    parts = pools.person(rng, region="swazi", middle=True)
    index = rng.randrange(2)  # the given or the middle name differs
    other = list(parts)
    other[index] = rng.choice([name for name in pools.swazi_given if name not in parts])
    return " ".join(parts), " ".join(other)


def different_initial(pools: Pools, rng: random.Random):
    parts = pools.person(rng, middle=False)
    initials = sorted({name[0] for name in pools.given_pool("swazi")} - {parts[0][0]})
    return " ".join(parts), f"{rng.choice(initials)}. {parts[-1]}"


def unrelated(pools: Pools, rng: random.Random):
    first, second = pools.person(rng), pools.person(rng)
    if {part.lower() for part in first} & {part.lower() for part in second}:
        return None  # sharing a part, they are another category (or the same person without a middle name)
    return " ".join(first), " ".join(second)


def same_family_slipped(pools: Pools, rng: random.Random):
    """Two people sharing a family name, one written with a slip in the given name."""
    region = pools.region(rng)
    first, second = rng.sample([name for name in pools.given_pool(region) if len(name) >= 4], 2)
    family = rng.choice(pools.family_pool(region))
    slipped = _slipped([second], [0], pools, rng)
    return slipped and (f"{first} {family}", f"{slipped[0]} {family}")


NEGATIVES: dict[str, tuple[Maker, int]] = {
    "same-family": (same_family, 60),
    "same-given": (same_given, 35),
    "near-family": (near_family, 20),
    "related-given": (related_given, 40),
    "related-given-slipped": (related_given_slipped, 20),
    "shared-two-of-three": (shared_two_of_three, 30),
    "different-initial": (different_initial, 15),
    "same-family-slipped": (same_family_slipped, 20),
    "unrelated": (unrelated, 20),
}


def generate(half: int) -> list[dict[str, str]]:
    """The pairs of one split (0: dev, 1: test): each category asks its maker until it has its count."""
    pools = Pools(half)
    rng = random.Random(f"{SEED}-{half}")
    rows: list[dict[str, str]] = []
    seen: dict[tuple[str, str], str] = {}
    for label, makers in (("1", POSITIVES), ("0", NEGATIVES)):
        for category, (maker, count) in makers.items():
            made = 0
            for _ in range(count * 50):
                if made == count:
                    break
                pair = maker(pools, rng)
                if not pair or pair[0] == pair[1]:
                    continue
                key = (pair[0].lower(), pair[1].lower())
                if key in seen:
                    continue
                seen[key] = label
                rows.append({"query": pair[0], "candidate": pair[1], "label": label, "category": category})
                made += 1
    labels: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        labels.setdefault(tuple(sorted((row["query"].lower(), row["candidate"].lower()))), set()).add(row["label"])
    return [row for row in rows if len(labels[tuple(sorted((row["query"].lower(), row["candidate"].lower())))]) == 1]


def render(rows: list[dict[str, str]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({field: row.get(field, "") for field in FIELDS})
    return buffer.getvalue()


OUTPUTS = {"adversarial_dev.csv": 0, "adversarial_test.csv": 1}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = parser.parse_args()
    stale = []
    for name, half in OUTPUTS.items():
        text = render(generate(half))
        path = HERE / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent.parent)}: {text.count(chr(10)) - 1} pairs")
    if stale:
        print("out of date (run without --check): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
