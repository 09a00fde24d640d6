"""Verification's section of the KYC user page (kyc.panels): the user's jobs with their decision and findings.

Replaces kyc's own list of verification records under the same key, so the page has one section about
identity checks, with links to each job's page.
"""

from django.template.loader import render_to_string

from kyc import panels
from verification.models import VerificationJob

SHOWN = 10


def render_jobs(request, user) -> str:
    jobs = list(VerificationJob.objects.filter(user=user).select_related("decided_by").order_by("-created_at")[:SHOWN])
    return render_to_string("verification/panels/jobs.html", {"jobs": jobs, "user": user})


def register_panels() -> None:
    panels.register(
        panels.Panel(
            "verifications", "Identity verifications", 50, render_jobs, panels.for_capability("verification.read")
        )
    )
