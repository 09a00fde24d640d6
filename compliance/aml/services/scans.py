"""Batch scans of the ledger (``AMLScan``): started by the command or by beat, run rule by rule.

``aml_scan_rule`` is the step: it locks the scan, runs one rule over the scan's window (``engine.runner.scan``)
and records it done in the same transaction; a rule already done is skipped. So a scan task that runs twice,
or a worker that dies half-way, repeats no rule's work: the next run of the task goes on from the next rule.
"""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from compliance.aml.choices import ScanStatus, ScanTrigger
from compliance.aml.engine.runner import scan
from compliance.aml.models.rules import AMLRule
from compliance.aml.models.scans import AMLScan


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
