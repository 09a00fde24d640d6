"""Countries as ISO 3166 alpha-2 codes, whichever way they were written ("SZ", "SWZ", "Eswatini", "Swaziland")."""

import re
from functools import lru_cache

import iso3166
from anyascii import anyascii

# Names in common use that ISO's short names do not cover: former names, short forms, everyday English.
_COMMON_NAMES: dict[str, str] = {
    "swaziland": "SZ", "kingdom of eswatini": "SZ", "kingdom of swaziland": "SZ", "eswatini": "SZ",
    "rsa": "ZA", "republic of south africa": "ZA", "mzansi": "ZA",
    "uk": "GB", "united kingdom": "GB", "great britain": "GB", "britain": "GB", "england": "GB", "scotland": "GB",
    "wales": "GB", "northern ireland": "GB", "usa": "US", "us": "US", "united states": "US", "america": "US",
    "russia": "RU", "ivory coast": "CI", "cote divoire": "CI", "burma": "MM", "czech republic": "CZ",
    "turkey": "TR", "turkiye": "TR", "drc": "CD", "dr congo": "CD", "democratic republic of the congo": "CD",
    "congo kinshasa": "CD", "congo brazzaville": "CG", "republic of the congo": "CG", "north korea": "KP",
    "south korea": "KR", "korea": "KR", "vietnam": "VN", "laos": "LA", "syria": "SY", "moldova": "MD",
    "macedonia": "MK", "north macedonia": "MK", "holland": "NL", "netherlands": "NL", "iran": "IR",
    "palestine": "PS", "taiwan": "TW", "vatican": "VA", "bolivia": "BO", "venezuela": "VE", "tanzania": "TZ",
    "uae": "AE", "emirates": "AE", "cape verde": "CV", "east timor": "TL", "lesotho": "LS", "basutoland": "LS",
    "bechuanaland": "BW", "rhodesia": "ZW", "zaire": "CD", "persia": "IR", "ceylon": "LK", "brunei": "BN",
    "micronesia": "FM", "the gambia": "GM", "gambia": "GM", "bahamas": "BS", "the bahamas": "BS",
}  # fmt: skip


def _key(text: str) -> str:
    words = re.sub(r"[^a-z ]+", " ", anyascii(text).lower().replace("'", "")).split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


@lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    index: dict[str, str] = {}
    for country in iso3166.countries:
        index[_key(country.name)] = country.alpha2
        index[_key(country.apolitical_name)] = country.alpha2
        # "Tanzania, United Republic of" is usually written "Tanzania"
        index.setdefault(_key(country.name.split(",")[0]), country.alpha2)
        index[country.alpha3.lower()] = country.alpha2
        index[country.alpha2.lower()] = country.alpha2
    index.update({_key(name): code for name, code in _COMMON_NAMES.items()})
    return index


@lru_cache(maxsize=4096)
def normalise_country(value: str | None) -> str | None:
    """The ISO alpha-2 code for a country code or name, or None when it is empty or not a known country."""
    if not value or not value.strip():
        return None
    return _index().get(_key(value))


@lru_cache(maxsize=1)
def country_choices() -> tuple[tuple[str, str], ...]:
    """The one country list of the site's forms: (ISO alpha-2 code, "Name (CODE)"), by name."""
    rows = [(c.alpha2, f"{c.name} ({c.alpha2})") for c in iso3166.countries]
    return tuple(sorted(rows, key=lambda row: _key(row[1])))
