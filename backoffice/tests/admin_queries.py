"""Query counts of admin pages: a page must cost the same whether its lists and histories hold few rows or many.

Each app's ``test_admin_query_counts.py`` names its pages and how to grow the
rows they show; ``registered_models(app_label)`` lets it check that every
model it registers in the admin site is covered.
"""

import re
from collections import Counter

from django.contrib import admin
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory


def admin_browser(role: str = StaffRole.ADMIN) -> Client:
    client = Client()
    client.force_login(StaffFactory(role=role))
    return client


def queries_of(client: Client, url: str, data: dict | None = None) -> list[str]:
    """The queries of a GET of ``url`` (a POST of ``data`` when given: a page that answers a posted form)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url) if data is None else client.post(url, data)
    assert response.status_code == 200, (url, response.status_code)
    return [query["sql"] for query in captured.captured_queries]


def assert_flat(client: Client, url: str, grow, *, by: int = 4, data: dict | None = None) -> int:
    """The page at ``url`` costs as many queries after ``grow(by)`` added rows as before; returns the count."""
    queries_of(client, url, data)  # warm caches (content types, session) so both measurements see the same
    before = queries_of(client, url, data)
    grow(by)
    after = queries_of(client, url, data)
    extra = "\n".join(f"{n} x {sql[:400]}" for sql, n in (_shapes(after) - _shapes(before)).items())
    assert len(after) == len(before), f"{url}: {len(before)} queries, then {len(after)} after adding {by}:\n{extra}"
    return len(after)


def _shapes(queries: list[str]) -> Counter:
    """Queries with their literal values blanked, so the same query with other ids counts as the same."""
    return Counter(re.sub(r"'[^']*'|\b\d+\b", "?", sql) for sql in queries)


def registered_models(app_label: str) -> set[str]:
    return {model._meta.model_name for model in admin.site._registry if model._meta.app_label == app_label}
