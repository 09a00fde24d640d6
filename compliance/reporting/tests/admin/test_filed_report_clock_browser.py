"""A report the FIU accepted is done: no "overdue", no red BREACHED clock, on the queue, its page, the customer page
and in the API; a late filing reads "Filed late" as a fact, in amber."""

import pytest
from django.urls import reverse

from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import shoot, signed_in_page
from compliance.reporting.models import ThresholdReport
from compliance.reporting.services.threshold import (
    threshold_batch_prepare,
    threshold_batch_submit,
    threshold_report_answer,
)
from compliance.reporting.tests.threshold.helpers import cash

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_an_accepted_late_report_shows_filed_late_not_breached(browser, live_server, staff, rule, customer, api):
    cash(customer, "25000")  # June 2026: long past CTR_FILING_DAYS, so the filing below is late
    batch = threshold_batch_prepare(actor=staff["officer"])
    threshold_batch_submit(batch=batch, actor=staff["mlro"], fiu_reference="EFIU-CTR-9")
    report = ThresholdReport.objects.get()
    threshold_report_answer(report=report, actor=staff["mlro2"], accepted=True)
    report.refresh_from_db()
    assert report.status == "ACCEPTED"

    answer = api["mlro"].get(f"/api/v1/admin/aml/threshold-reports/{report.pk}").json()["data"]
    assert answer["overdue"] is False

    page = signed_in_page(browser, live_server, staff["mlro"])
    page.goto(live_server.url + reverse("admin:compliance_thresholdreport_changelist"))
    row = page.locator("#result_list tbody tr").first.inner_text().lower()  # the badges are upper-cased by CSS
    assert "filed late" in row and "breached" not in row and "overdue" not in row
    shoot(page, "threshold-queue-accepted-report")

    page.goto(live_server.url + reverse("admin:compliance_thresholdreport_change", args=[report.pk]))
    body = page.inner_text("#content").lower()
    assert "filed late" in body and "breached" not in body and "overdue" not in body
    assert page.locator(".vk-prio-BREACHED").count() == 0
    shoot(page, "threshold-report-accepted")

    page.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[customer.pk]))
    panel = page.locator(".vk-prio-FILED_LATE")
    assert panel.count() == 1 and panel.inner_text().lower() == "filed late"
    assert page.locator(".vk-prio-BREACHED").count() == 0
    assert serious_violations(page) == []
