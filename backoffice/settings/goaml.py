"""goAML: our identity at the financial intelligence unit and the unit's code lists (docs/sars.md).

Each unit publishes its own lists, so they are settings. The maps here hold
only what the environment overrides; the defaults, and the check that every
key names a real activity type or ledger channel, live beside the code that
knows those values (``compliance.goaml``), which runs the check when the app
starts, so a typo still stops start-up.
"""

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_choice, env_map, env_str

GOAML_RENTITY_ID = env_str("GOAML_RENTITY_ID", "0")
if not GOAML_RENTITY_ID.isdigit():
    raise ImproperlyConfigured(f"GOAML_RENTITY_ID must be the numeric id the FIU gave us, got {GOAML_RENTITY_ID!r}")
GOAML_RENTITY_BRANCH = env_str("GOAML_RENTITY_BRANCH", "")
GOAML_SUBMISSION_CODE = env_choice("GOAML_SUBMISSION_CODE", "E", {"E", "M"})
GOAML_REPORT_CODE = env_str("GOAML_REPORT_CODE", "SAR")
if not GOAML_REPORT_CODE.isalnum():
    raise ImproperlyConfigured(f"GOAML_REPORT_CODE must be a code such as SAR or STR, got {GOAML_REPORT_CODE!r}")
# suspiciousActivityType=CODE,... over compliance.goaml's defaults
GOAML_INDICATORS = env_map("GOAML_INDICATORS", {})
# ledger CHANNEL=CODE,... over compliance.goaml's defaults
GOAML_TRANSMODE_CODES = env_map("GOAML_TRANSMODE_CODES", {})
GOAML_FUNDS_CODES = env_map("GOAML_FUNDS_CODES", {})
