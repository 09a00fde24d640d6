"""axe-core finds no serious or critical WCAG 2.1 AA violation on the threshold-report pages and the statistics."""

import datetime as dt

import pytest
from django.urls import reverse

from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import sign_in, signed_in_page
from compliance.reporting.models import ThresholdReport
from compliance.reporting.services.threshold import threshold_batch_prepare, threshold_batch_submit
from compliance.reporting.tests.threshold.helpers import MORNING, cash

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_queue_report_batch_and_statistics_pages(browser, live_server, staff, rule, customer):
    cash(customer, "25000")
    cash(customer, "26000", at=MORNING + dt.timedelta(days=1))
    batch = threshold_batch_prepare(actor=staff["officer"])
    threshold_batch_submit(batch=batch, actor=staff["mlro"], fiu_reference="EFIU-1")
    report = ThresholdReport.objects.order_by("day").first()
    page = signed_in_page(browser, live_server, staff["mlro2"])
    pages = {
        "queue": reverse("admin:compliance_thresholdreport_changelist"),
        "report": reverse("admin:compliance_thresholdreport_change", args=[report.pk]),
        "batches": reverse("admin:compliance_thresholdreportbatch_changelist"),
        "batch": reverse("admin:compliance_thresholdreportbatch_change", args=[batch.pk]),
        "prepare": reverse("admin:compliance_thresholdreportbatch_prepare_batch"),
        "statistics": reverse("admin:compliance_regulator_statistics"),
        "customer": reverse("admin:kyc_platformuser_change", args=[customer.pk]),
    }
    problems = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        if found := serious_violations(page):
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {line}" for name, lines in problems.items() for line in lines)


def test_the_statistics_table_scrolls_by_keyboard_on_a_narrow_screen(browser, live_server, staff, rule, customer):
    """Issue 31: the table's scrolling region was not focusable (axe serious: scrollable-region-focusable)."""
    page = browser.new_context(viewport={"width": 480, "height": 900}).new_page()
    sign_in(page, live_server, staff["mlro"].email)
    page.goto(live_server.url + reverse("admin:compliance_regulator_statistics"))
    page.wait_for_load_state("networkidle")
    region = page.get_by_test_id("statistics-region")
    assert region.evaluate("el => el.scrollWidth > el.clientWidth")  # it does scroll at this width
    region.focus()
    assert page.evaluate("document.activeElement.dataset.testid") == "statistics-region"
    assert serious_violations(page) == []
