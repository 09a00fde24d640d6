"""Verification's section of the KYC user page (kyc.panels): the user's jobs with their decision and findings.

Replaces kyc's own list of verification records under the same key, so the page has one section about
identity checks, with links to each job's page.
"""

from django.template.loader import render_to_string

from kyc import panels
from verification.models import VerificationJob
from verification.selectors.jobs import verification_support_status

SHOWN = 10


def render_jobs(request, user) -> str:
    jobs = list(VerificationJob.objects.filter(user=user).select_related("decided_by").order_by("-created_at")[:SHOWN])
    return render_to_string("verification/panels/jobs.html", {"jobs": jobs, "user": user})


def render_support_status(request, user) -> str:
    return render_to_string(
        "verification/panels/support_status.html", {"status": verification_support_status(user=user)}
    )


def _support_only(request) -> bool:
    # support answers customers (users.update) but may not open verification pages (verification.read, compliance
    # roles, who see the jobs' own section instead); finance neither answers customers nor sees this
    user = request.user
    return bool(
        getattr(user, "is_authenticated", False)
        and user.has_capability("users.update")
        and not user.has_capability("verification.read")
    )


def register_panels() -> None:
    panels.register(
        panels.Panel(
            "verification_status", "Identity verification: where it stands", 50, render_support_status, _support_only
        )
    )
    panels.register(
        panels.Panel(
            "verifications", "Identity verifications", 50, render_jobs, panels.for_capability("verification.read")
        )
    )
