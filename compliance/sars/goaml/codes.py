"""The unit's code lists: our defaults beside the values they map, the settings' overrides, and their checks.

Each list maps one of our values (an activity type, a ledger channel, a sex)
to the code the financial intelligence unit expects. ``GOAML_*`` settings
(``backoffice/settings/goaml.py``, parsed strictly there) override single
entries; ``check_settings`` refuses at start-up a key that names none of our
values, so a typo never files a report with a wrong or missing code.
"""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from compliance.sars.choices import ActivityType
from kyc.choices import Channel, Sex

UNKNOWN_GENDER = "UNKNOWN"

INDICATOR_DEFAULTS = {
    ActivityType.STRUCTURING: "STRUCT",
    ActivityType.LARGE_CASH: "LCASH",
    ActivityType.UNUSUAL_PATTERN: "UNUSUAL",
    ActivityType.MONEY_LAUNDERING: "ML",
    ActivityType.FRAUD: "FRAUD",
    ActivityType.TERRORIST_FINANCING: "TF",
    ActivityType.SANCTIONS_VIOLATION: "SANCT",
    ActivityType.OTHER: "OTHER",
}
TRANSMODE_DEFAULTS = {
    Channel.WALLET: "EW",
    Channel.MOBILE_MONEY: "MM",
    Channel.CARD: "CC",
    Channel.BANK: "EFT",
    Channel.CASH: "CASH",
}
# K: cash, as goAML's generic funds-type list names it
FUNDS_DEFAULTS = {
    Channel.WALLET: "E",
    Channel.MOBILE_MONEY: "M",
    Channel.CARD: "C",
    Channel.BANK: "B",
    Channel.CASH: "K",
}
GENDER_DEFAULTS = {Sex.MALE: "M", Sex.FEMALE: "F", UNKNOWN_GENDER: "-"}

# setting -> (defaults, the values its keys must name)
CODE_LISTS: dict[str, tuple[dict, list[str]]] = {
    "GOAML_INDICATORS": (INDICATOR_DEFAULTS, list(ActivityType.values)),
    "GOAML_TRANSMODE_CODES": (TRANSMODE_DEFAULTS, list(Channel.values)),
    "GOAML_FUNDS_CODES": (FUNDS_DEFAULTS, list(Channel.values)),
    "GOAML_GENDER_CODES": (GENDER_DEFAULTS, [*Sex.values, UNKNOWN_GENDER]),
}


def check_code_lists() -> None:
    """Refuse a GOAML_* code list whose keys are not activity types, ledger channels or sexes."""
    for name, (_defaults, keys) in CODE_LISTS.items():
        unknown = sorted(set(getattr(settings, name)) - set(keys))
        if unknown:
            raise ImproperlyConfigured(f"{name}: unknown key(s) {', '.join(unknown)} (known: {', '.join(keys)})")


def code_list(name: str) -> dict[str, str]:
    """A code list: our defaults with the setting's overrides."""
    defaults, _keys = CODE_LISTS[name]
    return {**{str(k): v for k, v in defaults.items()}, **getattr(settings, name)}


def code(name: str, key: str) -> str:
    """The unit's code for ``key`` in list ``name``; every key of ours has one (defaults cover them all)."""
    return code_list(name)[str(key)]


def gender_code(sex: str | None) -> str:
    return code("GOAML_GENDER_CODES", sex if sex in Sex.values else UNKNOWN_GENDER)
