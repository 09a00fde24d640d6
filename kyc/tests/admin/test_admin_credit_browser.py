"""The admin credit form in a real browser: sign in, open a user, credit, see the new balance."""

from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.tests.browser import sign_in
from backoffice.tests.factories import StaffFactory
from kyc.models import Transaction
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_finance_credits_a_wallet_from_the_user_page(page, live_server):
    staff = StaffFactory(role="finance")
    user = PlatformUserFactory(first_name="Busisiwe", last_name="Motsa")
    sign_in(page, live_server, staff.email)

    page.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[user.pk]))
    page.get_by_role("link", name="Credit wallet").click()
    page.wait_for_selector("#credit-form")
    page.fill("input[name=amount]", "250.75")
    page.fill("input[name=reason]", "Launch promotion")

    # without the confirmation the form comes back and nothing is credited
    page.click("#credit-form button[type=submit]")
    page.wait_for_selector("#credit-form .vk-error")
    assert not Transaction.objects.filter(user=user).exists()

    page.check("input[name=confirm]")
    page.click("#credit-form button[type=submit]")
    page.wait_for_url(live_server.url + reverse("admin:kyc_platformuser_change", args=[user.pk]))
    assert "balance now SZL 250.75" in page.content()

    user.refresh_from_db()
    assert user.balance == Decimal("250.75")
    row = Transaction.objects.get(user=user)
    assert (row.type, row.reason, row.actor_id) == ("ADMIN_CREDIT", "Launch promotion", staff.pk)


@pytest.mark.django_db(transaction=True)
def test_back_and_resubmit_credits_once(page, live_server):
    staff = StaffFactory(role="finance")
    user = PlatformUserFactory(first_name="Sifiso", last_name="Dube")
    sign_in(page, live_server, staff.email)
    change_page = live_server.url + reverse("admin:kyc_platformuser_change", args=[user.pk])

    page.goto(change_page)
    page.get_by_role("link", name="Credit wallet").click()
    page.wait_for_selector("#credit-form")
    form_url = page.url
    assert "?key=" in form_url

    def submit():
        page.fill("input[name=amount]", "80.00")
        page.fill("input[name=reason]", "Refund of a failed top-up")
        page.check("input[name=confirm]")
        page.click("#credit-form button[type=submit]")
        page.wait_for_url(change_page)

    submit()
    assert "balance now SZL 80.00" in page.content()

    page.go_back()  # the browser returns to the form (from its cache or by fetching it again)
    page.wait_for_selector("#credit-form")
    assert page.url == form_url
    submit()
    assert "already applied" in page.content()

    user.refresh_from_db()
    assert user.balance == Decimal("80.00")


@pytest.mark.django_db(transaction=True)
def test_a_credit_above_the_threshold_is_approved_by_a_second_person(browser, live_server, settings):
    from backoffice.tests.browser import signed_in_page
    from kyc.models import CreditRequest

    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("5000")
    maker = StaffFactory(role="finance", first_name="Zanele", last_name="Simelane")
    checker = StaffFactory(role="admin", first_name="Ada", last_name="Mamba")
    user = PlatformUserFactory(first_name="Busisiwe", last_name="Motsa")

    page = signed_in_page(browser, live_server, maker)
    page.goto(live_server.url + reverse("admin:kyc_platformuser_credit_wallet", args=[user.pk]))
    page.fill("input[name=amount]", "12000")
    page.fill("input[name=reason]", "Refund of a double card charge")
    page.check("input[name=confirm]")
    page.click("#credit-form button[type=submit]")
    page.wait_for_url(live_server.url + reverse("admin:kyc_platformuser_change", args=[user.pk]))
    assert "waits for a second finance or admin person" in page.content()
    user.refresh_from_db()
    assert user.balance == 0
    credit = CreditRequest.objects.get(user=user)
    assert credit.status == "PENDING"

    # the maker cannot approve their own request
    page.goto(live_server.url + reverse("admin:kyc_creditrequest_approve_one", args=[credit.pk]))
    page.click("button[data-decision=approve]")
    page.wait_for_load_state()
    assert "Four-eyes principle" in page.content()
    user.refresh_from_db()
    assert user.balance == 0

    second = signed_in_page(browser, live_server, checker)
    assert "Credits awaiting my approval" in second.inner_text("body")
    second.get_by_role("link", name="Credit requests").first.click()
    second.wait_for_url("**/admin/kyc/creditrequest/")
    assert "Busisiwe Motsa" in second.inner_text("#result_list")
    second.goto(live_server.url + reverse("admin:kyc_creditrequest_change", args=[credit.pk]))
    second.get_by_role("link", name="Approve and credit").click()
    second.fill("input[name=reason]", "Ticket 4411 checked")
    second.click("button[data-decision=approve]")
    second.wait_for_url(live_server.url + reverse("admin:kyc_creditrequest_change", args=[credit.pk]))
    assert "the wallet is credited" in second.content()
    user.refresh_from_db()
    credit.refresh_from_db()
    assert user.balance == Decimal("12000.00")
    assert (credit.status, credit.decided_by, credit.decision_reason) == ("APPROVED", checker, "Ticket 4411 checked")
    assert Transaction.objects.filter(user=user).count() == 1
