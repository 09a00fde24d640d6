"""Issue 31: support can answer "why is my verification stuck?" without opening verification pages (403 for
support by design): the customer page shows where the check stands and what is missing, and no compliance data;
and the customer search finds a customer through two typos."""

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import page, shoot, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from kyc.services.names import user_name_index
from kyc.tests.factories import PlatformUserFactory
from verification.tests.helpers import make_job  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_support_sees_the_stage_and_what_is_missing(page, live_server, make_job):  # noqa: F811
    waiting = PlatformUserFactory(first_name="Nomvula", last_name="Simelane")
    make_job(waiting)  # submitted, not yet run: PENDING at its first stage
    nothing = PlatformUserFactory(first_name="Bongani", last_name="Mamba")
    support = StaffFactory(email="support@example.com", role=StaffRole.SUPPORT)
    sign_in(page, live_server, support.email, PASSWORD)

    page.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[waiting.pk]))
    status = page.get_by_test_id("verification-support-status")
    assert page.get_by_test_id("verification-stage").inner_text().startswith("Documents uploaded")
    assert page.get_by_test_id("verification-missing").inner_text() == "Nothing"
    assert "nothing is needed from the customer" in page.get_by_test_id("verification-next").inner_text()
    text = status.inner_text().lower()
    assert "similarity" not in text and "duplicate" not in text and "risk" not in text
    # the status links nowhere support is refused: no link to the job's page
    assert status.locator("a").count() == 0
    assert serious_violations(page) == []
    shoot(page, "support-verification-status")

    page.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[nothing.pk]))
    assert page.get_by_test_id("verification-stage").inner_text() == "Not submitted yet"
    assert page.get_by_test_id("verification-missing").inner_text() == "ID front, Selfie"


def test_officers_see_the_jobs_section_not_the_support_status(page, live_server, make_job):  # noqa: F811
    user = PlatformUserFactory(first_name="Nomvula", last_name="Simelane")
    make_job(user)
    officer = StaffFactory(email="officer@example.com", role=StaffRole.COMPLIANCE_OFFICER)
    sign_in(page, live_server, officer.email, PASSWORD)
    page.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[user.pk]))
    assert page.get_by_test_id("verification-support-status").count() == 0
    assert "Identity verifications" in page.inner_text("body")


def test_support_finds_a_customer_through_two_typos(page, live_server):  # noqa: F811
    thabo = PlatformUserFactory(first_name="Thabo", last_name="Dlamini")
    user_name_index(user=thabo)
    for first, last in (("Sipho", "Nkosi"), ("Lindiwe", "Zwane")):
        user_name_index(user=PlatformUserFactory(first_name=first, last_name=last))
    support = StaffFactory(email="support@example.com", role=StaffRole.SUPPORT)
    sign_in(page, live_server, support.email, PASSWORD)
    page.goto(live_server.url + reverse("admin:kyc_platformuser_changelist") + "?q=Thaba+Dlamimi")
    rows = page.locator("#result_list tbody tr")
    assert rows.count() == 1 and "Thabo Dlamini" in rows.first.inner_text()
    shoot(page, "support-search-two-typos")
    page.goto(live_server.url + reverse("admin:kyc_platformuser_changelist") + "?q=Zzyzx+Qwerty")
    assert page.locator("#result_list tbody tr").count() == 0
    assert "Nothing matches this search" in page.get_by_test_id("empty-results").inner_text()
