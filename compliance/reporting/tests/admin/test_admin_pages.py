"""The admin pages of threshold reports: who sees them, and every form and button doing what the API does."""

import datetime as dt
import io
import zipfile

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat
from compliance.reporting.models import ThresholdReport, ThresholdReportBatch
from compliance.reporting.services.threshold import threshold_batch_prepare, threshold_batch_submit
from compliance.reporting.tests.threshold.helpers import MORNING, cash
from compliance.sars.tests.goaml.helpers import SUBSET_XSD
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db
QUEUE = "admin:compliance_thresholdreport_changelist"
BATCHES = "admin:compliance_thresholdreportbatch_changelist"


def signed_in(client, staff):
    client.force_login(staff)
    return client


def batch_page(batch):
    return reverse("admin:compliance_thresholdreportbatch_change", args=[batch.pk])


@pytest.fixture
def two_days(rule, customer):
    cash(customer, "25000")
    cash(customer, "30000", at=MORNING + dt.timedelta(days=1))
    return list(ThresholdReport.objects.order_by("day"))


@pytest.mark.parametrize("role", ["support", "finance"])
def test_support_and_finance_never_see_the_pages(client, staff, two_days, role):
    signed_in(client, staff[role])
    assert client.get(reverse(QUEUE)).status_code == 403
    assert client.get(reverse(BATCHES)).status_code == 403
    assert client.get(reverse("admin:compliance_thresholdreport_change", args=[two_days[0].pk])).status_code == 403
    assert client.get(reverse("admin:compliance_regulator_statistics")).status_code == 403
    user_page = client.get(reverse("admin:kyc_platformuser_change", args=[two_days[0].user_id]))
    assert "Cash threshold reports" not in user_page.content.decode()


def test_the_queue_shows_the_reports_with_their_clock_and_the_overdue_filter(client, staff, two_days, settings):
    signed_in(client, staff["officer"])
    page = client.get(reverse(QUEUE)).content.decode()
    assert "Sipho Dlamini" in page and "2026-06-10" in page and "2026-06-11" in page
    assert "Overdue" in page  # June is long past CTR_FILING_DAYS: both are overdue
    overdue = client.get(reverse(QUEUE), {"deadline": "overdue"}).content.decode()
    assert "2026-06-10" in overdue
    late = client.get(reverse(QUEUE), {"deadline": "late"}).content.decode()
    assert "2026-06-10" not in late
    detail = client.get(reverse("admin:compliance_thresholdreport_change", args=[two_days[0].pk])).content.decode()
    assert "overdue" in detail and "25,000.00" in detail and "Not filed yet" in detail


def test_the_customer_page_panel_lists_the_reports(client, staff, two_days):
    signed_in(client, staff["officer"])
    page = client.get(reverse("admin:kyc_platformuser_change", args=[two_days[0].user_id])).content.decode()
    assert "Cash threshold reports" in page
    assert reverse("admin:compliance_thresholdreport_change", args=[two_days[0].pk]) in page


def test_the_dashboard_counts_reports_to_batch_and_overdue(client, staff, two_days):
    signed_in(client, staff["officer"])
    page = client.get(reverse("admin:index")).content.decode()
    assert "Threshold reports to batch" in page and "Threshold reports overdue for filing" in page


def test_prepare_submit_answer_and_export_through_the_forms(client, staff, two_days):
    officer = signed_in(client, staff["officer"])
    prepare_url = reverse("admin:compliance_thresholdreportbatch_prepare_batch")
    assert "2 pending reports" in officer.get(prepare_url).content.decode()
    response = officer.post(prepare_url)
    batch = ThresholdReportBatch.objects.get()
    assert response.status_code == 302 and response["Location"] == batch_page(batch)
    page = officer.get(batch_page(batch)).content.decode()
    assert "not validated" in page and "batch-submit-form" not in page  # no schema; officers do not submit
    archive = zipfile.ZipFile(
        io.BytesIO(officer.get(reverse("admin:compliance_thresholdreportbatch_export", args=[batch.pk])).content)
    )
    assert len(archive.namelist()) == 2

    mlro = signed_in(client, staff["mlro"])
    assert "batch-submit-form" in mlro.get(batch_page(batch)).content.decode()
    submit_url = reverse("admin:compliance_thresholdreportbatch_submit", args=[batch.pk])
    mlro.post(submit_url, {"fiu_reference": "EFIU-88"})
    batch.refresh_from_db()
    assert batch.status == "SUBMITTED" and batch.fiu_reference == "EFIU-88" and batch.submitted_by == staff["mlro"]

    first, second = two_days
    answer = reverse("admin:compliance_thresholdreportbatch_answer", args=[batch.pk, first.pk])
    mlro.post(answer, {"answer": "rejected", "reason": ""})  # refused: a rejection needs its reason
    first.refresh_from_db()
    assert first.status == "SUBMITTED"
    mlro.post(answer, {"answer": "rejected", "reason": "Wrong ID type"})
    mlro.post(
        reverse("admin:compliance_thresholdreportbatch_answer", args=[batch.pk, second.pk]), {"answer": "accepted"}
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.fiu_reason, second.status) == ("REJECTED", "Wrong ID type", "ACCEPTED")
    page = mlro.get(batch_page(batch)).content.decode()
    assert "Wrong ID type" in page and 'data-testid="report-outcome"' in page

    signed_in(client, staff["officer"]).post(prepare_url)
    again = ThresholdReportBatch.objects.exclude(pk=batch.pk).get()
    assert "replaces the submission EFIU-88" in signed_in(client, staff["mlro"]).get(batch_page(again)).content.decode()


def test_the_preparer_is_told_four_eyes_and_cannot_submit(client, staff, two_days):
    mlro = signed_in(client, staff["mlro"])
    mlro.post(reverse("admin:compliance_thresholdreportbatch_prepare_batch"))
    batch = ThresholdReportBatch.objects.get()
    page = mlro.get(batch_page(batch)).content.decode()
    assert "You prepared this batch" in page and "batch-submit-form" not in page
    response = mlro.post(
        reverse("admin:compliance_thresholdreportbatch_submit", args=[batch.pk]), {"fiu_reference": "X"}, follow=True
    )
    assert "The person who prepared the batch cannot submit it" in response.content.decode()
    batch.refresh_from_db()
    assert batch.status == "PREPARED"


def test_the_batch_screen_shows_which_report_fails_the_schema_and_why(client, staff, two_days, settings):
    threshold_batch_prepare(actor=staff["officer"])
    batch = ThresholdReportBatch.objects.get()
    settings.GOAML_SCHEMA_PATH = SUBSET_XSD
    settings.GOAML_CTR_INDICATOR = "BOGUS"
    page = signed_in(client, staff["mlro"]).get(batch_page(batch)).content.decode()
    assert "2 reports of this batch do not validate" in page
    assert page.count("BOGUS") >= 2 and "disabled" in page
    response = client.post(
        reverse("admin:compliance_thresholdreportbatch_submit", args=[batch.pk]), {"fiu_reference": "X"}, follow=True
    )
    assert "do not validate" in response.content.decode()
    settings.GOAML_CTR_INDICATOR = "CTR"
    assert "every report validates" in client.get(batch_page(batch)).content.decode()


def test_nothing_to_prepare_says_so(client, staff, rule):
    response = signed_in(client, staff["officer"]).post(
        reverse("admin:compliance_thresholdreportbatch_prepare_batch"), follow=True
    )
    assert "No threshold report is waiting to be filed" in response.content.decode()


def test_queue_report_and_batch_pages_cost_the_same_however_many_rows(rule, customer, staff):
    client = admin_browser()
    cash(customer, "25000")
    report = ThresholdReport.objects.get()
    days = iter(range(1, 100))

    def more_reports(n):
        for _ in range(n):
            person = PlatformUserFactory()
            cash(person, "26000", at=MORNING + dt.timedelta(days=next(days)))

    assert_flat(client, reverse(QUEUE), more_reports)
    assert_flat(
        client,
        reverse("admin:compliance_thresholdreport_change", args=[report.pk]),
        lambda n: [cash(customer, "10", at=MORNING + dt.timedelta(minutes=i + 1)) for i in range(n)],
    )
    batch = threshold_batch_prepare(actor=staff["officer"])
    threshold_batch_submit(batch=batch, actor=staff["mlro"], fiu_reference="R1")

    def more_in_batch(n):
        # a batch's size is fixed once prepared; grow the transactions its reports carry instead
        for r in ThresholdReport.objects.all():
            for i in range(n):
                ThresholdReport.transactions.through.objects.create(
                    thresholdreport=r, transaction=cash(r.user, "5", at=MORNING - dt.timedelta(days=30, minutes=i))
                )

    assert_flat(client, batch_page(batch), more_in_batch, by=2)
    assert_flat(client, reverse(BATCHES), lambda n: None)
