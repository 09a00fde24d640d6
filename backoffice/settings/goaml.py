"""goAML: our identity at the financial intelligence unit, the unit's code lists and its schema (docs/sars.md).

Each unit publishes its own lists and XSD, so they are settings. Everything
is parsed strictly: a code is a short token (letters, digits, ``.``, ``_``,
``-``), a date is ``YYYY-MM-DD``, a map is ``KEY=CODE,...``; anything else
stops start-up. The maps here hold only what the environment overrides; the
defaults, and the check that every key names a real activity type, ledger
channel or sex, live beside the code that knows those values
(``compliance.sars.goaml.codes``), which runs the check when the app starts.
"""

import datetime as dt
import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_bool, env_choice, env_map, env_str
from backoffice.settings.base import BASE_DIR, ENVIRONMENT

_CODE = re.compile(r"^[A-Za-z0-9._-]{1,50}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _code(name: str, value: str) -> str:
    if not _CODE.match(value):
        raise ImproperlyConfigured(f"{name} must be a code from the FIU's list (letters, digits, . _ -), got {value!r}")
    return value


def _env_code(name: str, default: str) -> str:
    return _code(name, (env_str(name, default) or "").strip())


def _env_codes(name: str) -> dict[str, str]:
    overrides = env_map(name, {})
    for key, value in overrides.items():
        _code(f"{name} ({key})", value)
    return overrides


def _env_date(name: str, default: str) -> dt.date:
    raw = (env_str(name, default) or "").strip()
    try:
        if not _DATE.match(raw):
            raise ValueError
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a date YYYY-MM-DD, got {raw!r}") from None


def _env_schema_path(name: str) -> Path | None:
    raw = (env_str(name, "") or "").strip()
    if not raw:
        return None
    path = Path(raw).expanduser()
    path = path if path.is_absolute() else BASE_DIR / path
    if not path.is_file():
        raise ImproperlyConfigured(f"{name} must name the FIU's XSD file; {str(path)!r} is not a file")
    return path


def _env_rentity_id(name: str) -> int | None:
    """Our id at the unit. Unset: None in production (``check --deploy`` warns, reports carry an empty,
    invalid ``rentity_id``), 1 elsewhere so development and tests export valid reports."""
    raw = (env_str(name, "") or "").strip()
    if not raw:
        return None if ENVIRONMENT == "production" else 1
    if not raw.isdigit() or int(raw) < 1:
        raise ImproperlyConfigured(f"{name} must be the numeric id (1 or more) the FIU gave us, got {raw!r}")
    return int(raw)


# The unit's XSD: when set, every export is validated against it and a report that fails cannot be submitted.
GOAML_SCHEMA_PATH = _env_schema_path("GOAML_SCHEMA_PATH")
GOAML_RENTITY_ID = _env_rentity_id("GOAML_RENTITY_ID")
# whether the id came from the environment; `check --deploy` warns when it did not (compliance.sars.checks)
GOAML_RENTITY_ID_CONFIGURED = bool((env_str("GOAML_RENTITY_ID", "") or "").strip())
GOAML_RENTITY_BRANCH = (env_str("GOAML_RENTITY_BRANCH", "") or "").strip()
if len(GOAML_RENTITY_BRANCH) > 255:
    raise ImproperlyConfigured("GOAML_RENTITY_BRANCH must be at most 255 characters")
GOAML_SUBMISSION_CODE = env_choice("GOAML_SUBMISSION_CODE", "E", {"E", "M"})
GOAML_REPORT_CODE = _env_code("GOAML_REPORT_CODE", "SAR")
# cash threshold reports: their report code and the indicator each carries (contract: cash threshold reports)
GOAML_CTR_REPORT_CODE = _env_code("GOAML_CTR_REPORT_CODE", "CTR")
GOAML_CTR_INDICATOR = _env_code("GOAML_CTR_INDICATOR", "CTR")
# suspiciousActivityType=CODE,... / ledger CHANNEL=CODE,... / MALE=M,FEMALE=F,UNKNOWN=- over compliance's defaults
GOAML_INDICATORS = _env_codes("GOAML_INDICATORS")
GOAML_TRANSMODE_CODES = _env_codes("GOAML_TRANSMODE_CODES")
GOAML_FUNDS_CODES = _env_codes("GOAML_FUNDS_CODES")
GOAML_GENDER_CODES = _env_codes("GOAML_GENDER_CODES")
GOAML_PHONE_CONTACT_TYPE = _env_code("GOAML_PHONE_CONTACT_TYPE", "PRIVT")
GOAML_PHONE_COMMUNICATION_TYPE = _env_code("GOAML_PHONE_COMMUNICATION_TYPE", "M")
GOAML_ADDRESS_TYPE = _env_code("GOAML_ADDRESS_TYPE", "PRIVT")
GOAML_NATIONAL_ID_TYPE = _env_code("GOAML_NATIONAL_ID_TYPE", "NID")
GOAML_PASSPORT_ID_TYPE = _env_code("GOAML_PASSPORT_ID_TYPE", "PASSP")
GOAML_TRANSMODE_COMMENT_REQUIRED = env_bool("GOAML_TRANSMODE_COMMENT_REQUIRED", False)
# expiry_date is required in t_person_identification; a document that never expires carries this date
GOAML_NO_EXPIRY_DATE = _env_date("GOAML_NO_EXPIRY_DATE", "9999-12-31")
