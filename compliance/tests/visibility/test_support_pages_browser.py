"""As support, in chromium: the page of a rejected payment and of its customer (a SAR's subject) say that the
payment was held and rejected and show a risk score, and nothing of why (tipping-off); no serious axe violation.
``VISIBILITY_SCREENSHOTS=dir`` keeps a picture of each page, then of the same pages as an MLRO."""

import datetime as dt
import os
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import StaffFactory
from compliance.sars.services.sar import sar_create
from compliance.tests.visibility.helpers import verified_customer_with_an_alert
from kyc.choices import Decision, TransactionStatus
from kyc.services.ledger import held_transaction_reject
from kyc.tests.factories import TransactionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("VISIBILITY_SCREENSHOTS")
NOTE = "Structured deposits from three agents, rejecting and escalating to the MLRO"


def _shot(page, name: str) -> None:  # noqa: F811  (the fixture's name)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_support_sees_that_a_payment_was_rejected_and_never_why(page, live_server):  # noqa: F811
    customer, rule = verified_customer_with_an_alert("Dlamini")
    held = TransactionFactory(
        user=customer,
        amount=Decimal("75000.00"),
        status=TransactionStatus.HELD,
        decision=Decision.REVIEW,
        hits=[{"rule_id": "AML-THR-001", "rule_version": 1, "severity": "HIGH", "action": "HOLD"}],
    )
    mlro = StaffFactory(role=StaffRole.MLRO, email="mlro-shots@example.com")
    held_transaction_reject(transaction_id=held.pk, actor=mlro, note=NOTE)
    sar_create(
        actor=StaffFactory(role=StaffRole.COMPLIANCE_OFFICER),
        entity_user_id=customer.pk,
        suspicious_activity_type="structuring",
        activity_description="Transfers just below the threshold",
        date_of_suspicious_activity=dt.date.today(),
        amount_involved=Decimal("75000"),
        related_transaction_ids=[held.pk],
    )
    customer.refresh_from_db()
    assert customer.current_risk_score == 42  # the SAR's 30 and the alert's 12
    pages = {
        "transaction": reverse("admin:kyc_transaction_change", args=[held.pk]),
        "customer": reverse("admin:kyc_platformuser_change", args=[customer.pk]),
    }

    support = StaffFactory(role=StaffRole.SUPPORT, email="support-shots@example.com")
    sign_in(page, live_server, support.email)
    problems = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        _shot(page, f"support-{name}")
        text = page.locator("body").inner_text()
        for forbidden in ("AML-THR-001", NOTE, "Rule hits", "Reviewed by", "suspicious activity report", "SAR"):
            assert forbidden not in text, (name, forbidden)
        if found := serious_violations(page):
            problems[name] = found
    assert not problems, problems

    page.goto(live_server.url + pages["transaction"])
    assert page.get_by_text("Rejected after review").first.is_visible()
    assert page.get_by_text("Hold for review").first.is_visible()
    page.goto(live_server.url + pages["customer"])
    # the score without the SAR's points: the alert's 12, LOW
    text = page.locator("body").inner_text()
    assert re.search(r"Risk score\s+12\b", text) and re.search(r"Risk\s+Low\b", text), text[:2000]

    # the same pages as the MLRO: all of it (the pictures side by side show what the policy hides)
    page.context.clear_cookies()
    sign_in(page, live_server, mlro.email)
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        _shot(page, f"mlro-{name}")
        text = page.locator("body").inner_text()
        assert "AML-THR-001" in text and NOTE in text, name
