"""The demo's verification jobs: every outcome the product shows, through the real engine, idempotent."""

import io

import pytest

from kyc.demo import seed_identity_candidates
from verification import demo
from verification.models import VerificationJob

pytestmark = pytest.mark.django_db


def test_the_demo_has_every_outcome_and_running_it_twice_changes_nothing(media, admin_client_api):
    seed_identity_candidates()  # kyc's seeder makes these users before verification's runs
    demo.seed(io.StringIO())
    jobs = VerificationJob.objects.all()
    outcomes = sorted((job.status, job.decision, job.rejection_code) for job in jobs)
    assert outcomes == sorted(
        [
            ("COMPLETED", "approved", ""),
            ("REJECTED", "rejected", "FACE_MISMATCH"),
            ("REJECTED", "rejected", "IMAGE_QUALITY"),
            ("COMPLETED", "manual_review", ""),
            ("PENDING", "", ""),
        ]
    )
    alerts = admin_client_api.get("/api/v1/admin/aml/alerts", {"alertType": "DUPLICATE_IDENTITY"}).json()["data"]
    assert len(alerts) == 1, "the two Mandla Hlatshwayo accounts share a card"
    before = sorted(jobs.values_list("id", "status", "updated_at"))
    demo.seed(io.StringIO())
    assert sorted(VerificationJob.objects.values_list("id", "status", "updated_at")) == before
