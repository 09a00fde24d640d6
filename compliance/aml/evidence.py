"""Evidence a person can read: an alert's finding in words, with the rule's thresholds, and its history in words.

``finding(alert, conditions)`` turns the hit's figures (``alert.details``, as
the engine wrote them) and the rule's parameters (the version that raised the
alert) into two sentences, one per rule type: what happened, and what the
rule asks for. "5 senders sent SZL 32,500.00 within 72 hours" / "Rule: at least
5 senders and SZL 30,000.00 within 72 hours" (money as everywhere: ``backoffice.money``).
A figure the alert does not carry never breaks the page: the sentence falls back to the figures it has.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from backoffice.money import money
from compliance.aml.choices import AlertStatus, AlertType, CloseReason, RuleType
from kyc.choices import TransactionType

CLOSED = (AlertStatus.CLOSED_FALSE_POSITIVE, AlertStatus.CLOSED_SAR_FILED)


@dataclass(frozen=True)
class Finding:
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


def _types(c: dict) -> str:
    types = c.get("transactionTypes")
    return f" ({listed(tx_label(t) for t in types)})" if types else ""


def _window(d: dict, c: dict, *, hours_key="timeWindowHours", minutes_key="timeWindowMinutes") -> str:
    if d.get("window_seconds"):
        return duration(d["window_seconds"])
    if hours_key in c:
        return duration(float(c[hours_key]) * 3600)
    if minutes_key in c:
        return duration(float(c[minutes_key]) * 60)
    return "the rule's window"


# ---------------------------------------------------------------- one sentence pair per rule type


def _threshold(d, c, ctx):
    return Finding(
        f"One {tx_label(d.get('transaction_type'))} of {money(d['amount'])}.",
        f"Rule: a single transaction{_types(c)} of at least {money(c['thresholdAmount'])}.",
    )


def _structuring(d, c, ctx):
    return Finding(
        f"{plural(d['count'], 'transaction')}, each below {money(c['thresholdAmount'])}, "
        f"added up to {money(d['total'])} within {_window(d, c)}.",
        f"Rule: at least {c['thresholdCount']} transactions{_types(c)}, each below {money(c['thresholdAmount'])}, "
        f"totalling {money(c['thresholdAmount'])} or more within {_window({}, c)}.",
    )


def _velocity(d, c, ctx):
    return Finding(
        f"{money(d['total'])} moved in {_window(d, c)}, {number(d['percentage_change'])}% more than the "
        f"{_window(d, c)} before ({money(d['previous_total'])}).",
        f"Rule: at least {number(c['percentageChange'])}% above the previous {_window({}, c)}, "
        f"and at least {money(c.get('minAmount', 0))}.",
    )


def _behavioral(d, c, ctx):
    occupation = ctx.get("occupation") or "one the rule watches"
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])} by a customer whose occupation is "
        f"{occupation}.",
        f"Rule: at least {money(c['thresholdAmount'])} by a customer working as {listed(c['occupations'])}.",
    )


def _pep_related(d, c, ctx):
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])} by a customer flagged as a potential PEP.",
        f"Rule: a transaction{_types(c)} of at least {money(c['thresholdAmount'])} by a potential PEP.",
    )


def _network_analysis(d, c, ctx):
    senders = ctx.get("senders") or d.get("senders")
    who = plural(senders, "sender") if senders else plural(d["transfers"], "transfer")
    return Finding(
        f"{who} sent {money(d['total'])} within {_window(d, c)}"
        + (f" in {plural(d['transfers'], 'transfer')}." if senders else "."),
        f"Rule: at least {c['minSenders']} senders and {money(c['minTotalAmount'])} within {_window({}, c)}.",
    )


def _high_risk_transaction(d, c, ctx):
    where = []
    if ctx.get("channel"):
        where.append(f"by {ctx['channel'].lower()}")
    if ctx.get("country") and ctx["country"] != "SZ":
        where.append(f"made in {ctx['country']}")
    channels = f" by {listed(ch.replace('_', ' ').lower() for ch in c['channels'])}" if c.get("channels") else ""
    abroad = " made outside Eswatini" if c.get("foreignOnly") else ""
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])}{' ' + ' '.join(where) if where else ''}.",
        f"Rule: a {listed(tx_label(t) for t in c['transactionTypes'])} of at least "
        f"{money(c['thresholdAmount'])}{channels}{abroad}.",
    )


def _pattern_detection(d, c, ctx):
    return Finding(
        f"{plural(d['count'], 'transaction')} of similar amounts ({money(d['smallest'])} to {money(d['largest'])}, "
        f"{money(d['total'])} in all) within {_window(d, c)}.",
        f"Rule: at least {c.get('minCount', 3)} transactions{_types(c)} of {money(c['minAmount'])} or more within "
        f"{_window({}, c)}, the smallest at least {number(c['similarityPercentage'])}% of the largest.",
    )


def _account_lifecycle(d, c, ctx):
    return Finding(
        f"{money(d['amount'])} moved after {number(d['inactive_days'])} days without any transaction.",
        f"Rule: at least {money(c['thresholdAmount'])} after {number(c['inactiveDays'])} days of inactivity.",
    )


def _digital_wallet(d, c, ctx):
    return Finding(
        f"A top-up of {money(d['top_up_amount'])}, of which {money(d['transferred_amount'])} "
        f"({number(d['percentage_transferred'])}%) left the wallet within {duration(int(d['window_minutes']) * 60)}.",
        f"Rule: a top-up of at least {money(c['minAmount'])} with {number(c['topupPercentageTransferred'])}% or "
        f"more leaving within {duration(float(c['timeWindowMinutes']) * 60)}.",
    )


def _mobile_money(d, c, ctx):
    return Finding(
        f"{plural(d['count'], 'mobile-money transaction')} added up to {money(d['total'])} within {_window(d, c)}.",
        f"Rule: at least {c['minCount']} mobile-money transactions{_types(c)} and {money(c['minTotalAmount'])} "
        f"within {_window({}, c)}.",
    )


def _vendor_specific(d, c, ctx):
    vendor = f" ({ctx['vendor']})" if ctx.get("vendor") else ""
    statuses = (
        f" whose KYC status is {listed(s.replace('_', ' ').lower() for s in c['vendorStatuses'])}"
        if c.get("vendorStatuses")
        else ""
    )
    return Finding(
        f"{plural(d['payments'], 'payment')} to one vendor{vendor} added up to {money(d['total'])} within "
        f"{_window(d, c)}.",
        f"Rule: {money(c['thresholdAmount'])} or more in at least {plural(c.get('minCount', 1), 'payment')} to "
        f"one vendor{statuses} within {_window({}, c)}.",
    )


def _cft_related(d, c, ctx):
    threshold = money(c["thresholdAmount"]) + " or more" if float(c["thresholdAmount"]) > 0 else "any amount"
    return Finding(
        f"{plural(d['count'], 'transaction')} in {listed(d.get('countries') or c['countries'])} totalling "
        f"{money(d['total'])} within {_window(d, c)}.",
        f"Rule: {threshold} in {listed(c['countries'])} within {_window({}, c)}.",
    )


def _regional_risk(d, c, ctx):
    region = ctx.get("region") or listed(d.get("regions") or c["regions"])
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])} made in {region}.",
        f"Rule: at least {money(c.get('thresholdAmount', 0))} in {listed(c['regions'])}.",
    )


def _regulatory_reporting(d, c, ctx):
    return Finding(
        f"{plural(d['count'], 'transaction')} on {d['day']} (Eswatini time) totalled {money(d['total'])}.",
        f"Rule: {money(c['reportingThreshold'])} or more in one Eswatini day; a large-cash report may be due.",
    )


def _business_sector(d, c, ctx):
    return Finding(
        f"{plural(d['payments'], 'payment')} to vendors in {listed(d.get('sectors') or c['sectors'])} added up to "
        f"{money(d['total'])} within {_window(d, c)}.",
        f"Rule: {money(c['thresholdAmount'])} or more within {_window({}, c)} to vendors in {listed(c['sectors'])}.",
    )


SENTENCES: dict[str, Callable] = {
    RuleType.THRESHOLD: _threshold,
    RuleType.STRUCTURING: _structuring,
    RuleType.VELOCITY: _velocity,
    RuleType.BEHAVIORAL: _behavioral,
    RuleType.PEP_RELATED: _pep_related,
    RuleType.NETWORK_ANALYSIS: _network_analysis,
    RuleType.HIGH_RISK_TRANSACTION: _high_risk_transaction,
    RuleType.PATTERN_DETECTION: _pattern_detection,
    RuleType.ACCOUNT_LIFECYCLE: _account_lifecycle,
    RuleType.DIGITAL_WALLET: _digital_wallet,
    RuleType.MOBILE_MONEY: _mobile_money,
    RuleType.VENDOR_SPECIFIC: _vendor_specific,
    RuleType.CFT_RELATED: _cft_related,
    RuleType.REGIONAL_RISK: _regional_risk,
    RuleType.REGULATORY_REPORTING: _regulatory_reporting,
    RuleType.BUSINESS_SECTOR: _business_sector,
}

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


def _pep_match(details: dict) -> Finding:
    where = ", ".join(p for p in (details.get("position"), details.get("country"), details.get("category")) if p)
    summary = (details.get("explanation") or {}).get("summary", "")
    what = (
        f"The customer's name matches the PEP list entry {details.get('pep_name', 'unknown')}"
        f"{f' ({where})' if where else ''} with a score of {float(details.get('score', 0)):.2f}."
        + (f" {summary}" if summary else "")
    )
    rule = "PEP screening: a score at or above the matching threshold; the match page shows how each name part scored."
    if details.get("reason") and details["reason"] != "new match":
        rule += f" Raised again because the {details['reason'].lower()}."
    return Finding(what, rule)


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


# Findings of alerts that no AML rule raised, by alert type.
OTHER_FINDINGS: dict[str, Callable[[dict], Finding]] = {
    AlertType.PEP_MATCH: _pep_match,
    AlertType.DUPLICATE_IDENTITY: _duplicate_identity,
}


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
    elif to == AlertStatus.OPEN and event.from_status in CLOSED:
        verb = "reopened the alert"
    elif to == AlertStatus.OPEN:
        verb = "put the alert back in the queue"
    else:
        verb = f"moved the alert to {AlertStatus(to).label.lower()}"
    return f"{who} {verb}{note}"
