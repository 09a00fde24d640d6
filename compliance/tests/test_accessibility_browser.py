"""axe-core finds no serious or critical WCAG 2.1 AA violation on the pages staff live in."""

import hashlib
from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.sars.services.sar import sar_create
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_dashboard_alert_sar_and_user_pages_have_no_serious_violation(page, live_server):  # noqa: F811
    officer = StaffFactory(email="a11y@example.com", role=StaffRole.COMPLIANCE_OFFICER, first_name="Ayanda")
    subject = PlatformUserFactory(first_name="Thabo", last_name="Dlamini")
    peer = PlatformUserFactory(first_name="Sipho", last_name="Zwane")
    txs = [TransactionFactory(user=subject, type="TRANSFER_IN", amount=Decimal("6500"), counterparty_user=peer)]
    TransactionFactory(user=peer, type="TRANSFER_OUT", amount=Decimal("300"), counterparty_user=PlatformUserFactory())
    rule = AMLRule.objects.create(
        rule_id="AML-THR-001",
        name="Large single transaction",
        rule_type="threshold",
        conditions={"ruleType": "threshold", "thresholdAmount": 5000},
        is_active=True,
    )
    alert = Alert.objects.create(
        rule=rule,
        rule_version=1,
        user=subject,
        severity="HIGH",
        dedup_key=hashlib.sha256(b"a11y").hexdigest(),
        details={"ruleType": "threshold", "amount": 6500.0, "transactionType": "TRANSFER_IN"},
        assigned_to=StaffFactory(role=StaffRole.MLRO),
    )
    alert.related_transactions.set(txs)
    sar = sar_create(
        actor=officer,
        entity_user_id=subject.pk,
        suspicious_activity_type="structuring",
        activity_description="Transfers just below the threshold",
        date_of_suspicious_activity=txs[0].created_at.date(),
        amount_involved=Decimal("6500"),
        related_transaction_ids=[t.pk for t in txs],
    )
    sign_in(page, live_server, officer.email, PASSWORD)
    pages = {
        "dashboard": reverse("admin:index"),
        "alert queue": reverse("admin:compliance_alert_changelist"),
        "alert": reverse("admin:compliance_alert_change", args=[alert.pk]),
        "SAR list": reverse("admin:compliance_sar_changelist"),
        "SAR": reverse("admin:compliance_sar_change", args=[sar.pk]),
        "user list": reverse("admin:kyc_platformuser_changelist"),
        "user": reverse("admin:kyc_platformuser_change", args=[subject.pk]),
    }
    problems = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        if found := serious_violations(page):
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {line}" for name, lines in problems.items() for line in lines)

    # the skip link is the first thing the keyboard reaches, and it leads to the content
    page.goto(live_server.url + pages["alert"])
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Skip to main content"
    # icons are decoration: a link's accessible name is its words only
    name = page.get_by_role("link", name="Alerts", exact=True).first.inner_text()
    assert (
        name.strip() in ("Alerts", "notification_important\nAlerts")
        and page.locator("nav [aria-hidden=true].material-symbols-outlined").count() > 0
    )
