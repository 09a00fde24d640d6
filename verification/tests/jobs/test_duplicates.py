"""Duplicate identities: the same ID number, face or image on another user; one alert per pair of users."""

import pytest

from backoffice.choices import StaffRole
from kyc.tests.factories import PlatformUserFactory
from verification.services import job_process
from verification.tests.helpers import card, selfie

pytestmark = pytest.mark.django_db
PROCESS = "/api/v1/verification/process/{}"


def duplicate_alerts(staff_client) -> list[dict]:
    """The triage queue's DUPLICATE_IDENTITY alerts, read as an officer reads them (compliance is a sibling app:
    verification's tests see its alerts through the API, never its models)."""
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.get("/api/v1/admin/aml/alerts", {"alertType": "DUPLICATE_IDENTITY", "limit": 100})
    assert response.status_code == 200, response.json()
    return response.json()["data"]


def test_a_second_user_with_the_same_card_is_held_for_review_and_alerted_once(staff_client, sipho, make_job):
    officer, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    first = job_process(job=make_job(sipho))
    assert first.decision == "approved"
    impostor = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    second = make_job(impostor)  # the same card and the same selfie file
    data = officer.post(PROCESS.format(second.pk)).json()["data"]
    assert data["decision"] == "manual_review"
    kinds = {(d["type"], d["userId"]) for d in data["duplicates"]}
    assert {("ID_NUMBER", str(sipho.pk)), ("FACE", str(sipho.pk)), ("IMAGE", str(sipho.pk))} <= kinds
    face = next(d for d in data["duplicates"] if d["type"] == "FACE")
    assert face["score"] >= 85
    alerts = duplicate_alerts(staff_client)
    assert len(alerts) == 1, "three findings about one pair of users are one alert"
    alert = alerts[0]
    assert alert["user"]["id"] == str(impostor.pk) and alert["status"] == "OPEN"
    assert sorted(alert["details"]["userIds"]) == sorted([str(sipho.pk), str(impostor.pk)])
    assert alert["details"]["jobId"] == str(second.pk)


def test_the_same_pair_found_again_raises_no_second_alert(staff_client, sipho, make_job):
    job_process(job=make_job(sipho))
    other = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    job_process(job=make_job(other))
    job_process(job=make_job(other))
    assert len(duplicate_alerts(staff_client)) == 1


def test_a_different_person_with_a_different_card_is_no_duplicate(staff_client, sipho, make_job):
    job_process(job=make_job(sipho))
    someone = PlatformUserFactory(first_name="Themba", last_name="Nkambule")
    job = job_process(
        job=make_job(
            someone,
            front=card("biden", first_name="Themba", last_name="Nkambule", id_number="8502025800089"),
            self_=selfie("biden"),
        )
    )
    assert job.duplicates == []
    assert duplicate_alerts(staff_client) == []


def test_faces_of_users_not_verified_are_not_searched(sipho, make_job):
    rejected = job_process(job=make_job(sipho, self_=selfie("biden")))
    assert rejected.decision == "rejected"
    other = PlatformUserFactory(first_name="Themba", last_name="Nkambule")
    job = job_process(
        job=make_job(
            other,
            front=card("biden", first_name="Themba", last_name="Nkambule", id_number="8502025800089"),
            self_=selfie("biden", brightness=0.9),
        )
    )
    assert "FACE" not in {d["type"] for d in job.duplicates}


def test_a_re_encoded_copy_of_another_users_selfie_is_the_same_image(sipho, make_job):
    import io

    from PIL import Image

    original = selfie("obama2")
    job_process(job=make_job(sipho, self_=original))
    copy = io.BytesIO()
    Image.open(io.BytesIO(original)).convert("RGB").resize((500, 625)).save(copy, "JPEG", quality=60)
    other = PlatformUserFactory(first_name="Themba", last_name="Nkambule")
    job = job_process(
        job=make_job(
            other,
            front=card("biden", first_name="Themba", last_name="Nkambule", id_number="8502025800089"),
            self_=copy.getvalue(),
        )
    )
    images = [d for d in job.duplicates if d["type"] == "IMAGE"]
    assert [d["user_id"] for d in images] == [str(sipho.pk)]
    assert "selfie looks the same" in images[0]["detail"]


def test_one_id_number_on_two_accounts_checked_at_once_is_found_before_any_profile_has_it(staff_client, make_job):
    # the first account's check waits for review (the card's name is not the profile's): its number is on no
    # profile, only on the check; the second account's check must still find it
    first = PlatformUserFactory(first_name="Thabo", last_name="Mamba")
    second = PlatformUserFactory(first_name="Themba", last_name="Nkambule")
    first_job = make_job(first)
    second_job = make_job(
        second,
        front=card("biden", first_name="Themba", last_name="Nkambule", id_number="9001015800085"),
        self_=selfie("biden"),
    )
    first_job = job_process(job=first_job)
    assert first_job.decision == "manual_review" and first_job.duplicates == []
    first.refresh_from_db()
    assert first.id_number == "" and first.verification_status == "PENDING"

    second_job = job_process(job=second_job)
    assert second_job.decision == "manual_review"
    found = [(d["type"], d["user_id"]) for d in second_job.duplicates]
    assert found == [("ID_NUMBER", str(first.pk))]
    assert "read on a verification check" in second_job.duplicates[0]["detail"]
    alerts = duplicate_alerts(staff_client)
    assert len(alerts) == 1 and alerts[0]["user"]["id"] == str(second.pk)


def test_a_rejected_check_of_another_user_still_counts_for_its_id_number(make_job):
    someone = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    rejected = job_process(job=make_job(someone, self_=selfie("biden")))  # not the card's face
    assert rejected.decision == "rejected"
    other = PlatformUserFactory(first_name="Themba", last_name="Nkambule")
    job = job_process(
        job=make_job(
            other,
            front=card("biden", first_name="Themba", last_name="Nkambule", id_number="9001015800085"),
            self_=selfie("biden", brightness=0.9),
        )
    )
    assert ("ID_NUMBER", str(someone.pk)) in {(d["type"], d["user_id"]) for d in job.duplicates}


def test_the_users_own_earlier_check_is_no_duplicate(sipho, make_job):
    first = job_process(job=make_job(sipho, self_=selfie("biden")))
    assert first.decision == "rejected"
    again = job_process(job=make_job(sipho))
    assert again.duplicates == [] and again.decision == "approved"


def test_the_migration_fills_the_numbers_read_by_earlier_checks(sipho, make_job):
    import importlib

    from django.apps import apps

    from verification.models import VerificationJob

    job = job_process(job=make_job(sipho, self_=selfie("biden")))
    VerificationJob.objects.filter(pk=job.pk).update(id_number_key="")  # as the column was added
    importlib.import_module("verification.migrations.0005_job_id_number_key").fill_keys(apps, None)
    job.refresh_from_db()
    assert job.id_number_key == "9001015800085"
