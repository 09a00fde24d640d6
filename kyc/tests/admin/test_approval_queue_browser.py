"""The approval queue in a real browser (issue 29): a finance person splits a credit and the last part waits; the
requester is told a second person must decide; a second finance person finds it under "Waiting for my approval",
reads the change and the wallet's recent credits, and approves it with a reason. axe checks each page; screenshots go
to $VIKELA_SHOTS (the test's temporary folder without it)."""

import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from backoffice.models import ApprovalRequest
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import signed_in_page
from backoffice.tests.factories import StaffFactory
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_a_split_credit_is_approved_from_the_queue(browser, live_server, settings, tmp_path):
    shots = Path(os.environ.get("VIKELA_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("10000")
    platform_user = PlatformUserFactory(first_name="Busisiwe", last_name="Motsa")
    maker = StaffFactory(role="finance", first_name="Zanele", last_name="Simelane")
    checker = StaffFactory(role="finance", first_name="Ada", last_name="Mamba")

    page = signed_in_page(browser, live_server, maker)
    credit_url = live_server.url + reverse("admin:kyc_platformuser_credit_wallet", args=[platform_user.pk])
    for _ in range(3):
        page.goto(credit_url)
        page.fill("input[name=amount]", "5000")
        page.fill("input[name=reason]", "Launch promotion")
        page.check("input[name=confirm]")
        page.click("#credit-form button[type=submit]")
        page.wait_for_load_state()
    assert "waits for a second finance or admin person" in page.content()
    approval = ApprovalRequest.objects.get(kind="kyc.credit")

    # the requester opens the approval: told a second person must decide, no form to press
    page.goto(live_server.url + reverse("admin:backoffice_approvalrequest_approve_one", args=[approval.pk]))
    assert "a second person must decide it" in page.content()
    assert page.locator("button[data-decision=approve]").count() == 0
    page.screenshot(path=str(shots / "approval-own-request.png"), full_page=True)

    second = signed_in_page(browser, live_server, checker)
    assert "Waiting for my approval" in second.inner_text("body")
    second.get_by_role("link", name="Waiting for my approval").first.click()
    second.wait_for_url("**/admin/backoffice/approvalrequest/**")
    assert "Credit SZL 5,000.00 to Busisiwe Motsa" in second.inner_text("#result_list")
    assert serious_violations(second) == []
    second.screenshot(path=str(shots / "approval-queue.png"), full_page=True)

    second.goto(live_server.url + reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]))
    body = second.inner_text("body")
    assert "SZL 15,000.00 to this wallet in 24 hours" in body
    assert body.count("Launch promotion") >= 3  # the wallet's recent credits
    assert serious_violations(second) == []
    second.screenshot(path=str(shots / "approval-request.png"), full_page=True)

    second.get_by_role("link", name="Approve").click()
    second.wait_for_selector("button[data-decision=approve]")
    assert serious_violations(second) == []
    second.screenshot(path=str(shots / "approval-decision.png"), full_page=True)
    second.fill("textarea[name=reason]", "Campaign budget confirmed by marketing")
    second.click("button[data-decision=approve]")
    second.wait_for_url(live_server.url + reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]))
    assert "Approved and applied" in second.content()
    # the decided request shows the balances the credit recorded
    assert "balance SZL 10,000.00 → SZL 15,000.00" in second.inner_text("body")
    second.screenshot(path=str(shots / "approval-applied.png"), full_page=True)

    platform_user.refresh_from_db()
    assert platform_user.balance == Decimal("15000.00")
    approval.refresh_from_db()
    assert approval.status == "APPLIED" and approval.decided_by == checker
