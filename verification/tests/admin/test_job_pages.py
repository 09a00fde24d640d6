"""The verification pages of the admin site: the queue, one job, the officer's buttons, who sees what."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.tests.factories import StaffFactory
from kyc.tests.factories import PlatformUserFactory
from verification.services import job_process
from verification.tests.helpers import selfie

pytestmark = pytest.mark.django_db
LIST = "admin:verification_verificationjob_changelist"


def browser(role):
    staff = StaffFactory(role=role)
    client = Client()
    client.force_login(staff)
    return client, staff


def change_url(job, suffix="change"):
    return reverse(f"admin:verification_verificationjob_{suffix}", args=[job.pk])


@pytest.fixture
def waiting(make_job):
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", date_of_birth=dt.date(1985, 6, 1))
    return job_process(job=make_job(user))


def test_the_queue_filters_the_jobs_waiting_for_an_officer(sipho, make_job, waiting):
    pending = make_job(sipho)
    client, _ = browser("compliance_officer")
    page = client.get(reverse(LIST) + "?review=waiting").content.decode()
    assert str(waiting.pk)[:8] in page and "manual_review" in page
    assert str(pending.pk)[:8] not in page
    assert str(pending.pk)[:8] in client.get(reverse(LIST)).content.decode()


def test_the_job_page_shows_the_card_against_the_profile_and_the_buttons(waiting):
    client, _ = browser("compliance_officer")
    page = client.get(change_url(waiting)).content.decode()
    assert "Waiting for a compliance officer" in page
    assert "The card against the profile" in page and "1990-01-01" in page and "1985-06-01" in page
    assert 'value="approved"' in page and 'value="rejected"' in page
    assert "Face similarity" in page


def test_the_images_are_drawn_by_the_server(waiting):
    client, _ = browser("compliance_officer")
    response = client.get(reverse("admin:verification_verificationjob_image", args=[waiting.pk, "selfie"]))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content[:4] == b"\x89PNG"


def test_an_officer_decides_from_the_page(waiting):
    client, officer = browser("mlro")
    response = client.post(change_url(waiting, "decide"), {"decision": "rejected", "note": "Not the same person"})
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert (waiting.status, waiting.decided_by, waiting.rejection_reason) == (
        "REJECTED",
        officer,
        "Not the same person",
    )
    waiting.user.refresh_from_db()
    assert waiting.user.verification_status == "REJECTED"


def test_rejecting_without_a_note_is_a_message_not_an_error_page(waiting):
    client, _ = browser("compliance_officer")
    response = client.post(change_url(waiting, "decide"), {"decision": "rejected"}, follow=True)
    assert response.status_code == 200
    assert "Say why the verification is rejected" in response.content.decode()
    waiting.refresh_from_db()
    assert waiting.awaits_review


def test_a_pending_job_can_be_run_from_the_page(sipho, make_job):
    job = make_job(sipho)
    client, _ = browser("compliance_officer")
    assert "Run the check now" in client.get(change_url(job)).content.decode()
    client.post(change_url(job, "process"))
    job.refresh_from_db()
    assert job.decision == "approved"


@pytest.mark.parametrize("role", ["support", "finance"])
def test_support_and_finance_see_no_verification_pages(waiting, role):
    client, _ = browser(role)
    assert client.get(reverse(LIST)).status_code == 403
    assert client.get(change_url(waiting)).status_code == 403
    assert client.post(change_url(waiting, "decide"), {"decision": "approved"}).status_code == 403
    waiting.refresh_from_db()
    assert waiting.awaits_review


def test_the_customer_view_lists_the_users_jobs(waiting):
    client, _ = browser("compliance_officer")
    page = client.get(reverse("admin:kyc_platformuser_change", args=[waiting.user_id])).content.decode()
    assert "Identity verifications" in page and "Waiting for an officer" in page
    assert change_url(waiting) in page


def test_a_rejected_job_page_says_why(sipho, make_job):
    job = job_process(job=make_job(sipho, self_=selfie("biden")))
    client, _ = browser("compliance_officer")
    page = client.get(change_url(job)).content.decode()
    assert "does not match the photo on the ID document" in page
    assert 'value="approved"' not in page


def test_the_dashboard_counts_the_jobs_waiting_for_an_officer(waiting):
    client, _ = browser("compliance_officer")
    page = client.get(reverse("admin:index")).content.decode()
    assert "Identity checks to review" in page and "?review=waiting" in page
    support, _ = browser("support")
    assert "Identity checks to review" not in support.get(reverse("admin:index")).content.decode()


def test_the_page_highlights_what_the_rule_found_different_not_mere_formatting(make_job):
    user = PlatformUserFactory(
        first_name="Sipho", last_name="Dlamini", id_number="9001 0158 00085", date_of_birth=dt.date(1985, 6, 1)
    )
    job = job_process(job=make_job(user))
    client, _ = browser("compliance_officer")
    page = client.get(change_url(job)).content.decode()
    assert page.count('class="vjob-differs"') == 1, "the date of birth differs; the ID number only in its spaces"


def test_duplicates_are_named_not_shown_as_truncated_ids(waiting):
    import uuid

    from verification.models import VerificationJob

    other = PlatformUserFactory(first_name="Nomsa", last_name="Khumalo", phone_number="+26876111222")
    gone = uuid.uuid4()
    VerificationJob.objects.filter(pk=waiting.pk).update(
        duplicates=[
            {"type": "ID_NUMBER", "user_id": str(other.pk), "score": None, "detail": "same ID number"},
            {"type": "FACE", "user_id": str(gone), "score": 93, "detail": "same face"},
        ]
    )
    client, _ = browser("compliance_officer")
    page = client.get(change_url(waiting)).content.decode()
    listed = page.split('data-testid="duplicates"')[1].split("</ul>")[0]
    assert "Nomsa Khumalo" in listed and "+26876111222" in listed
    assert reverse("admin:kyc_platformuser_change", args=[other.pk]) in listed
    assert "a user no longer on file" in listed
    assert f"user {str(other.pk)[:8]}" not in listed and str(gone)[:8] not in listed.split("href")[0]
