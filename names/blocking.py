"""Blocking: the few keys under which a person is stored, so candidates are found without comparing everyone.

A name-key table holds (key, person) rows and is searched with ``WHERE key IN (...)``: plain equality, the same
on SQLite and PostgreSQL. Keys are built on consonant skeletons (skeleton() in parts.py), so vowel slips and
transliteration variants (Muhammad / Mohammed / "mhmd") share them. Per name variant:

- ``n:<skeleton>`` per part: finds anyone sharing one part, good for rare parts;
- ``p:<skeleton>|<skeleton>`` per pair of parts, order-free: specific even when both parts are common
  ("sipho" and "dlamini" each hold thousands of users, the pair far fewer);
- ``i:<skeleton>|<letter>`` per part and initial of another part: finds "S. Dlamini" for "Sipho Dlamini", and a
  slip in the other part;
- ``n:`` keys of adjacent parts written together ("jin ping" / "jinping", "van der merwe" / "vandermerwe")
  and of parts with a particle attached ("alassad" / "assad");
- ``t:<anchor>|<anchor>`` per pair of parts and ``u:<anchor>|<letter>`` per part and initial of another part,
  on the skeletons' anchors (anchors()): a slip in a consonant changes a skeleton, so a name with a slip in
  every part ("Nomvula Fenamuga" / "Nonvula Fenamuka") shares none of the keys above, but keeps one anchor of
  each part.

blocking_keys() gives every key to store: it does not depend on frequencies, so the table never needs
rebuilding when counts change (it does when the kinds of keys change: matcher 1.1.0 added ``t:`` and ``u:``, and
data migrations added them to the stored names). lookup_keys() picks, from the same keys, those worth searching
for a query given how common its parts are: the key of a part as common as "dlamini" would bring back a large
share of all users, while the pair and initial keys beside it find the same true matches in small buckets.
"""

from itertools import combinations

from names.compare import Person
from names.parse import ParsedName, parse_name
from names.parts import skeleton
from names.vocabulary import ATTACHABLE_PREFIXES, PARTICLES
from names.weights import DEFAULT_FREQUENCIES, INITIAL_SHARE, NameFrequencies

# A key is searched when it is expected to hold at most this share of the people stored (0.2%: 2,000 of a
# million users, 200 of 100,000 PEPs). Pair keys are always searched: they are the most specific there are.
DEFAULT_MAX_SHARE = 0.002


def anchors(skeleton_: str) -> set[str]:
    """Pieces of a skeleton that survive one slip in it: its first two and last two consonants, and for a
    skeleton of three the two ends without the middle. One edit (a consonant changed, added, dropped or two
    swapped) touches at most one end of a skeleton of four or more, so the other end is kept; in a skeleton of
    three, a changed middle consonant leaves the two ends. A skeleton of two or fewer is its own anchor."""
    if len(skeleton_) < 2:
        return {skeleton_}
    found = {skeleton_[:2], skeleton_[-2:]}
    if len(skeleton_) == 3:
        found.add(skeleton_[0] + skeleton_[2])
    return found


def _full_parts(parsed: ParsedName) -> list[str]:
    return [part for part in parsed.parts if len(part) > 1 and part not in PARTICLES]


def _joined_parts(parsed: ParsedName) -> list[str]:
    """Adjacent parts written together, where one is a particle or short enough to be half of a compound name."""
    joined = []
    parts = parsed.parts
    for start in range(len(parts)):
        for end in (start + 2, start + 3):
            run = parts[start:end]
            if end > len(parts) or any(len(part) == 1 for part in run):
                continue
            if any(part in PARTICLES or len(part) <= 4 for part in run):
                joined.append("".join(run))
    for part in parts:
        if not part.startswith(ATTACHABLE_PREFIXES):
            continue  # most parts: one test for the lot
        for prefix in ATTACHABLE_PREFIXES:
            if part.startswith(prefix) and len(part) - len(prefix) >= 3:
                joined.append(part[len(prefix) :])
    return joined


def _keys_with_estimates(parsed: ParsedName, frequencies: NameFrequencies) -> dict[str, float]:
    """Each key of one name variant with the share of people expected to hold it; 0 for keys always searched."""
    keys: dict[str, float] = {}
    held = keys.get

    def add(key: str, share: float) -> None:
        keys[key] = min(held(key, 1.0), share)

    full = _full_parts(parsed)
    # every part meets every other below: its skeleton, share and anchors are worked out once per name (an index
    # keys tens of thousands of names at a build); the keys, their order and their shares are as before
    skeletons = {part: skeleton(part) for part in parsed.parts}
    shares = {part: frequencies.share(part) for part in full}
    anchored = {part: tuple(anchors(skeletons[part])) for part in full}
    for index, part in enumerate(parsed.parts):
        if part in shares:
            add(f"n:{skeletons[part]}", shares[part])
            if parsed.kinds[index] == "abjad":
                add(f"n:{skeleton(part.replace('v', 'b'))}", shares[part])
    for part in _joined_parts(parsed):
        add(f"n:{skeleton(part)}", frequencies.share(part))
    for first, second in combinations(full, 2):
        pair = "|".join(sorted((skeletons[first], skeletons[second])))
        add(f"p:{pair}", 0.0)
    for part in full:
        for other in parsed.parts:
            if other != part and other not in PARTICLES:
                # with an initial written, this key is the only one that finds the full name
                share = 0.0 if len(other) == 1 else shares[part] * INITIAL_SHARE
                initial = other[0]
                key = f"i:{skeletons[part]}|{initial}"
                keys[key] = min(held(key, 1.0), share)
                for anchor in anchored[part]:
                    key = f"u:{anchor}|{initial}"
                    keys[key] = min(held(key, 1.0), share)
    # Slip-tolerant pair keys are searched like pair keys; the index's real bucket sizes drop those holding
    # too many people (kyc.name_index.worth_searching), which pair keys are spared.
    # A short skeleton is its own anchor, and its keys are kept beside the exact ones: the other spelling,
    # with a slip, may have a longer skeleton whose anchor it is ("knn" / "knsn").
    for first, second in combinations(full, 2):
        for one in anchored[first]:
            for other in anchored[second]:
                key = f"t:{one}|{other}" if one <= other else f"t:{other}|{one}"
                keys[key] = min(held(key, 1.0), 0.0)
    return keys


def blocking_keys(person: Person) -> set[str]:
    """Every key to store for a person, over the name and all aliases. Independent of frequencies."""
    keys: set[str] = set()
    for name in person.names:
        keys |= set(_keys_with_estimates(parse_name(name), DEFAULT_FREQUENCIES))
    return keys


def lookup_keys(
    person: Person, *, frequencies: NameFrequencies | None = None, max_share: float = DEFAULT_MAX_SHARE
) -> set[str]:
    """The keys to search for a person's candidates: a subset of blocking_keys() of the same person.

    Searched: every pair key and slip-tolerant pair key, the initial keys of a part written beside an initial,
    and any other key expected to hold at most max_share of the people stored. A name of a single common part
    keeps its part keys (it has nothing more specific). The index then drops, by their real sizes, the keys
    other than pair keys that hold too many people (kyc.name_index.worth_searching).
    """
    frequencies = frequencies if frequencies is not None else DEFAULT_FREQUENCIES
    keys: set[str] = set()
    for name in person.names:
        estimates = _keys_with_estimates(parse_name(name), frequencies)
        chosen = {key for key, share in estimates.items() if share <= max_share}
        keys |= chosen or set(estimates)
    return keys
