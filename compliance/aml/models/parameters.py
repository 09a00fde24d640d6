"""The parameters a rule's ``conditions`` take, and their validation (each rule type declares its own).

``validate_conditions`` returns field errors keyed ``conditions.<parameter>``
so the API can answer 400 with details an officer can act on. Parameters are
JSON numbers, strings or string lists; booleans are never numbers here.

Every type also accepts ``description`` (string) and ``transactionTypes``
(ledger types the rule looks at; each evaluator documents its default).
"""

import re
from dataclasses import dataclass, replace
from decimal import Decimal

from compliance.aml.choices import RuleType
from kyc.choices import TransactionType


@dataclass(frozen=True)
class Param:
    kind: str  # amount | window | count | percent | percent100 | strings | choices
    required: bool = True
    choices: tuple[str, ...] = ()
    # each choice's words, in the order of ``choices``: forms and pages show them, the API and storage the codes
    labels: tuple[str, ...] = ()

    @classmethod
    def choosing(cls, options, *, required: bool = True) -> "Param":
        """A list parameter of ``options`` (a Django ``TextChoices``), with their labels."""
        return cls("choices", required=required, choices=tuple(options.values), labels=tuple(map(str, options.labels)))

    def words(self, code: str) -> str:
        """A choice's label ("Top-up" for TOP_UP); a value outside the choices as it is."""
        return dict(zip(self.choices, self.labels, strict=False)).get(code, code)


AMOUNT = Param("amount")
WINDOW = Param("window")
COUNT = Param("count")
PERCENT = Param("percent")
PERCENT100 = Param("percent100")
STRINGS = Param("strings")


def optional(param: Param) -> Param:
    """The same parameter, which a rule may leave out."""
    return replace(param, required=False)


TX_TYPES = Param.choosing(TransactionType, required=False)

COMMON: dict[str, Param] = {"transactionTypes": TX_TYPES}

# Each rule type's parameters, declared in its ``engine/<type>.py`` and registered here from the app's
# ``ready()`` (``parameters_register``): the models validate conditions without importing the engine.
PARAMETERS: dict[str, dict[str, Param]] = {}


def parameters_register(rule_type: str, parameters: dict[str, Param]) -> None:
    """Make ``rule_type``'s parameters the ones its conditions are checked against (idempotent)."""
    PARAMETERS[rule_type] = parameters


_ALWAYS_ALLOWED = {"ruleType", "description"}


def _is_number(value) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def _check(param: Param, value) -> str | None:
    """The reason ``value`` is not a valid ``param``, or None."""
    kind = param.kind
    if kind in ("amount", "window", "count", "percent", "percent100"):
        if not _is_number(value):
            return "Must be a number."
        if value != value or value in (float("inf"), float("-inf")):
            return "Must be a finite number."
        if kind == "amount" and value < 0:
            return "Must not be negative."
        if kind == "window" and value <= 0:
            return "Must be greater than zero."
        if kind == "count" and (value < 1 or int(value) != value):
            return "Must be a whole number of at least 1."
        if kind == "percent" and value < 0:
            return "Must not be negative."
        if kind == "percent100" and not 0 <= value <= 100:
            return "Must be between 0 and 100."
        return None
    if kind == "boolean":
        return None if isinstance(value, bool) else "Must be true or false."
    if not isinstance(value, list) or not value:
        return "Must be a non-empty list of strings."
    if not all(isinstance(item, str) and item.strip() for item in value):
        return "Must be a non-empty list of strings."
    if kind == "choices":
        unknown = sorted({item for item in value if item not in param.choices})
        if unknown:
            return f"Unknown values {unknown}; allowed: {', '.join(param.choices)}."
    if kind == "countries":
        bad = sorted({item for item in value if len(item) != 2 or not item.isalpha() or not item.isupper()})
        if bad:
            return f"Must be ISO 3166-1 alpha-2 codes in capitals, not {bad}."
    return None


def validate_conditions(conditions) -> dict[str, list[str]]:
    """Field errors of a conditions object ({} when it is valid)."""
    if not isinstance(conditions, dict):
        return {"conditions": ["Must be an object with ruleType and its parameters."]}
    rule_type = conditions.get("ruleType")
    if rule_type is None:
        return {"conditions.ruleType": ["This field is required."]}
    if rule_type not in PARAMETERS:
        return {"conditions.ruleType": [f"Unknown ruleType; one of: {', '.join(RuleType.values)}."]}
    spec = {**COMMON, **PARAMETERS[rule_type]}
    errors: dict[str, list[str]] = {}
    for name, param in spec.items():
        if name not in conditions:
            if param.required:
                errors[f"conditions.{name}"] = ["This field is required."]
            continue
        reason = _check(param, conditions[name])
        if reason:
            errors[f"conditions.{name}"] = [reason]
    for name in conditions:
        if name not in spec and name not in _ALWAYS_ALLOWED:
            errors[f"conditions.{name}"] = [f"Unknown parameter for ruleType {rule_type}."]
    description = conditions.get("description")
    if description is not None and not isinstance(description, str):
        errors["conditions.description"] = ["Must be a string."]
    return errors


# ------------------------------------------------------------ words for people (admin forms, descriptions)


@dataclass(frozen=True)
class Label:
    """How a parameter is shown to an officer: its label, unit and help text."""

    label: str
    unit: str = ""
    help: str = ""


CURRENCY = "SZL"

LABELS: dict[str, Label] = {
    "thresholdAmount": Label("Threshold amount", CURRENCY, "Emalangeni; a transaction (or total) of at least this"),
    "minAmount": Label("Minimum amount", CURRENCY, "Emalangeni; smaller transactions are ignored"),
    "minTotalAmount": Label("Minimum total", CURRENCY, "Emalangeni; the window's total must reach this"),
    "reportingThreshold": Label("Reporting threshold", CURRENCY, "Emalangeni per Eswatini calendar day"),
    "thresholdCount": Label("Number of transactions", "transactions", "At least this many in the window"),
    "minCount": Label("Minimum number of transactions", "transactions", "At least this many"),
    "minSenders": Label("Minimum different senders", "senders", "Distinct wallets sending to one receiver"),
    "timeWindowHours": Label("Time window", "hours", "Rolling window length"),
    "timeWindowMinutes": Label("Time window", "minutes", "Rolling window length"),
    "inactiveDays": Label("Days without activity", "days", "A wallet idle this long, then a large transaction"),
    "percentageChange": Label("Increase over the previous window", "%", "300 means four times the previous"),
    "similarityPercentage": Label("Similarity", "%", "Smallest amount as a share of the largest (0-100)"),
    "topupPercentageTransferred": Label("Share of the top-up sent on", "%", "0-100"),
    "occupations": Label("Occupations", "", "One per line, as users declare them (case-insensitive)"),
    "regions": Label("Regions", "", "One per line, e.g. Hhohho, Manzini, Lubombo, Shiselweni"),
    "sectors": Label("Business sectors", "", "One per line, as vendors declare them (case-insensitive)"),
    "countries": Label("Countries", "", "ISO 3166-1 alpha-2 codes in capitals, one per line (e.g. KP)"),
    "transactionTypes": Label("Transaction types", "", "Ledger types the rule looks at; none ticked: its default"),
    "channels": Label("Channels", "", "None ticked: every channel"),
    "vendorStatuses": Label("Vendor KYC statuses", "", "None ticked: any status"),
    "foreignOnly": Label("Foreign transactions only", "", "Made outside Eswatini (country other than SZ)"),
}

MONEY_KINDS = ("amount",)


def parameters_of(rule_type: str) -> dict[str, Param]:
    """Every parameter of a rule type, its own first, then the common ones it does not redefine."""
    own = PARAMETERS.get(rule_type, {})
    return {**own, **{name: param for name, param in COMMON.items() if name not in own}}


def format_value(name: str, param: Param, value) -> str:
    """A parameter value in words: E4,000 | 24 hours | 90% | a, b."""
    label = LABELS.get(name, Label(name))
    if isinstance(value, list):
        return ", ".join(param.words(str(v)) for v in value)  # a choice's label, not its code
    if isinstance(value, bool):
        return "yes" if value else "no"
    if param.kind in MONEY_KINDS and _is_number(value):
        amount = Decimal(str(value))
        text = f"{amount:,.2f}".removesuffix(".00")
        return f"E{text}"
    if _is_number(value):
        number = f"{value:,}" if int(value) != value else f"{int(value):,}"
        return f"{number}%" if label.unit == "%" else f"{number} {label.unit}".strip()
    return str(value)


def describe(conditions) -> str:
    """A description generated from a rule's parameters (what the rule fires on, in its own numbers)."""
    if not isinstance(conditions, dict) or conditions.get("ruleType") not in PARAMETERS:
        return ""
    rule_type = conditions["ruleType"]
    parts = []
    for name, param in parameters_of(rule_type).items():
        if name in conditions:
            parts.append(f"{LABELS.get(name, Label(name)).label}: {format_value(name, param, conditions[name])}")
    title = RuleType(rule_type).label
    return f"{title} rule. " + "; ".join(parts) + "." if parts else f"{title} rule."


_MONEY_IN_TEXT = re.compile(r"\bE\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\b")


def description_mismatches(description: str, conditions) -> list[str]:
    """Amounts a hand-written description names (E5,000) that none of the rule's amount parameters has.

    A description that names no amount is not checked: it cannot go stale on a number.
    """
    if not description or not isinstance(conditions, dict) or conditions.get("ruleType") not in PARAMETERS:
        return []
    amounts = {
        Decimal(str(conditions[name]))
        for name, param in parameters_of(conditions["ruleType"]).items()
        if param.kind in MONEY_KINDS and _is_number(conditions.get(name))
    }
    problems = []
    for match in _MONEY_IN_TEXT.finditer(description):
        said = Decimal(match.group(1).replace(",", "") + (f".{match.group(2)}" if match.group(2) else ""))
        if said not in amounts:
            now = ", ".join(sorted(f"E{a:,.2f}".removesuffix(".00") for a in amounts)) or "no amount"
            problems.append(f"The description says {match.group(0)} but the parameters say {now}.")
    return problems


# The keys of ``actions`` the back office acts on; each is a boolean. Other keys stay free-form (the
# interface's "actions when triggered"), kept for notifiers the platform may add.
ACTION_FLAGS = {
    "createAlert": "Raise an alert for each hit (default true; false makes the rule log-only).",
    "notifyCompliance": "Tell the compliance team (kept for a notifier; the engine does not act on it).",
    "hold": "Hold the transaction for an officer's review before any money moves (decision REVIEW).",
    "block": "Refuse the transaction before any money moves (decision BLOCK); stronger than hold.",
}


def validate_actions(actions) -> dict[str, list[str]]:
    """Errors of an actions object ({} when it is valid), under ``actions``, naming each flag."""
    if not isinstance(actions, dict):
        return {"actions": ["Must be an object."]}
    reasons = [
        f"{name} must be true or false."
        for name in ACTION_FLAGS
        if name in actions and not isinstance(actions[name], bool)
    ]
    return {"actions": reasons} if reasons else {}
