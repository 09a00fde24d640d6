"""Shared paging: exact totals for small results, the planner's estimate for huge ones, id-first deep pages."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backoffice.lists import paging as pagination
from backoffice.models import AuditLog
from backoffice.services import audit_record

pytestmark = pytest.mark.django_db


def _entries(count: int) -> list[AuditLog]:
    return [audit_record(actor=None, action="test.row", object_type="row", object_id=n) for n in range(count)]


def test_small_results_get_an_exact_count():
    _entries(3)
    assert pagination.estimated_count(AuditLog.objects.all()) == 3


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the planner's estimate is PostgreSQL's")
def test_above_the_limit_the_planner_estimate_replaces_count(monkeypatch):
    _entries(40)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {AuditLog._meta.db_table}")
    monkeypatch.setattr(pagination, "EXACT_COUNT_LIMIT", 10)
    with CaptureQueriesContext(connection) as queries:
        total = pagination.estimated_count(AuditLog.objects.all())
    assert [q["sql"].split()[0] for q in queries] == ["EXPLAIN"]
    assert 10 < total <= 80  # an estimate: the right order of magnitude, not a scan


def test_a_filter_that_can_match_nothing_counts_zero():
    # Django writes no SQL for ``pk__in=[]`` (EmptyResultSet); the admin's "my overdue SARs" filter does this
    _entries(2)
    assert pagination.estimated_count(AuditLog.objects.filter(pk__in=[])) == 0


def test_deep_pages_come_in_the_queryset_order(monkeypatch):
    entries = _entries(6)
    monkeypatch.setattr(pagination, "DEFERRED_JOIN_OFFSET", 1)
    ordered = AuditLog.objects.order_by("-object_id")
    page = pagination.page_of(ordered, offset=2, limit=3)
    assert [e.object_id for e in page] == sorted((e.object_id for e in entries), reverse=True)[2:5]


def _statements(call):
    with CaptureQueriesContext(connection) as queries:
        result = call()
    return result, [q["sql"].split()[0] for q in queries]


def test_a_page_that_ends_the_list_is_its_own_total():
    _entries(7)
    ordered = AuditLog.objects.order_by("pk")
    (rows, total), statements = _statements(lambda: pagination.page_and_total(ordered, offset=5, limit=5))
    assert (len(rows), total) == (2, 7)
    assert statements == ["SELECT"]  # the page alone: no EXPLAIN, no COUNT
    (rows, total), statements = _statements(lambda: pagination.page_and_total(ordered, offset=0, limit=20))
    assert (len(rows), total, statements) == (7, 7, ["SELECT"])
    (rows, total), _ = _statements(lambda: pagination.page_and_total(ordered.none(), offset=0, limit=20))
    assert (rows, total) == ([], 0)


def test_a_full_page_or_one_past_the_end_still_counts():
    _entries(7)
    ordered = AuditLog.objects.order_by("pk")
    (rows, total), statements = _statements(lambda: pagination.page_and_total(ordered, offset=0, limit=5))
    assert (len(rows), total) == (5, 7) and len(statements) > 1
    (rows, total), statements = _statements(lambda: pagination.page_and_total(ordered, offset=10, limit=5))
    assert (rows, total) == ([], 7) and len(statements) > 1
