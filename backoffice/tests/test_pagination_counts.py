"""Shared paging: exact totals for small results, the planner's estimate for huge ones, id-first deep pages."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backoffice.api import pagination
from kyc.models import PlatformUser
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def test_small_results_get_an_exact_count():
    PlatformUserFactory.create_batch(3)
    assert pagination.estimated_count(PlatformUser.objects.all()) == 3


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the planner's estimate is PostgreSQL's")
def test_above_the_limit_the_planner_estimate_replaces_count(monkeypatch):
    PlatformUserFactory.create_batch(40)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE kyc_platformuser")
    monkeypatch.setattr(pagination, "EXACT_COUNT_LIMIT", 10)
    with CaptureQueriesContext(connection) as queries:
        total = pagination.estimated_count(PlatformUser.objects.all())
    assert [q["sql"].split()[0] for q in queries] == ["EXPLAIN"]
    assert 10 < total <= 80  # an estimate: the right order of magnitude, not a scan


def test_deep_pages_come_in_the_queryset_order(monkeypatch):
    users = PlatformUserFactory.create_batch(6)
    monkeypatch.setattr(pagination, "DEFERRED_JOIN_OFFSET", 1)
    ordered = PlatformUser.objects.order_by("phone_number")
    page = pagination.page_of(ordered, offset=2, limit=3)
    assert [u.phone_number for u in page] == sorted(u.phone_number for u in users)[2:5]
