"""Issue 31, outcomes recorded wrongly: an admin credit (channel Wallet) is not cash, so it raises no "Large cash
transaction report due" (AML-RPT-001), which the same amount in cash does. Finance credits in the browser, the
compliance officer reads the alerts."""

from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.browser import new_page, sign_in
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.services.catalogue import rule_catalogue_load
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_large_admin_credit_is_no_cash_report_and_the_same_cash_is(browser, live_server, settings):
    settings.AML_ALERTS_BACKGROUND = False  # the engine runs in the request: its alerts are there when it answers
    rule_catalogue_load()  # the shipped rules, AML-RPT-001 among them (a transactional test starts empty)
    credited = PlatformUserFactory(first_name="Busisiwe", last_name="Motsa")
    paid_in_cash = PlatformUserFactory(first_name="Mandla", last_name="Khoza")
    transaction_record(user=paid_in_cash, type="TOP_UP", amount=Decimal("30000"), channel="CASH")

    finance = sign_in(new_page(browser), live_server, StaffFactory(role=StaffRole.FINANCE).email)
    finance.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[credited.pk]))
    finance.get_by_role("link", name="Credit wallet").click()
    finance.fill("input[name=amount]", "30000")
    finance.fill("input[name=reason]", "Settlement of a merchant dispute")
    finance.check("input[name=confirm]")
    finance.click("#credit-form button[type=submit]")
    finance.wait_for_url(live_server.url + reverse("admin:kyc_platformuser_change", args=[credited.pk]))
    assert "balance now SZL" in finance.content()

    officer = sign_in(new_page(browser), live_server, StaffFactory(role=StaffRole.COMPLIANCE_OFFICER).email)
    officer.goto(live_server.url + reverse("admin:compliance_alert_changelist"))
    rows = officer.locator("#result_list tbody tr").all_inner_texts()
    cash_reports = [row for row in rows if "Large cash transaction report due" in row]
    assert len(cash_reports) == 1 and "Mandla Khoza" in cash_reports[0]
    assert not Alert.objects.filter(user=credited, rule__rule_id="AML-RPT-001").exists()
