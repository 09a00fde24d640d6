"""Issue 31, the smaller points, walked in a real browser as the roles concerned: the alert page's "Draft a SAR"
is a real button and its deadline badge reads as a deadline (none once closed); closing a SAR asks first."""

import pytest
from django.urls import reverse

from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import shoot, signed_in_page
from compliance.aml.choices import AlertStatus, CloseReason
from compliance.aml.services.alerts import alert_transition
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.tests.sar.helpers import sar_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_alert_page_as_an_officer(browser, live_server, crew, subject_alert):
    page = signed_in_page(browser, live_server, crew["filer"])
    page.goto(live_server.url + reverse("admin:compliance_alert_change", args=[subject_alert.pk]))
    draft = page.get_by_role("button", name="Draft a SAR from this alert")
    assert draft.count() == 1
    # styled as the site's buttons (it was Unfold-unstyled grey text): a filled background and white text
    looks = draft.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]")
    assert looks[0] not in ("rgba(0, 0, 0, 0)", "transparent") and looks[1] == "rgb(255, 255, 255)"
    badge = page.get_by_test_id("alert-priority")
    assert badge.inner_text().lower() == "deadline: on track"  # never a bare "New" beside the status "Open"
    assert serious_violations(page) == []
    shoot(page, "alert-page-officer")

    alert_transition(
        alert=subject_alert,
        actor=crew["filer"],
        to_status=AlertStatus.CLOSED_FALSE_POSITIVE,
        note="Explained by the customer",
        reason_code=CloseReason.EXPLAINED_ACTIVITY,
    )
    page.reload()
    assert page.get_by_test_id("alert-priority").count() == 0
    page.goto(live_server.url + reverse("admin:compliance_alert_changelist") + "?queue=closed")
    row = page.locator("#result_list tbody tr").first.inner_text().lower()
    assert "on track" not in row and "new" not in row.split()


def test_closing_a_sar_asks_first(browser, live_server, crew, subject):
    sar = sar_in(SARStatus.UNDER_INVESTIGATION, subject, crew)
    page = signed_in_page(browser, live_server, crew["approver"])
    page.goto(live_server.url + reverse("admin:compliance_sar_change", args=[sar.pk]))
    close = page.locator("[data-move=CLOSED]")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    close.click()
    assert asked and sar.sar_id in asked[0]
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.UNDER_INVESTIGATION
    page.once("dialog", lambda dialog: dialog.accept())
    close.click()
    page.wait_for_selector("[data-testid=sar-no-moves]")
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.CLOSED

    # the FIU's acknowledgement of a submitted report asks too
    submitted = sar_in(SARStatus.SUBMITTED, subject, crew)
    page.goto(live_server.url + reverse("admin:compliance_sar_change", args=[submitted.pk]))
    question = page.locator("#sar-workflow button[data-move=ACKNOWLEDGED]").get_attribute("data-confirm")
    assert question and submitted.sar_id in question
