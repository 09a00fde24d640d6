"""The words of an alert's finding: each rule type's sentence (``engine/<type>.py``) is built from these.

"5 senders sent SZL 32,500.00 within 72 hours" / "Rule: at least 5 senders and SZL 30,000.00 within 72 hours"
(money as everywhere: ``backoffice.money``).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from backoffice.money import money
from kyc.choices import TransactionType

__all__ = ["Finding", "duration", "listed", "money", "number", "plural", "tx_label", "types_of", "window_of"]


@dataclass(frozen=True)
class Finding:
    """An alert's finding in two sentences: what happened, and what the rule (or screening) asks for."""

    what: str
    rule: str


def number(value) -> str:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, TypeError, ValueError):
        return str(value)
    return f"{amount:,.0f}" if amount == amount.to_integral_value() else f"{amount:,.1f}"


def duration(seconds) -> str:
    """3600 -> "1 hour", 259200 -> "72 hours", 604800 -> "7 days", 1800 -> "30 minutes"."""
    seconds = int(float(seconds))
    if seconds % 86400 == 0 and seconds >= 7 * 86400:
        days = seconds // 86400
        return f"{days} day{'s' if days != 1 else ''}"
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def plural(count, word: str, words: str | None = None) -> str:
    count = int(count)
    return f"{count} {word if count == 1 else (words or word + 's')}"


def listed(values: Iterable) -> str:
    values = [str(v) for v in values]
    if len(values) <= 1:
        return "".join(values)
    return ", ".join(values[:-1]) + " or " + values[-1]


def tx_label(value) -> str:
    try:
        return TransactionType(value).label.lower()
    except ValueError:
        return "transaction"


def types_of(c: dict) -> str:
    """The rule's transactionTypes in words, as " (top-up or withdrawal)"; empty when it names none."""
    types = c.get("transactionTypes")
    return f" ({listed(tx_label(t) for t in types)})" if types else ""


def window_of(d: dict, c: dict, *, hours_key="timeWindowHours", minutes_key="timeWindowMinutes") -> str:
    """The hit's window (``window_seconds`` of its details), else the rule's, in words."""
    if d.get("window_seconds"):
        return duration(d["window_seconds"])
    if hours_key in c:
        return duration(float(c[hours_key]) * 3600)
    if minutes_key in c:
        return duration(float(c[minutes_key]) * 60)
    return "the rule's window"
