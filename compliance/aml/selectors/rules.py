"""Reads of AML rules: lookup by ruleId or UUID, and the filtered list."""

import datetime as dt
import re
import uuid
from decimal import Decimal

from backoffice.errors import NotFound
from backoffice.money import money
from compliance.aml.models.governance import RuleProposal, RuleProposalEvent, RuleSnooze
from compliance.aml.models.parameters import COMMON, LABELS, PARAMETERS, Label, Param, format_value
from compliance.aml.models.rules import AMLRule, AMLRuleVersion
from compliance.casework.choices import Severity
from kyc.choices import TransactionType
from kyc.models import PlatformUser, Transaction

RULE_NOT_FOUND = "Rule not found"


def rule_get(ref: str, *, for_update: bool = False) -> AMLRule:
    """The rule whose ruleId is ``ref``, or whose UUID is ``ref``; NotFound otherwise."""
    qs = AMLRule.objects.select_for_update() if for_update else AMLRule.objects.all()
    rule = qs.filter(rule_id=ref).first()
    if rule is None:
        try:
            rule = qs.filter(pk=uuid.UUID(str(ref))).first()
        except ValueError:
            rule = None
    if rule is None:
        raise NotFound(RULE_NOT_FOUND)
    return rule


def rule_list():
    return AMLRule.objects.order_by("priority", "rule_id")


def rule_versions(rule: AMLRule):
    return AMLRuleVersion.objects.filter(rule=rule).select_related("changed_by", "approved_by").order_by("-version")


def rule_proposals(rule: AMLRule):
    return (
        RuleProposal.objects.filter(rule=rule)
        .select_related("rule", "proposed_by", "decided_by")
        .order_by("-created_at")
    )


def rule_snoozes(rule: AMLRule):
    return RuleSnooze.objects.filter(rule=rule).select_related("rule", "created_by").order_by("-created_at")


def snooze_get(rule: AMLRule, ref) -> RuleSnooze:
    snooze = RuleSnooze.objects.filter(rule=rule, pk=int(ref)).select_related("rule", "created_by").first()
    if snooze is None:
        raise NotFound("Snooze not found")
    return snooze


def proposal_get(rule: AMLRule, ref: str) -> RuleProposal:
    """A proposal of ``rule`` by its id; NotFound otherwise (also for another rule's proposal)."""
    try:
        pk = uuid.UUID(str(ref))
    except ValueError:
        raise NotFound("Proposal not found") from None
    proposal = RuleProposal.objects.filter(rule=rule, pk=pk).select_related("rule", "proposed_by").first()
    if proposal is None:
        raise NotFound("Proposal not found")
    return proposal


# ---------------------------------------------------------------- differences between versions

# snapshot keys compared field by field, with the name each difference is reported under (the interface's);
# conditions are compared parameter by parameter
_TOP_LEVEL = {
    "name": "name",
    "description": "description",
    "category": "category",
    "severity": "severity",
    "priority": "priority",
    "is_active": "isActive",
    "actions": "actions",
}


def same_value(was, now) -> bool:
    """Whether two values of a rule say the same: a list of choices is a set (its order is how it was ticked)."""
    if isinstance(was, list) and isinstance(now, list):
        return sorted(map(str, was)) == sorted(map(str, now))
    return was == now


def snapshot_diff(before: dict | None, after: dict) -> list[tuple[str, object, object]]:
    """(what, was, now) for every field and every condition parameter that differs; all of ``after`` when new."""
    before = before or {}
    changes: list[tuple[str, object, object]] = []
    old_c, new_c = before.get("conditions") or {}, after.get("conditions") or {}
    for name in dict.fromkeys([*old_c, *new_c]):
        if not same_value(old_c.get(name), new_c.get(name)):
            label = "ruleType" if name == "ruleType" else f"conditions.{name}"
            changes.append((label, old_c.get(name), new_c.get(name)))
    for key, label in _TOP_LEVEL.items():
        if before.get(key) != after.get(key):
            if key == "actions":
                old_a, new_a = before.get(key) or {}, after.get(key) or {}
                for name in dict.fromkeys([*old_a, *new_a]):
                    if not same_value(old_a.get(name), new_a.get(name)):
                        changes.append((f"actions.{name}", old_a.get(name), new_a.get(name)))
            elif not same_value(before.get(key), after.get(key)):
                changes.append((label, before.get(key), after.get(key)))
    return changes


def rule_history(rule: AMLRule) -> list[dict]:
    """Every version, newest first, with its differences from the one before (one query, people included)."""
    versions = list(
        AMLRuleVersion.objects.filter(rule=rule).select_related("changed_by", "approved_by").order_by("version")
    )
    history, previous = [], None
    for version in versions:
        history.append({"version": version, "changes": snapshot_diff(previous, version.snapshot)})
        previous = version.snapshot
    return history[::-1]


def proposal_diffs(proposals) -> dict:
    """proposal pk -> what it would change, parameter by parameter, against the version it was made on.

    One query for all the base versions, however many proposals.
    """
    proposals = list(proposals)
    wanted = {(p.rule_id, p.base_version) for p in proposals}
    bases: dict = {}
    if wanted:
        rows = AMLRuleVersion.objects.filter(
            rule_id__in={r for r, _ in wanted}, version__in={v for _, v in wanted}
        ).values_list("rule_id", "version", "snapshot")
        bases = {(rule_id, version): snapshot for rule_id, version, snapshot in rows}
    diffs = {}
    for proposal in proposals:
        base = bases.get((proposal.rule_id, proposal.base_version)) or {}
        after = {**base, **proposal.changes}  # both keyed by the model's field names
        diffs[proposal.pk] = snapshot_diff(base, after)
    return diffs


def proposal_diff(proposal: RuleProposal) -> list[tuple[str, object, object]]:
    """What one proposal would change, parameter by parameter, against the version it was made on."""
    return proposal_diffs([proposal])[proposal.pk]


def proposal_page(pk) -> tuple[RuleProposal, list]:
    """A proposal with its rule and people, and its history with who moved it: two queries."""
    proposal = RuleProposal.objects.select_related("rule", "proposed_by", "decided_by").get(pk=pk)
    events = list(RuleProposalEvent.objects.filter(proposal=proposal).select_related("actor").order_by("created_at"))
    return proposal, events


def snooze_customer(ref: str) -> PlatformUser | None:
    """The customer a snooze is for, named by exact phone number or by id (None when neither finds one)."""
    user = PlatformUser.objects.filter(phone_number=ref).first()
    if user is None:
        try:
            user = PlatformUser.objects.filter(pk=uuid.UUID(ref)).first()
        except ValueError:
            user = None
    return user


def rule_is_active(rule_pk) -> bool:
    """Whether the stored rule is switched on (an edit form's instance already holds the new value)."""
    return AMLRule.objects.filter(pk=rule_pk, is_active=True).exists()


def show_value(value) -> str:
    """A rule's value in words: None as a dash, a list as its items."""
    if value is None:
        return "—"
    return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def diff_summary(diff) -> str:
    """A diff (``proposal_diff``) on one line, in words: ``what: was → now; ...`` (or that nothing changes)."""
    rows = diff_in_words(diff)
    return "; ".join(f"{what}: {was} → {now}" for what, was, now in rows) if rows else "No change"


# ---------------------------------------------------------------- a change in words

_FIELD_WORDS = {
    "name": "Name",
    "description": "Description",
    "category": "Category",
    "severity": "Severity",
    "priority": "Priority",
    "isActive": "Switched on",
    "ruleType": "Rule type",
}
_ACTION_WORDS = {
    "createAlert": "Raise an alert on a hit",
    "notifyCompliance": "Tell the compliance team",
    "hold": "Hold the transaction for review",
    "block": "Block the transaction",
}


def _param_of(name: str) -> Param:
    for params in (COMMON, *PARAMETERS.values()):
        if name in params:
            return params[name]
    return Param("strings")


def value_words(name: str, value) -> str:
    """A rule's value as an officer reads it: labels for transaction types, yes/no, amounts with their unit."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    param = _param_of(name)
    if param.kind == "choices" and isinstance(value, list):
        return ", ".join(param.words(v) for v in value)  # labels for the codes (transaction types, channels, ...)
    if name in ("transactionType", "type") and isinstance(value, str):
        return str(dict(TransactionType.choices).get(value, value))
    if name == "severity" and isinstance(value, str):
        return str(dict(Severity.choices).get(value, value))
    if isinstance(value, list | dict) and name not in LABELS:
        return show_value(value) if isinstance(value, list) else ", ".join(f"{k}: {v}" for k, v in value.items())
    text = format_value(name, _param_of(name), value)
    unit = LABELS.get(name, Label(name)).unit
    return f"{text} {unit}" if unit and unit != "SZL" and not text.endswith(unit) else text


def diff_in_words(diff) -> list[tuple[str, str, str]]:
    """A diff (``snapshot_diff``) as (what, was, now) in words, each parameter by its label."""
    rows = []
    for what, was, now in diff:
        if what.startswith("conditions."):
            name = what.removeprefix("conditions.")
            label = LABELS.get(name, Label(name)).label
        elif what.startswith("actions."):
            name = what.removeprefix("actions.")
            label = _ACTION_WORDS.get(name, name)
        else:
            name, label = what, _FIELD_WORDS.get(what, what)
        rows.append((label, value_words(name, was), value_words(name, now)))
    return rows


def _words_of(key: str) -> str:
    """``transactionType`` -> "Transaction type": a key of a hit's details as a heading."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|_", " ", key).strip().lower()
    return spaced[:1].upper() + spaced[1:]


def _numeric(value) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def details_in_words(details: dict) -> list[tuple[str, str]]:
    """A hit's details as (what, value) rows in words; the rule type is the page's already."""
    rows = []
    for stored, value in (details or {}).items():
        key = re.sub(r"_([a-z])", lambda m: m.group(1).upper(), stored)  # details are stored snake_case
        if key == "ruleType":
            continue
        label = LABELS[key].label if key in LABELS else _words_of(key)
        if key not in LABELS and (key == "amount" or key.endswith(("Amount", "Total"))) and _numeric(value):
            rows.append((label, money(value)))
            continue
        if isinstance(value, dict):
            shown = ", ".join(f"{_words_of(k).lower()} {value_words(k, v)}" for k, v in value.items())
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            shown = f"{len(value)} items"
        else:
            shown = value_words(key, value)
        rows.append((label, shown))
    return rows


def backtest_volumes(*, current, candidate, since: dt.datetime, until: dt.datetime) -> list[tuple]:
    """Alerts per day (a window up to 31 days) or per week, (period, current version, with the change, the
    difference signed), dated by each hit's latest transaction: one query per 5,000 transactions of the hits."""
    ids = {t for hit in [*current, *candidate] for t in hit.transaction_ids}
    when: dict = {}
    for start in range(0, len(ids), 5000):
        chunk = list(ids)[start : start + 5000]
        when.update(Transaction.objects.filter(pk__in=chunk).values_list("pk", "created_at"))
    weekly = (until - since) > dt.timedelta(days=31)

    def period(hit) -> dt.date | None:
        dates = [when[t] for t in hit.transaction_ids if t in when]
        if not dates:
            return None
        day = max(dates).date()
        return day - dt.timedelta(days=day.weekday()) if weekly else day

    counts: dict = {}
    for index, hits in enumerate((current, candidate)):
        for hit in hits:
            key = period(hit)
            if key is not None:
                counts.setdefault(key, [0, 0])[index] += 1
    label = "Week of {:%Y-%m-%d}" if weekly else "{:%Y-%m-%d}"
    rows = []
    for key in sorted(counts):
        before, after = counts[key]
        rows.append((label.format(key), before, after, f"{after - before:+d}" if after != before else "0"))
    return rows
