"""Paging that every list shares (API, admin, commands): totals that stay cheap, deep pages that stay fast.

``total`` is exact up to ``EXACT_COUNT_LIMIT`` rows and the planner's
estimate beyond, and deep pages find their ids through the index before
reading rows.
"""

import json

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet

from backoffice.errors import ValidationFailed

MAX_LIMIT = 100

# Above this many rows (by the planner's estimate) an exact COUNT(*) costs more than the page itself.
EXACT_COUNT_LIMIT = 10_000


def estimated_count(queryset: QuerySet) -> int:
    """COUNT(*) where it is cheap, the planner's estimate where it is not.

    On PostgreSQL the query is first EXPLAINed; when the planner expects more
    than ``EXACT_COUNT_LIMIT`` rows the estimate is returned (pages of a
    million users then cost a page, not a scan). Small results, and SQLite,
    get the exact figure.
    """
    if connection.vendor != "postgresql":
        return queryset.count()
    try:
        sql, params = queryset.order_by().values("pk").query.sql_with_params()
    except EmptyResultSet:  # a filter that can match nothing (``pk__in=[]``): Django writes no SQL for it
        return 0
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):  # psycopg2 without the json typecaster
        plan = json.loads(plan)
    estimate = int(plan[0]["Plan"]["Plan Rows"])
    return estimate if estimate > EXACT_COUNT_LIMIT else queryset.count()


DEFERRED_JOIN_OFFSET = 1_000


def page_of(queryset: QuerySet, *, offset: int, limit: int) -> list:
    """One page of an ordered queryset; deep pages first find their ids, then fetch only those rows.

    Skipping 100,000 rows through the list index costs little when only the
    index is read (the ids are in it); reading each skipped row from the
    table is what makes deep OFFSETs slow.
    """
    if offset < DEFERRED_JOIN_OFFSET:
        return list(queryset[offset : offset + limit])
    ids = list(queryset.values_list("pk", flat=True)[offset : offset + limit])
    by_id = {row.pk: row for row in queryset.order_by().filter(pk__in=ids)}
    return [by_id[pk] for pk in ids if pk in by_id]


def page_and_total(queryset: QuerySet, *, offset: int, limit: int) -> tuple[list, int]:
    """One page and the total for its envelope; a page that ends the list tells the total itself.

    A short page that holds rows, or a short first page, is the end of the list: its total is the rows before
    it plus its own, exact, with no count (searches and last pages, most of what staff open, save the EXPLAIN
    and the COUNT). A full page, or one past the end, needs ``estimated_count``.
    """
    rows = page_of(queryset, offset=offset, limit=limit)
    if len(rows) < limit and (rows or offset == 0):
        return rows, offset + len(rows)
    return rows, estimated_count(queryset)


# No list has a billion pages; past this an offset stops fitting the database's integers.
MAX_PAGE = 1_000_000_000


def parse_positive_int(raw, name: str, default: int, *, maximum: int = MAX_PAGE, cap: int | None = None) -> int:
    """A positive integer of ASCII digits (``"٣"`` and ``"²"`` are not), else a 400.

    Above ``cap`` the value is silently ``cap`` (the contract caps ``limit``); otherwise above
    ``maximum`` it is a 400. Neither converts an over-long digit string to an int.
    """
    if raw is None or raw == "":
        return default
    text = str(raw).strip()
    digits = text.lstrip("0")
    if not (text.isascii() and text.isdigit()) or not digits:
        raise ValidationFailed(f"{name} must be a positive integer", details={name: ["Must be a positive integer."]})
    bound = cap if cap is not None else maximum
    if len(digits) > len(str(bound)) or int(digits) > bound:
        if cap is not None:
            return cap
        raise ValidationFailed(f"{name} is too large", details={name: [f"Must be at most {maximum}."]})
    return int(digits)


def page_params(params, *, default_limit: int = 20) -> tuple[int, int]:
    """(page, limit) from query parameters: positive integers, limit capped at 100."""
    page = parse_positive_int(params.get("page"), "page", 1)
    limit = parse_positive_int(params.get("limit"), "limit", default_limit, cap=MAX_LIMIT)
    return page, limit
