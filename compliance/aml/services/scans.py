"""Scans of the ledger: rules run over a scope and the alerts their hits raise, never twice for the same hit.

``scan`` evaluates rules (``engine.runner.evaluate``, reads only) and raises each hit's alert through
``services.alerts.alert_raise_many`` like every other alert write. An alert's ``dedup_key`` is sha256(rule
id, hit key): the hit key names the transaction (single-transaction rules, top-ups, dormant wake-ups) or
the user, partition and time bucket (window rules). The key does not include the rule's version, so
editing a rule does not re-raise alerts on transactions already alerted; the alert keeps the version that
raised it.

Batch scans (``AMLScan``) are started by the command or by beat and run rule by rule: ``aml_scan_rule`` is
the step: it locks the scan, runs one rule over the scan's window (``scan``) and records it done in the
same transaction; a rule already done is skipped. So a scan task that runs twice, or a worker that dies
half-way, repeats no rule's work: the next run of the task goes on from the next rule.
"""

import datetime as dt
import logging
import time
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from compliance.aml.choices import ScanStatus, ScanTrigger
from compliance.aml.engine import runner
from compliance.aml.engine.base import Hit, Scope
from compliance.aml.models.governance import RuleSnooze
from compliance.aml.models.rules import AMLRule
from compliance.aml.models.scans import AMLScan
from compliance.aml.services.alerts import NewAlert, alert_raise_many, dedup_key
from kyc.models import Transaction

logger = logging.getLogger("compliance.aml.engine")


@dataclass
class ScanResult:
    rules: int = 0
    hits: int = 0
    alerts_created: int = 0
    errors: int = 0
    per_rule: dict[str, dict] = field(default_factory=dict)


def new_alerts(rule: AMLRule, hits: list[Hit]) -> list[NewAlert]:
    """What each hit raises: an alert keyed by rule and hit, carrying the rule's words and version."""
    return [
        NewAlert(
            user_id=hit.user_id,
            dedup_key=dedup_key(rule.pk, hit.key),
            severity=rule.severity,
            rule=rule,
            transaction_ids=tuple(hit.transaction_ids),
            note=f"Raised by rule {rule.rule_id} (version {rule.version}).",
            details={
                "rule_id": rule.rule_id,
                "rule_type": rule.rule_type,
                "rule_version": rule.version,
                "rule_name": rule.name,
                **hit.details,
            },
        )
        for hit in hits
    ]


def snoozed_users(rule: AMLRule, at: dt.datetime) -> set:
    """Users for whom ``rule`` is snoozed at ``at`` (RuleSnooze: not ended, not yet expired)."""
    return set(
        RuleSnooze.objects.filter(rule=rule, ended_at__isnull=True, expires_at__gt=at).values_list("user_id", flat=True)
    )


def without_snoozed(rule: AMLRule, hits: list[Hit]) -> list[Hit]:
    """``hits`` less those of users the rule is snoozed for right now (one query per rule, not per hit)."""
    if not hits:
        return hits
    snoozed = snoozed_users(rule, timezone.now())
    return [hit for hit in hits if hit.user_id not in snoozed] if snoozed else hits


def scan(*, since: dt.datetime, until: dt.datetime | None = None, user_id=None, rules=None) -> ScanResult:
    """Evaluate every active rule (or ``rules``) over [since, until] and raise the alerts."""
    until = until or timezone.now()
    scope = Scope(since=since, until=until, user_id=user_id)
    rules_were_all = rules is None
    if rules is None:
        rules = list(AMLRule.objects.filter(is_active=True).order_by("priority", "rule_id"))
    result = ScanResult(rules=len(rules))
    batch = user_id is None
    for rule in rules:
        started = time.perf_counter()
        try:
            # a savepoint per rule: one broken rule must not stop the others or poison the transaction
            with transaction.atomic():
                if batch:
                    runner.batch_session()
                # ``runner.evaluate`` looked up at call time: tests stand a broken evaluator in for it
                hits = without_snoozed(rule, runner.evaluate(rule, scope))
                created = len(alert_raise_many(alerts=new_alerts(rule, hits))) if rule.creates_alerts else 0
        except Exception:
            logger.exception("AML rule %s failed to evaluate", rule.rule_id)
            result.per_rule[rule.rule_id] = {"error": True}
            result.errors += 1
            continue
        if hits and not rule.creates_alerts:
            logger.info("rule %s (log only) hit %d time(s)", rule.rule_id, len(hits))
        result.hits += len(hits)
        result.alerts_created += created
        result.per_rule[rule.rule_id] = {
            "hits": len(hits),
            "created": created,
            "seconds": round(time.perf_counter() - started, 3),
        }
    if batch and not result.errors and rules_were_all:
        # rows the record-time screening could not finish (fail-open) have now been seen by every rule
        Transaction.objects.filter(screening_failed=True, created_at__gte=since, created_at__lte=until).update(
            screening_failed=False
        )
    return result


def scan_transaction(transaction_id) -> ScanResult:
    """Screen one ledger row: every rule, scoped to its user and to windows ending at it."""

    tx = Transaction.objects.only("id", "user_id", "created_at").get(pk=transaction_id)
    return scan(since=tx.created_at, until=tx.created_at, user_id=tx.user_id)


def aml_scan_start(
    *, since: dt.datetime, until: dt.datetime, rules: list[AMLRule] | None = None, period: str | None = None
) -> AMLScan:
    """A scan of [since, until] by these rules (default: every active rule, by priority).

    With beat's ``period`` key the scan is that period's: asking again for the same period answers the scan
    already made (a period sent twice, a task delivered twice) instead of making a second.
    """
    if rules is None:
        rules = list(AMLRule.objects.filter(is_active=True).order_by("priority", "rule_id"))
    values = {
        "since": since,
        "until": until,
        "rule_ids": [str(rule.pk) for rule in rules],
        "trigger": ScanTrigger.PERIODIC if period else ScanTrigger.MANUAL,
    }
    if period is None:
        return AMLScan.objects.create(**values)
    scan_row, _ = AMLScan.objects.get_or_create(period=period, defaults=values)
    return scan_row


def aml_scan_rule(*, scan_id: int, rule_id: str) -> bool:
    """Run one rule of the scan unless it is done; True if it ran. The last rule completes the scan."""
    with transaction.atomic():
        row = AMLScan.objects.select_for_update().get(pk=scan_id)
        if row.status != ScanStatus.RUNNING or rule_id in row.rules_done:
            return False
        rule = AMLRule.objects.filter(pk=rule_id).first()
        if rule is not None:
            result = scan(since=row.since, until=row.until, rules=[rule])
            row.hits += result.hits
            row.alerts_created += result.alerts_created
            row.errors += result.errors
            row.per_rule.update(result.per_rule)
        row.rules_done = [*row.rules_done, rule_id]
        if len(row.rules_done) >= len(row.rule_ids):
            row.status = ScanStatus.COMPLETED
            row.finished_at = timezone.now()
        row.save()
    return True


def aml_scan_remaining(row: AMLScan) -> list[str]:
    return [rule_id for rule_id in row.rule_ids if rule_id not in set(row.rules_done)]


def aml_scan_complete_empty(*, scan_id: int) -> None:
    """A scan with no rule to run is complete at once."""
    AMLScan.objects.filter(pk=scan_id, rule_ids=[], status=ScanStatus.RUNNING).update(
        status=ScanStatus.COMPLETED, finished_at=timezone.now()
    )


def aml_periodic_window(*, now: dt.datetime, lookback_seconds: int) -> tuple[dt.datetime, dt.datetime]:
    """From the end of the last periodic scan (or ``lookback_seconds`` back, the first time) to now."""
    last = (
        AMLScan.objects.filter(trigger=ScanTrigger.PERIODIC, status=ScanStatus.COMPLETED)
        .order_by("-until")
        .values_list("until", flat=True)
        .first()
    )
    return (last or now - dt.timedelta(seconds=lookback_seconds)), now
