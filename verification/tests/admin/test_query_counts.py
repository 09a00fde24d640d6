"""The verification pages cost the same number of queries whatever the number of jobs."""

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from kyc.tests.factories import PlatformUserFactory
from verification.models import VerificationJob

pytestmark = pytest.mark.django_db


def test_every_registered_model_is_covered():
    assert registered_models("verification") == {"verificationjob"}


def test_the_job_list_is_flat(make_job):
    def grow(count):
        for _ in range(count):
            job = make_job(PlatformUserFactory())
            VerificationJob.objects.filter(pk=job.pk).update(
                face_result={"similarity": 91.0},
                duplicates=[{"type": "FACE", "user_id": "x", "score": 90, "detail": ""}],
            )

    grow(1)
    assert_flat(admin_browser("compliance_officer"), reverse("admin:verification_verificationjob_changelist"), grow)


def test_the_customer_view_panel_is_flat(make_job):
    user = PlatformUserFactory()
    make_job(user)
    url = reverse("admin:kyc_platformuser_change", args=[user.pk])
    assert_flat(admin_browser("compliance_officer"), url, lambda n: [make_job(user) for _ in range(n)])
