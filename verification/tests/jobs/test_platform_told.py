"""A verification that finishes tells the payment platform (user.verification_completed), with the decision."""

import datetime as dt

import pytest

from backoffice.choices import StaffRole
from backoffice.models import WebhookEvent
from backoffice.services.webhooks import webhook_endpoint_create
from backoffice.tests.factories import StaffFactory
from kyc.tests.factories import PlatformUserFactory
from verification.services import job_process

pytestmark = pytest.mark.django_db


def test_an_officers_decision_is_an_event_and_waiting_is_not(staff_client, make_job, settings):
    webhook_endpoint_create(
        actor=StaffFactory(role=StaffRole.ADMIN),
        url="https://platform.example/hooks",
        event_types=["user.verification_completed"],
    )
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", date_of_birth=dt.date(1985, 6, 1))
    job = job_process(job=make_job(user))
    assert job.decision == "manual_review" and not WebhookEvent.objects.exists()
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(f"/api/v1/verification/jobs/{job.pk}/decision", {"decision": "approved", "note": "ok"})
    assert response.status_code == 200
    event = WebhookEvent.objects.get()
    assert event.type == "user.verification_completed"
    assert event.data == {
        "user_id": str(user.pk),
        "job_id": str(job.pk),
        "verification_status": "VERIFIED",
        "decision": "approved",
    }
