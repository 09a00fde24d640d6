"""Two officers pressing the same button at once, on PostgreSQL: the row lock lets exactly one move happen."""

import threading

import pytest
from django.db import connection, connections

from backoffice.choices import StaffRole
from backoffice.errors import DomainError
from backoffice.tests.factories import StaffFactory
from compliance.choices import SARStatus
from compliance.models import SAR, SARTransition
from compliance.models.sar import InvalidTransition
from compliance.tests.sar.conftest import move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and real concurrency need PostgreSQL")


def test_two_reviewers_at_once_make_exactly_one_review(make_sar):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    reviewers = [StaffFactory(role=StaffRole.COMPLIANCE_OFFICER) for _ in range(4)]
    barrier = threading.Barrier(len(reviewers))
    outcomes: list[object] = []

    def review(reviewer):
        try:
            barrier.wait()
            move(SAR.objects.get(pk=sar.pk), reviewer, SARStatus.PENDING_APPROVAL)
            outcomes.append("moved")
        except DomainError as exc:
            outcomes.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=review, args=(r,)) for r in reviewers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert outcomes.count("moved") == 1
    assert all(isinstance(o, InvalidTransition) for o in outcomes if o != "moved")
    stored = SAR.objects.get(pk=sar.pk)
    assert stored.status == SARStatus.PENDING_APPROVAL and stored.reviewed_by in reviewers
    assert SARTransition.objects.filter(sar=sar, to_status=SARStatus.PENDING_APPROVAL).count() == 1
