"""The person-name matcher: one pure module (no Django, no database) for every path that compares names.

PEP screening (create, bulk, import, screen, user registration and name change) and verification (an ID card's
name against the profile) call the same functions, so a name matches the same way everywhere. See
docs/peps.md, "The name matcher", for the rules, the measurements and the choice of libraries.

    from names import Person, compare, blocking_keys
    match = compare(Person("Sipho Dlamini", date_of_birth="1980-02-01"), Person("DLAMINI, Sipho B."))
    match.score, match.is_match, match.explanation
"""

from names.blocking import DEFAULT_MAX_SHARE, blocking_keys, lookup_keys
from names.compare import DEFAULT_THRESHOLD, MATCHER_VERSION, MAX_ADJUSTMENT_GAIN, Match, Person, compare
from names.countries import country_choices, normalise_country
from names.dates import BirthDate, parse_birth_date
from names.parse import Ignored, ParsedName, parse_name
from names.weights import DEFAULT_FREQUENCIES, NameFrequencies

__all__ = [
    "DEFAULT_FREQUENCIES",
    "DEFAULT_MAX_SHARE",
    "DEFAULT_THRESHOLD",
    "MATCHER_VERSION",
    "MAX_ADJUSTMENT_GAIN",
    "BirthDate",
    "Ignored",
    "Match",
    "NameFrequencies",
    "ParsedName",
    "Person",
    "blocking_keys",
    "compare",
    "lookup_keys",
    "country_choices",
    "normalise_country",
    "parse_birth_date",
    "parse_name",
]
