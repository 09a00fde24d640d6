"""What the name index stores for a person, shared by the user index (kyc) and the PEP index (compliance).

Pure functions, no ORM: the services that write the index and the screening that searches it build keys the
same way, so a key written for a user is found by the same key looked up for a PEP.
"""

from collections.abc import Iterable

from kyc.models.names import KEY_MAX
from kyc.names import Person, parse_name


def fit(key: str) -> str:
    """A key as stored: cut to the column's length (both sides cut the same way, so equal keys stay equal)."""
    return key[:KEY_MAX]


def stored(keys: Iterable[str]) -> set[str]:
    return {fit(key) for key in keys}


def user_person(
    *, first_name: str, last_name: str, names: str = "", surname: str = "", date_of_birth=None, country=None
):
    """The person a user is for the matcher: first and last name, the legacy names as an alias when they differ."""
    name = f"{first_name} {last_name}".strip()
    legacy = f"{names or ''} {surname or ''}".strip()
    aliases = (legacy,) if legacy and parse_name(legacy).parts != parse_name(name).parts else ()
    return Person(name=name, aliases=aliases, date_of_birth=date_of_birth, country=country or None)


def name_parts(name: str) -> set[str]:
    """The normalised parts of a name, each once: what the frequency counts count."""
    return stored(parse_name(name).parts)
