"""The sanctions match queue and the freeze in a real browser (chromium): a compliance officer confirms, support
sees a frozen wallet and nothing of why, an MLRO (a second person) lifts the freeze."""

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.services.screening import screen_user
from compliance.sanctions.tests.screening.helpers import make_entry
from kyc.models import PlatformUser
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_confirm_in_the_queue_freezes_support_sees_only_the_fact_an_mlro_lifts_it(page, live_server, tmp_path):  # noqa: F811
    officer = StaffFactory(email="nomsa@example.com", role=StaffRole.COMPLIANCE_OFFICER)
    support = StaffFactory(email="sipho@example.com", role=StaffRole.SUPPORT)
    mlro = StaffFactory(email="lindiwe@example.com", role=StaffRole.MLRO)
    make_entry("Amina Dlamini Yusuf", aliases=["Umm Yusuf"], dates_of_birth=["1980"], nationalities=["SO"])
    customer = PlatformUserFactory(first_name="Amina", last_name="Dlamini")
    screen_user(user_id=customer.pk)

    sign_in(page, live_server, officer.email, PASSWORD)
    page.click("text=Sanctions matches")
    page.wait_for_url("**/admin/compliance/sanctionsmatch/")
    page.click("#result_list tbody a >> nth=0")
    page.wait_for_url("**/change/")
    body = page.inner_text("body")
    assert "Umm Yusuf" in body and "Listed entry" in body and "Why they matched" in body
    page.click("text=Confirm: the listed party")
    page.click("#review-form button[type=submit]")  # no note: the browser refuses to send the form
    assert page.locator("textarea[name=note]:invalid").count() == 1
    page.fill("textarea[name=note]", "Same year of birth; the alias is hers")
    page.click("#review-form button[type=submit]")
    page.wait_for_selector("text=Match confirmed.")
    page.screenshot(path=str(tmp_path / "confirmed.png"), full_page=True)
    assert SanctionsMatch.objects.get().status == "CONFIRMED"
    assert PlatformUser.objects.get(pk=customer.pk).is_frozen

    page.context.clear_cookies()
    sign_in(page, live_server, support.email, PASSWORD)
    page.goto(f"{live_server.url}/admin/kyc/platformuser/{customer.pk}/change/")
    text = page.inner_text("body")
    assert "Frozen" in text and "Yusuf" not in text and "anction" not in text
    assert "Sanctions matches" not in page.inner_text("body")

    page.context.clear_cookies()
    sign_in(page, live_server, mlro.email, PASSWORD)
    page.goto(f"{live_server.url}/admin/kyc/platformuser/{customer.pk}/change/")
    page.click("text=Lift the freeze")
    page.fill("textarea[name=reason]", "Listing revoked by the committee")
    page.click("#unfreeze-form button[type=submit]")
    page.wait_for_selector("text=is no longer frozen")
    assert not PlatformUser.objects.get(pk=customer.pk).is_frozen
