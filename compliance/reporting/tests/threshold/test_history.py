"""Every move of a threshold report and of its batch leaves one history row, shown on their admin pages."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from backoffice.errors import InvalidTransition
from compliance.reporting.models import ThresholdReport, ThresholdReportBatchEvent, ThresholdReportEvent
from compliance.reporting.services.threshold import (
    threshold_batch_prepare,
    threshold_batch_submit,
    threshold_report_answer,
)
from compliance.reporting.tests.threshold.helpers import MORNING, cash
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def steps(model, **link):
    return list(model.objects.filter(**link).order_by("id").values_list("from_status", "to_status", "actor", "note"))


def test_a_report_and_its_batches_keep_their_whole_history(rule, customer, staff):
    officer, mlro = staff["officer"], staff["mlro"]
    cash(customer, "25000")
    report = ThresholdReport.objects.get()
    assert steps(ThresholdReportEvent, report=report) == [("", "PENDING", None, "")]  # opened by the ledger

    first = threshold_batch_prepare(actor=officer)
    threshold_batch_submit(batch=first, actor=mlro, fiu_reference="FIU-1")
    threshold_report_answer(report=report, actor=mlro, accepted=False, reason="ID missing")
    cash(customer, "26000", at=MORNING + dt.timedelta(days=1))
    second = threshold_batch_prepare(actor=officer)

    assert steps(ThresholdReportEvent, report=report) == [
        ("", "PENDING", None, ""),
        ("PENDING", "BATCHED", officer.pk, ""),
        ("BATCHED", "SUBMITTED", mlro.pk, ""),
        ("SUBMITTED", "REJECTED", mlro.pk, "ID missing"),
        ("REJECTED", "BATCHED", officer.pk, ""),
    ]
    assert steps(ThresholdReportBatchEvent, batch=first) == [
        ("", "PREPARED", officer.pk, ""),
        ("PREPARED", "SUBMITTED", mlro.pk, ""),
    ]
    assert steps(ThresholdReportBatchEvent, batch=second) == [("", "PREPARED", officer.pk, "")]
    report.refresh_from_db()
    assert (report.status, report.batch_id, report.fiu_reason) == ("BATCHED", second.pk, "ID missing")


def test_a_refused_move_writes_no_history(rule, customer, staff):
    cash(customer, "25000")
    report = ThresholdReport.objects.get()
    with pytest.raises(InvalidTransition, match="Cannot record the FIU's answer for a report in PENDING"):
        threshold_report_answer(report=report, actor=staff["mlro"], accepted=True)
    batch = threshold_batch_prepare(actor=staff["officer"])
    threshold_batch_submit(batch=batch, actor=staff["mlro"], fiu_reference="FIU-1")
    with pytest.raises(InvalidTransition, match="Cannot move batch from SUBMITTED to SUBMITTED"):
        threshold_batch_submit(batch=batch, actor=staff["mlro2"], fiu_reference="FIU-2")
    assert ThresholdReportEvent.objects.filter(report=report).count() == 3
    assert ThresholdReportBatchEvent.objects.filter(batch=batch).count() == 2


def test_the_admin_pages_show_the_history(client, rule, customer, staff):
    cash(customer, "25000")
    report = ThresholdReport.objects.get()
    batch = threshold_batch_prepare(actor=staff["officer"])
    threshold_batch_submit(batch=batch, actor=staff["mlro"], fiu_reference="FIU-1")
    client.force_login(staff["officer"])
    page = client.get(reverse("admin:compliance_thresholdreport_change", args=[report.pk])).content.decode()
    assert 'id="events-group"' in page  # the history inline
    assert "Submitted to the FIU" in page and "In a prepared batch" in page
    page = client.get(reverse("admin:compliance_thresholdreportbatch_change", args=[batch.pk])).content.decode()
    assert 'id="events-group"' in page and "Prepared" in page


def _statements(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured.captured_queries)


def test_a_batch_moves_its_reports_in_statements_that_do_not_grow_with_their_number(rule, staff):
    """Preparing and submitting write the reports and their history rows in bulk, not a save and an insert each."""

    def prepared_and_submitted(customers: int) -> tuple[int, int]:
        for n in range(customers):
            cash(PlatformUserFactory(), "25000", at=MORNING + dt.timedelta(days=n))
        batch = None

        def prepare():
            nonlocal batch
            batch = threshold_batch_prepare(actor=staff["officer"])

        prepared = _statements(prepare)
        submitted = _statements(lambda: threshold_batch_submit(batch=batch, actor=staff["mlro"], fiu_reference="F"))
        assert set(ThresholdReport.objects.filter(batch=batch).values_list("status", flat=True)) == {"SUBMITTED"}
        assert ThresholdReportEvent.objects.filter(report__batch=batch, to_status="SUBMITTED").count() == customers
        return prepared, submitted

    assert prepared_and_submitted(2) == prepared_and_submitted(7)
