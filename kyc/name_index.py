"""What the name index stores for a person, shared by the user index (kyc) and the PEP index (compliance).

Pure functions, no ORM: the services that write the index and the screening that searches it build keys the
same way, so a key written for a user is found by the same key looked up for a PEP.
"""

from collections.abc import Iterable
from functools import lru_cache

from kyc.models.names import KEY_MAX
from names import DEFAULT_MAX_SHARE, Person, parse_name


def fit(key: str) -> str:
    """A key as stored: cut to the column's length (both sides cut the same way, so equal keys stay equal)."""
    return key[:KEY_MAX]


def stored(keys: Iterable[str]) -> set[str]:
    return {fit(key) for key in keys}


@lru_cache(maxsize=100_000)
def user_names(first_name: str, last_name: str, names: str = "", surname: str = "") -> Person:
    """A user's names for the matcher: first and last name, the legacy names as an alias when they differ.

    Cached: a million users share far fewer sets of names, and screening compares names before people.
    """
    name = f"{first_name} {last_name}".strip()
    legacy = f"{names or ''} {surname or ''}".strip()
    aliases = (legacy,) if legacy and parse_name(legacy).parts != parse_name(name).parts else ()
    return Person(name=name, aliases=aliases)


def user_person(
    *, first_name: str, last_name: str, names: str = "", surname: str = "", date_of_birth=None, country=None
):
    """The person a user is for the matcher: their names (``user_names``), date of birth and country."""
    known = user_names(first_name, last_name, names or "", surname or "")
    return Person(name=known.name, aliases=known.aliases, date_of_birth=date_of_birth, country=country or None)


def name_parts(name: str) -> set[str]:
    """The normalised parts of a name, each once: what the frequency counts count."""
    return stored(parse_name(name).parts)


# A searched key may bring back this many people however small the population (below it, comparing is cheap).
BUCKET_FLOOR = 200


def worth_searching(sizes: dict[str, int], *, total: int, max_share: float = DEFAULT_MAX_SHARE) -> set[str]:
    """The keys of ``sizes`` (key -> how many people the index holds under it) that are worth comparing.

    ``lookup_keys`` chooses keys from how common the name parts are expected to be; the index knows how many
    people each key really holds. A key is kept when it holds at most ``max_share`` of the ``total`` people
    (and never fewer than ``BUCKET_FLOOR``): a bucket of thousands is a common part or a common initial, whose
    true matches the more specific keys beside it find too. Pair keys are always kept (they are the most
    specific there are), and when every key is large the smallest is kept, so a name is never unsearchable.
    """
    cap = max(BUCKET_FLOOR, int(max_share * total))
    kept = {key for key, size in sizes.items() if key.startswith("p:") or size <= cap}
    if not kept and sizes:
        kept = {min(sizes, key=lambda key: (sizes[key], key))}
    return kept
