"""AML's background work: a batch scan (``scan``), and beat's periodic scan (``periodic_scan``).

A scan goes rule by rule (``compliance.aml.services.scans``); each rule's alerts and its progress commit
together, so a second delivery of the task (Redis redelivers a task whose worker died) goes on from the
first rule not done, and a finished scan does nothing.
"""

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from backoffice.ops.periodic import PERIOD_HEADER
from backoffice.tasks import VikelaTask, dispatch
from compliance.aml.models.scans import AMLScan
from compliance.aml.services.scans import (
    aml_periodic_window,
    aml_scan_complete_empty,
    aml_scan_remaining,
    aml_scan_rule,
    aml_scan_start,
)


@shared_task(base=VikelaTask, name="compliance.aml.scan")
def scan(scan_id: int) -> str:
    row = AMLScan.objects.filter(pk=scan_id).first()
    if row is None:
        return "MISSING"
    aml_scan_complete_empty(scan_id=scan_id)
    for rule_id in aml_scan_remaining(row):
        aml_scan_rule(scan_id=scan_id, rule_id=rule_id)
    return AMLScan.objects.values_list("status", flat=True).get(pk=scan_id)


@shared_task(bind=True, base=VikelaTask, name="compliance.aml.periodic_scan")
def periodic_scan(self) -> int:
    """Periodic: scan the ledger since the last periodic scan; one scan per beat period, whatever the sends."""
    now = timezone.now()
    period = self.request.get(PERIOD_HEADER) or (self.request.headers or {}).get(PERIOD_HEADER)
    if not period:  # sent by hand, not by beat: the period it falls in
        start = int(now.timestamp() // settings.AML_SCAN_SECONDS) * settings.AML_SCAN_SECONDS
        period = f"aml-scan:{start}"
    existing = AMLScan.objects.filter(period=period).first()
    if existing is None:
        since, until = aml_periodic_window(now=now, lookback_seconds=settings.AML_SCAN_LOOKBACK_SECONDS)
        existing = aml_scan_start(since=since, until=until, period=period)
    dispatch(scan, args=(existing.pk,))
    return existing.pk
