"""Evidence a person can read: an alert's finding in words, with the rule's thresholds, and its history in words.

``finding(alert, conditions)`` turns the hit's figures (``alert.details``, as
the engine wrote them) and the rule's parameters (the version that raised the
alert) into two sentences: what happened, and what the rule asks for. Each rule
type's sentence is declared with the type (``engine/<type>.py``, from the words
of ``engine.words``); an alert no rule raised reads through the sentence its
sub-domain registers for its type (``finding_register``, from ``ready()``: the
PEP match's is compliance.peps'). A figure the alert does not carry never breaks
the page: the sentence falls back to the figures it has.
"""

from collections.abc import Callable
from decimal import InvalidOperation

from compliance.aml.choices import AlertStatus, AlertType, CloseReason
from compliance.aml.engine.registry import SENTENCES
from compliance.aml.engine.words import Finding

CLOSED = (AlertStatus.CLOSED_FALSE_POSITIVE, AlertStatus.CLOSED_SAR_FILED, AlertStatus.CLOSED_TRUE_POSITIVE)


# Keys of the details that are bookkeeping, not figures a person needs.
_BOOKKEEPING = {
    "rule_id",
    "rule_type",
    "rule_version",
    "rule_name",
    "window_end_epoch",
    "window_start_epoch",
    "partition",
}


def _plain(details: dict) -> str:
    """Any details as "name: value" pairs, for alerts without a rule type we know."""
    parts = []
    for key, value in details.items():
        if key in _BOOKKEEPING:
            continue
        label = key.replace("_", " ").strip().capitalize()
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{label}: {value}")
    return "; ".join(parts) + "." if parts else "No figures recorded."


def context_of(transactions: list) -> dict:
    """What the linked transactions add to a sentence: distinct senders, the vendor, channel, region, country."""
    ctx: dict = {}
    senders = {t.counterparty_user_id for t in transactions if t.counterparty_user_id}
    if senders:
        ctx["senders"] = len(senders)
    vendors = {t.counterparty_vendor.business_name for t in transactions if t.counterparty_vendor_id}
    if len(vendors) == 1:
        ctx["vendor"] = vendors.pop()
    if len(transactions) == 1:
        tx = transactions[0]
        ctx.update(channel=tx.get_channel_display(), region=tx.region, country=tx.country)
    return ctx


_DUPLICATE_WHAT = {
    "ID_NUMBER": "carries the same ID number as",
    "FACE": "has the same face as",
    "IMAGE": "submitted an identity image also submitted by",
}


def _duplicate_identity(details: dict) -> Finding:
    kind = details.get("finding", "")
    score = details.get("score")
    how = _DUPLICATE_WHAT.get(kind, "may share an identity with")
    other = str(details.get("other_user_id", "unknown"))
    who = f"{details['other_user_name']} (user {other[:8]})" if details.get("other_user_name") else f"user {other}"
    what = (
        f"The customer {how} {who}"
        + (f" (similarity {float(score):.0f}%)" if isinstance(score, int | float) and kind != "ID_NUMBER" else "")
        + "."
        + (f" {details['detail']}." if details.get("detail") and kind == "IMAGE" else "")
    )
    rule = (
        "Identity verification: one person must hold one account; the same ID number, a face at or above the "
        "duplicate threshold among verified users, or the same image raises this alert once per pair of users."
    )
    return Finding(what, rule)


# Findings of alerts that no AML rule raised, by alert type: each sub-domain that raises such alerts knows
# their details' keys and registers its sentence (the duplicate identity alert is aml's own).
OTHER_FINDINGS: dict[str, Callable[[dict], Finding]] = {
    AlertType.DUPLICATE_IDENTITY: _duplicate_identity,
}


def finding_register(alert_type: str, build: Callable[[dict], Finding]) -> None:
    """Let alerts of ``alert_type`` read as ``build(details)`` says (from an ``AppConfig.ready()``; idempotent)."""
    OTHER_FINDINGS[alert_type] = build


def finding(alert, conditions: dict | None, transactions: list, *, occupation: str = "") -> Finding:
    """The alert's finding and the rule it met, in words (a plain list of figures when the type is unknown)."""
    details = dict(alert.details or {})
    if alert.alert_type != AlertType.RULE:
        build = OTHER_FINDINGS.get(alert.alert_type)
        return build(details) if build else Finding(f"{alert.get_alert_type_display()}: {_plain(details)}", "")
    conditions = conditions or {}
    rule_type = details.get("rule_type") or conditions.get("ruleType")
    build = SENTENCES.get(rule_type)
    ctx = context_of(transactions)
    if occupation:
        ctx["occupation"] = occupation
    if build is not None:
        try:
            return build(details, conditions, ctx)
        except (KeyError, TypeError, ValueError, InvalidOperation):
            pass  # an older alert without some figure: say what it has
    return Finding(_plain(details), "")


# ---------------------------------------------------------------- history in words


def _who(event) -> str:
    if event.actor is None:
        return "The system"
    return event.actor.full_name or event.actor.email


def history_sentence(event) -> str:
    """One history row as a sentence: who did what, and why."""
    who = _who(event)
    note = f": “{event.note}”" if event.note else "."
    to = event.to_status
    if not event.from_status:
        if event.note.startswith("Raised by"):
            return event.note  # the engine's own words: "Raised by rule AML-NET-001 (version 1)."
        return f"{who} raised the alert" + (f": {event.note}" if event.note else ".")
    if event.from_status == to:
        return f"{who}: {event.note or 'changed the assignee'}."
    if to == AlertStatus.UNDER_REVIEW:
        verb = (
            "took the escalated alert back into review"
            if event.from_status == AlertStatus.ESCALATED
            else ("started the review")
        )
    elif to == AlertStatus.ESCALATED:
        verb = "escalated the alert"
    elif to == AlertStatus.CLOSED_FALSE_POSITIVE:
        reason = CloseReason(event.reason_code).label.lower() if event.reason_code in CloseReason.values else ""
        verb = "closed the alert as a false positive" + (f" ({reason})" if reason else "")
    elif to == AlertStatus.CLOSED_SAR_FILED:
        verb = "closed the alert: a SAR reports it"
    elif to == AlertStatus.CLOSED_TRUE_POSITIVE:
        reason = CloseReason(event.reason_code).label.lower() if event.reason_code in CloseReason.values else ""
        verb = "closed the alert as confirmed (a true positive)" + (f": {reason}" if reason else "")
    elif to == AlertStatus.OPEN and event.from_status in CLOSED:
        verb = "reopened the alert"
    elif to == AlertStatus.OPEN:
        verb = "put the alert back in the queue"
    else:
        verb = f"moved the alert to {AlertStatus(to).label.lower()}"
    return f"{who} {verb}{note}"
