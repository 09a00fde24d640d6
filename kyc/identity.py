"""ID numbers, compared one way everywhere: a pure helper (no Django, no database).

The decision rule (the card's number against the profile's) and the search for duplicate identities (the
same number on another user's profile or read on another user's check) both compare through
``id_number_key``, and the keys kept in the database (``PlatformUser.id_number_key``,
``VerificationJob.id_number_key``) are made by it, so two spellings of one number are one number everywhere.
"""

import unicodedata

_KEPT = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
KEY_MAX_LENGTH = 32


def id_number_key(value: str | None) -> str:
    """An ID number as it is compared: its letters and digits only, upper case, at most 32 of them.

    "9001 0158-00085", "9001015800085" and the full-width "９００１０１５８０００８５" are one number:
    compatibility forms count as the characters they stand for (NFKC), and spaces, dashes, dots, slashes and
    every other character are ignored. An empty key means there is no number to compare.
    """
    if not value:
        return ""
    kept = (ch for ch in unicodedata.normalize("NFKC", value).upper() if ch in _KEPT)
    return "".join(kept)[:KEY_MAX_LENGTH]
