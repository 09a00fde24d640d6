"""Two officers pressing the same button at once, on PostgreSQL: the row lock lets exactly one move happen."""

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, InvalidTransition, SARTransition
from compliance.sars.tests.sar.helpers import move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_two_reviewers_at_once_make_exactly_one_review(make_sar):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    reviewers = [StaffFactory(role=StaffRole.COMPLIANCE_OFFICER) for _ in range(4)]
    outcomes = run_in_threads(
        len(reviewers),
        lambda i: move(SAR.objects.get(pk=sar.pk), reviewers[i], SARStatus.PENDING_APPROVAL) and "moved",
    )

    assert outcomes.count("moved") == 1
    assert all(isinstance(o, InvalidTransition) for o in outcomes if o != "moved")
    stored = SAR.objects.get(pk=sar.pk)
    assert stored.status == SARStatus.PENDING_APPROVAL and stored.reviewed_by in reviewers
    assert SARTransition.objects.filter(sar=sar, to_status=SARStatus.PENDING_APPROVAL).count() == 1
