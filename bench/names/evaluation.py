"""A name-matching evaluation built from principles: real names of eleven regions, variations made by rule.

    .venv/bin/python bench/names/evaluation.py            # precision / recall / F1 per region and overall
    .venv/bin/python bench/names/evaluation.py --write    # (re)write evaluation_pairs.csv from the procedure
    .venv/bin/python bench/names/evaluation.py --check    # fail if the file differs from what the procedure gives
    .venv/bin/python bench/names/evaluation.py --misses 20  # also print some errors per category
    .venv/bin/python bench/names/evaluation.py --markdown   # the tables as markdown (docs/peps.md)
    .venv/bin/python bench/names/evaluation.py --index      # and recall through the candidate index

Every pair is labelled by how it was made, never by what the matcher says, and nothing here reads the
matcher's rules: the set measures the matcher, it is not fitted to it.

People are drawn from bench/names/pools.py: Southern Africa by language (siSwati and isiZulu, Sesotho and
Setswana, Xitsonga, Afrikaans: four regions, so local names weigh as much as all the others), the
English-speaking world, the Arabic-speaking world, Russia and its neighbours, China, the Spanish- and
Portuguese-speaking worlds and India; a third get a second given name. Figures are given per region (and for
the four Southern African ones together) and per variation type.

Positives (label 1): the same person written another way.
- ``order``: family name first, with or without a comma;
- ``script``: Russian names in Cyrillic, Arabic names in Arabic letters (by a letter-for-sound table);
- ``transliteration``: another romanisation by the region's habits (Arabic o/u and e/a vowels and doubled
  consonants, Russian -iy/-y/-i and e/ye, Indian ee/i and aspirated consonants, Chinese given names split
  into syllables, Portuguese and Spanish accents; Afrikaans particles joined and Dutch spellings, siSwati /
  isiZulu spellings (tf/th, dz/z, Nkh/Nk), Lesotho's / South Africa's Sesotho (oe/we, li/di, tsh/ts), older
  Xitsonga ones (rh/r, x/sh, b/v));
- ``middle``: a second given name dropped, or one added;
- ``slip``: one slip in one part of four letters or more (a key beside the intended one, a letter dropped or
  doubled, two neighbours swapped, a vowel for a vowel);
- ``two_slips``: two slips, in one long part (nine letters or more) or one in each of two parts;
- ``typo_each``: one slip in every part of three letters or more (at least two such parts, one of four or more);
- ``order_slip``: family name first and one slip in some part;
- ``initial``: the first given name written as its initial;
- ``all_initials``: every given name written as its initial (S. T. Dlamini, S.T. Dlamini).

Negatives (label 0): two different people who look alike.
- ``same_family``: the same family name, another given name of the region;
- ``same_given``: the same given name(s), another family name;
- ``near_family``: the same given name, the family name of the region nearest in spelling;
- ``near_given``: a relative: the same family name, the given name of the region nearest in spelling;
- ``two_of_three``: two given names and a family name, the first given name another;
- ``other_initial``: an initial that is not the first given name's.

A slip that spells another name of the pools is discarded (its label would be a guess). The generator is
seeded; pairs are written in region and category order, so a change to the procedure is a reviewable diff.
"""

import argparse
import csv
import io
import random
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from bench.names.adversarial import _neighbours  # noqa: E402  (keys beside a key, as that set draws them)
from bench.names.pools import EVALUATION_REGIONS as REGIONS  # noqa: E402
from bench.names.pools import family, given  # noqa: E402

OUTPUT = HERE / "evaluation_pairs.csv"
SEED = 20261128
PEOPLE_PER_REGION = 60
# Parts this long or longer get slips (see generate).
SLIPPABLE = 4
FIELDS = ("region", "category", "label", "query", "candidate")

VOWELS = "aeiou"


def slip(part: str, rng: random.Random) -> str:
    """One slip, uniformly over kinds and over positions: a key beside the intended one, another letter (a
    hand-written form misread, a name misheard), a letter dropped, doubled, or swapped with the next, a vowel
    for a vowel. The first letter slips as often as any other."""
    lower = part.lower()
    position = rng.randrange(len(part))
    kind = rng.choice(("key", "letter", "drop", "double", "swap", "vowel"))
    letter = lower[position]
    if kind == "key" and letter.isalpha():
        replaced = rng.choice(_neighbours(letter))
    elif kind == "letter" and letter.isalpha():
        replaced = rng.choice([other for other in "abcdefghijklmnopqrstuvwxyz" if other != letter])
    elif kind == "vowel" and letter in VOWELS:
        replaced = rng.choice([v for v in VOWELS if v != letter])
    elif kind == "drop":
        replaced = ""
    elif kind == "double":
        replaced = letter + letter
    elif kind == "swap" and position < len(part) - 1 and lower[position] != lower[position + 1]:
        return part[:position] + part[position + 1] + part[position] + part[position + 2 :]
    else:
        replaced = rng.choice(_neighbours(letter)) if letter.isalpha() else letter
    if position == 0 and part[:1].isupper():
        replaced = replaced.upper()
    return part[:position] + replaced + part[position + 1 :]


# --------------------------------------------------------------------- scripts and romanisations

_CYRILLIC = [("shch", "щ"), ("sch", "щ"), ("zh", "ж"), ("kh", "х"), ("ts", "ц"), ("ch", "ч"), ("sh", "ш"),
             ("yu", "ю"), ("ya", "я"), ("ye", "е"), ("yo", "ё"), ("iy", "ий"), ("y", "ы"), ("a", "а"), ("b", "б"),
             ("v", "в"), ("g", "г"), ("d", "д"), ("e", "е"), ("z", "з"), ("i", "и"), ("k", "к"), ("l", "л"),
             ("m", "м"), ("n", "н"), ("o", "о"), ("p", "п"), ("r", "р"), ("s", "с"), ("t", "т"), ("u", "у"),
             ("f", "ф"), ("h", "х"), ("w", "в"), ("x", "кс"), ("c", "к"), ("j", "й")]  # fmt: skip
# Arabic letters for the sounds; short vowels are not written (an abjad), long ones by alif, waw, ya.
_ARABIC = [("sh", "ش"), ("kh", "خ"), ("th", "ث"), ("dh", "ذ"), ("gh", "غ"), ("ou", "و"), ("oo", "و"),
           ("ee", "ي"), ("aa", "ا"), ("b", "ب"), ("t", "ت"), ("j", "ج"), ("h", "ح"), ("d", "د"), ("r", "ر"),
           ("z", "ز"), ("s", "س"), ("f", "ف"), ("q", "ق"), ("k", "ك"), ("l", "ل"), ("m", "م"), ("n", "ن"),
           ("w", "و"), ("y", "ي"), ("g", "ج"), ("c", "ك"), ("p", "ب"), ("v", "ف"), ("x", "كس")]  # fmt: skip


def _by_table(word: str, table: list[tuple[str, str]], drop_short_vowels: bool) -> str:
    word = word.lower()
    out = []
    i = 0
    while i < len(word):
        if word[i] == "-":
            out.append(" ")
            i += 1
            continue
        for latin, letter in table:
            if word.startswith(latin, i):
                out.append(letter)
                i += len(latin)
                break
        else:
            if word[i] in VOWELS:
                # an abjad writes a vowel only as a word's first letter (alif) or a long vowel
                if not drop_short_vowels:
                    out.append(word[i])
                elif i == 0:
                    out.append("ا")
                elif word[i] in "iu" and i == len(word) - 1:
                    out.append("ي" if word[i] == "i" else "و")
            i += 1
    return "".join(out)


def in_script(name: str, region: str) -> str | None:
    if region == "slavic":
        return " ".join(_by_table(word, _CYRILLIC, False) for word in name.split())
    if region == "arabic":
        # the article is written joined to the name it belongs to (al-Qahtani: القحطاني)
        words = [word[3:] if word.lower().startswith(("al-", "el-")) else word for word in name.split()]
        joined = ["ال" * word.lower().startswith(("al-", "el-")) for word in name.split()]
        return " ".join(article + _by_table(word, _ARABIC, True) for article, word in zip(joined, words, strict=True))
    return None


def _accents(word: str, rng: random.Random) -> str:
    marks = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "n": "ñ", "c": "ç"}
    positions = [i for i, letter in enumerate(word.lower()) if letter in marks and i > 0]
    if not positions:
        return word
    i = rng.choice(positions)
    return word[:i] + marks[word[i].lower()] + word[i + 1 :]


def romanised_otherwise(name: str, region: str, rng: random.Random) -> str | None:
    """The name as another romanisation or spelling habit of its region writes it, or None when none applies."""
    words = name.split()
    if region == "arabic":
        swaps = [("o", "u"), ("u", "o"), ("e", "a"), ("ou", "u"), ("ee", "i"), ("mm", "m"), ("dd", "d"),
                 ("Al-", "El-"), ("Al-", "al "), ("Abdul", "Abdel"), ("Abdel", "Abd el"),
                 ("Abdu", "Abdou")]  # fmt: skip
    elif region == "slavic":
        swaps = [("iy", "y"), ("y", "iy"), ("ei", "ey"), ("Ye", "E"), ("yev", "ev"), ("ov", "off"), ("i", "y"),
                 ("kh", "h"), ("aya", "aia"), ("iev", "yev")]  # fmt: skip
    elif region == "indian":
        swaps = [("ee", "i"), ("sh", "s"), ("v", "w"), ("aa", "a"), ("th", "t"), ("dh", "d"), ("bh", "b"),
                 ("oo", "u")]  # fmt: skip
    elif region == "chinese":
        long = [i for i, word in enumerate(words) if len(word) >= 6]
        if not long:
            return None
        i = rng.choice(long)
        word = words[i]
        for cut in range(2, len(word) - 1):  # a syllable boundary: a consonant after a vowel
            if word[cut - 1] in VOWELS + "ng" and word[cut] not in VOWELS + "g":
                return " ".join([*words[:i], word[:cut], word[cut:].capitalize(), *words[i + 1 :]])
        return None
    elif region in ("hispanic", "portuguese"):
        return " ".join(_accents(word, rng) if rng.random() < 0.6 else word for word in words)
    elif region == "afrikaans":
        lowered = [word.lower() for word in words]
        for particle in ("van", "du", "le", "de"):
            if particle in lowered and rng.random() < 0.7:
                # the particles joined to the name (Van der Merwe / Vandermerwe, Du Plessis / Duplessis)
                return "".join(words[lowered.index(particle) :]).join(
                    [" ".join(words[: lowered.index(particle)]) + " ", ""]
                )
        # Dutch and Afrikaans spellings of one name (Rudolph / Rudolf, Cornelius / Kornelius, Kotze / Kotse)
        swaps = [("ph", "f"), ("C", "K"), ("c", "k"), ("tz", "ts"), ("ie", "i")]
    elif region == "siswati_zulu":
        # siSwati and isiZulu spellings of one name (Tfwala / Thwala, Ndzimandze / Nzimande, Nkhosi / Nkosi)
        swaps = [("tf", "th"), ("Tf", "Th"), ("dz", "z"), ("dv", "d"), ("kh", "k"), ("ph", "p"), ("Nk", "Nkh")]
    elif region == "sotho_tswana":
        # Lesotho's and South Africa's orthographies (Moshoeshoe / Moshweshwe, Dineo / Lineo, Tshepo / Tsepo)
        swaps = [("oe", "we"), ("Di", "Li"), ("di", "li"), ("tsh", "ts"), ("Tsh", "Ts"), ("Kg", "Kh"), ("kg", "kh")]
    elif region == "xitsonga":
        # Xitsonga spelled by ear or by older orthographies (Rhulani / Rulani, Xikombiso / Shikombiso, Ngobeni /
        # Ngoveni, Shirindza / Shirinza)
        swaps = [("rh", "r"), ("Rh", "R"), ("X", "Sh"), ("x", "sh"), ("b", "v"), ("dz", "z")]
    else:
        return None
    rng.shuffle(swaps)
    for old, new in swaps:
        found = [i for i, word in enumerate(words) if old in word]
        if found:
            i = rng.choice(found)
            words = [*words[:i], words[i].replace(old, new, 1), *words[i + 1 :]]
            return " ".join(words)
    return None


# --------------------------------------------------------------------- people and pairs


def _nearest(name: str, pool: list[str]) -> str | None:
    from rapidfuzz.distance import Levenshtein

    others = [other for other in pool if other.lower() != name.lower()]
    if not others:
        return None
    return min(others, key=lambda other: (Levenshtein.distance(name.lower(), other.lower()), other))


def generate(seed: int = SEED, people: int = PEOPLE_PER_REGION) -> list[dict]:
    rng = random.Random(seed)
    rows: list[dict] = []
    for region in REGIONS:
        given_pool, family_pool = given(region), family(region)
        known = {word.lower() for word in given_pool + family_pool}

        def slipped(word: str, known: set[str] = known) -> str | None:
            for _ in range(10):
                result = slip(word, rng)
                if result.lower() not in known and result.lower() != word.lower():
                    return result
            return None

        by_category: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
        for _ in range(people):
            first = rng.choice(given_pool)
            second = rng.choice([g for g in given_pool if g != first]) if rng.random() < 0.33 else None
            last = rng.choice(family_pool)
            forenames = [first] + ([second] if second else [])
            name = " ".join([*forenames, last])

            def add(category: str, label: int, query: str | None, candidate: str = name, into=by_category) -> None:
                if query and query.strip() and query != candidate:
                    into[category].append((label, query, candidate))

            # positives
            add("order", 1, f"{last}, {' '.join(forenames)}" if rng.random() < 0.5 else f"{last} {' '.join(forenames)}")
            add("script", 1, in_script(name, region))
            add("transliteration", 1, romanised_otherwise(name, region, rng))
            if second:
                add("middle", 1, f"{first} {last}")
            else:
                extra = rng.choice([g for g in given_pool if g != first])
                add("middle", 1, f"{first} {extra} {last}")
            words = name.split()
            # a hyphenated word is two parts (Al-Otaibi): only plain words get slips, by their own length; a part
            # of three letters or fewer gets none (one letter is a third of it: Tau / Tai is another name)
            long = [i for i, word in enumerate(words) if len(word) >= SLIPPABLE and "-" not in word]
            if long:
                i = rng.choice(long)
                typo = slipped(words[i])
                add("slip", 1, typo and " ".join([*words[:i], typo, *words[i + 1 :]]))
                # the family name first and a slip in the name as well (one clerk, one form)
                i = rng.choice(long)
                typo = slipped(words[i])
                reordered = [*words[:i], typo, *words[i + 1 :]] if typo else None
                add(
                    "order_slip",
                    1,
                    reordered and " ".join([*reordered[len(forenames) :], *reordered[: len(forenames)]]),
                )
            very_long = [i for i, word in enumerate(words) if len(word) >= 9 and "-" not in word]
            if very_long or len(long) >= 2:
                changed = list(words)
                one_part = very_long and (len(long) < 2 or rng.random() < 0.5)
                targets = [rng.choice(very_long)] * 2 if one_part else rng.sample(long, 2)
                for i in targets:
                    changed[i] = slipped(changed[i]) or changed[i]
                add("two_slips", 1, " ".join(changed))
            # a slip in every part, the short ones too (Mosa Tau / Mosi Tai): one careless hand, one record
            every = [i for i, word in enumerate(words) if len(word) >= 3 and "-" not in word]
            if len(every) >= 2 and long:
                changed = [slipped(word) or word if i in every else word for i, word in enumerate(words)]
                add("typo_each", 1, " ".join(changed))
            add("initial", 1, " ".join([f"{first[0]}.", *forenames[1:], last]))
            if second:
                # every given name as its initial, as forms and lists write them (S. T. Dlamini, S.T. Dlamini)
                add(
                    "all_initials",
                    1,
                    (" " if rng.random() < 0.5 else "").join(f"{g[0]}." for g in forenames) + f" {last}",
                )

            # negatives
            other_first = rng.choice([g for g in given_pool if g not in forenames])
            add("same_family", 0, f"{other_first} {last}", f"{first} {last}")
            other_last = rng.choice([f for f in family_pool if f != last])
            add("same_given", 0, " ".join([*forenames, other_last]))
            near = _nearest(last, family_pool)
            add("near_family", 0, near and f"{first} {near}", f"{first} {last}")
            # a relative: the family name shared, the given name nearest in spelling (Thando / Thandi)
            near = _nearest(first, given_pool)
            add("near_given", 0, near and f"{near} {last}", f"{first} {last}")
            if second:
                add("two_of_three", 0, f"{other_first} {second} {last}")
            letters = sorted({g[0] for g in given_pool} - {first[0]})
            add("other_initial", 0, f"{rng.choice(letters)}. {last}", f"{first} {last}")
        for category in sorted(by_category):
            seen = set()
            for label, query, candidate in by_category[category]:
                if (query, candidate) in seen:
                    continue
                seen.add((query, candidate))
                rows.append({"region": region, "category": category, "label": label, "query": query,
                             "candidate": candidate})  # fmt: skip
    # a pair made with both labels would be a guess: drop it
    labels = defaultdict(set)
    for row in rows:
        labels[(row["query"], row["candidate"])].add(row["label"])
    return [row for row in rows if len(labels[(row["query"], row["candidate"])]) == 1]


def as_csv(rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def load(path: Path = OUTPUT) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [{**row, "label": int(row["label"])} for row in csv.DictReader(handle)]


def score(rows: list[dict], threshold: float) -> list[dict]:
    from names import Person, compare

    return [{**row, "score": compare(Person(row["query"]), Person(row["candidate"])).score} for row in rows]


def _figures(rows: list[dict], threshold: float) -> tuple[int, int, int, int]:
    tp = sum(row["label"] == 1 and row["score"] >= threshold for row in rows)
    fp = sum(row["label"] == 0 and row["score"] >= threshold for row in rows)
    fn = sum(row["label"] == 1 and row["score"] < threshold for row in rows)
    return tp, fp, fn, len(rows)


def _prf(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


SOUTHERN_AFRICA = ("siswati_zulu", "sotho_tswana", "xitsonga", "afrikaans")


def tables(rows: list[dict], threshold: float) -> dict[str, list[tuple]]:
    """The figures: per region (precision, recall, F1) and per variation type.

    A variation type holds only matches or only different people, so its own precision would be 1 or 0. For
    a kind of match, precision is given at the whole set's prevalence: its true matches against the false
    matches the negatives make, scaled to its share of the matches (tp / (tp + fp_all * n_kind / n_matches)),
    which is what the matcher's precision would be if every match looked like this kind. For a kind of
    different people, the share wrongly matched is given (recall and F1 do not apply)."""
    by_region: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_region[row["region"]].append(row)
    regions = []
    for title, region_rows in [
        *by_region.items(),
        ("southern_african (4 above)", [row for row in rows if row["region"] in SOUTHERN_AFRICA]),
        ("overall", rows),
    ]:
        tp, fp, fn, count = _figures(region_rows, threshold)
        regions.append((title, count, *_prf(tp, fp, fn), tp, fp, fn))
    tp_all, fp_all, fn_all, _ = _figures(rows, threshold)
    matches = tp_all + fn_all
    by_category: dict[tuple[int, str], list[dict]] = defaultdict(list)
    for row in rows:
        by_category[(row["label"], row["category"])].append(row)
    variations = []
    for (label, category), category_rows in sorted(by_category.items(), key=lambda item: (-item[0][0], item[0][1])):
        tp, fp, fn, count = _figures(category_rows, threshold)
        local = [row for row in category_rows if row["region"] in SOUTHERN_AFRICA]
        if label:
            precision, recall, f1 = _prf(tp, fp_all * count / matches, fn)
            local_recall = _figures(local, threshold)[0] / len(local) if local else None
            variations.append((category, "match", count, precision, recall, f1, local_recall))
        else:
            variations.append((category, "different people", count, fp / count, None, None,
                               _figures(local, threshold)[1] / len(local) if local else None))  # fmt: skip
    return {"regions": regions, "variations": variations}


def _cell(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def report(rows: list[dict], threshold: float, misses: int = 0, markdown: bool = False) -> dict:
    figures = tables(rows, threshold)
    if markdown:
        print("| region | pairs | precision | recall | F1 | tp / fp / fn |\n|---|---|---|---|---|---|")
        for title, count, precision, recall, f1, tp, fp, fn in figures["regions"]:
            print(f"| {title} | {count} | {precision:.3f} | {recall:.3f} | {f1:.3f} | {tp} / {fp} / {fn} |")
        print("\n| variation | kind | pairs | precision (at prevalence) or false-match rate | recall | F1 |"
              " Southern African recall or false-match rate |\n|---|---|---|---|---|---|---|")  # fmt: skip
        for category, kind, count, first, recall, f1, local in figures["variations"]:
            print(
                f"| {category} | {kind} | {count} | {_cell(first)} | {_cell(recall)} | {_cell(f1)} | {_cell(local)} |"
            )
    else:
        print(f"{'region':<27} {'pairs':>5} {'precision':>9} {'recall':>7} {'F1':>6}")
        for title, count, precision, recall, f1, tp, fp, fn in figures["regions"]:
            print(f"{title:<27} {count:>5} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f}   (tp {tp}, fp {fp}, fn {fn})")
        print(f"\n{'variation':<15} {'pairs':>5} {'P or FMR':>9} {'recall':>7} {'F1':>6} {'local':>6}")
        for category, kind, count, first, recall, f1, local in figures["variations"]:
            cells = f"{_cell(first):>9} {_cell(recall):>7} {_cell(f1):>6} {_cell(local):>6}"
            print(f"{category:<15} {count:>5} {cells}  ({kind})")
            if misses:
                label = kind == "match"
                wrong = [row for row in rows if row["category"] == category and row["label"] == label
                         and (row["score"] >= threshold) != label]  # fmt: skip
                for row in wrong[:misses]:
                    print(f"      {row['score']:.3f}  {row['query']!r} / {row['candidate']!r}  [{row['region']}]")
    _, _, precision, recall, f1, *_ = figures["regions"][-1]
    return {"precision": precision, "recall": recall, "f1": f1}


def index_recall(rows: list[dict], threshold: float) -> None:
    """Recall through the candidate index, not only pair by pair: every candidate name (and every negative's
    query, as near names a list would hold) is one record of a NameIndex; each match's query is searched, and a
    match the matcher accepts pairwise counts as found only when the search returns its record."""
    from names.index import IndexRecord, NameIndex

    names = sorted({row["candidate"] for row in rows} | {row["query"] for row in rows if row["label"] == 0})
    index = NameIndex.build(IndexRecord(name, (name,)) for name in names)
    accepted: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # category -> matches, accepted, found
    for row in rows:
        if row["label"] != 1:
            continue
        counts = accepted[row["category"]]
        counts[0] += 1
        if row["score"] >= threshold:
            counts[1] += 1
            counts[2] += row["candidate"] in {hit.key for hit in index.search(row["query"], threshold=threshold)}
    print(f"\nthrough the index ({len(names)} records): matches accepted pairwise / found by search")
    for category, (count, pairwise, found) in sorted(accepted.items()):
        print(f"{category:<15} {count:>5} {pairwise:>6} {found:>6}   recall through the index {found / count:.3f}")
    total = [sum(values[i] for values in accepted.values()) for i in range(3)]
    print(f"{'all':<15} {total[0]:>5} {total[1]:>6} {total[2]:>6}   recall through the index {total[2] / total[0]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--misses", type=int, default=0)
    parser.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    parser.add_argument("--index", action="store_true", help="also recall through names.index (about a minute)")
    args = parser.parse_args()
    text = as_csv(generate())
    if args.write:
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)}")
        return
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            sys.exit(f"{OUTPUT.relative_to(ROOT)} differs from what the procedure gives: run --write")
        print("evaluation_pairs.csv is what the procedure gives")
        return
    from names import MATCHER_VERSION

    rows = score(load(), args.threshold)
    print(f"matcher {MATCHER_VERSION}, threshold {args.threshold}, {len(rows)} pairs from {OUTPUT.name}\n")
    figures = report(rows, args.threshold, args.misses, args.markdown)
    print(f"\nevaluation precision={figures['precision']:.3f} recall={figures['recall']:.3f} f1={figures['f1']:.3f}")
    if args.index:
        index_recall(rows, args.threshold)


if __name__ == "__main__":
    main()
