"""The manual-review page in a real browser: an officer sees both faces with their boxes, the card against the
profile, and rejects with a note; the user is REJECTED."""

import datetime as dt

import pytest
from django.urls import reverse

from backoffice.tests.browser import sign_in
from backoffice.tests.factories import StaffFactory
from kyc.tests.factories import PlatformUserFactory
from verification.services import job_process

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_an_officer_reviews_and_rejects_in_the_browser(page, live_server, make_job):
    officer = StaffFactory(role="compliance_officer")
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", date_of_birth=dt.date(1985, 6, 1))
    job = job_process(job=make_job(user))
    assert job.awaits_review
    sign_in(page, live_server, officer.email)

    page.goto(live_server.url + reverse("admin:verification_verificationjob_change", args=[job.pk]))
    page.wait_for_selector("#job-decision")
    # both images arrive, drawn by the server (with the face boxes)
    page.wait_for_function(
        "Array.from(document.querySelectorAll('.vjob-images img')).every(i => i.complete && i.naturalWidth > 0)"
    )
    assert page.locator(".vjob-images img").count() == 2
    assert page.locator("tr.vjob-differs").count() == 1, "the date of birth differs and is highlighted"
    assert "passed" in page.locator("[data-testid=quality]").inner_text()

    page.fill("#vjob-note", "The photo on the card is not the person in the selfie")
    page.get_by_role("button", name="Reject").click()
    page.wait_for_selector("text=Decision recorded")
    job.refresh_from_db()
    user.refresh_from_db()
    assert (job.status, job.decided_by_id, user.verification_status) == ("REJECTED", officer.pk, "REJECTED")
    assert job.rejection_reason == "The photo on the card is not the person in the selfie"
