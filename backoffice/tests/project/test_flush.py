"""The tests' flush on PostgreSQL (backoffice/tests/flush.py) leaves every table empty, rows linked by foreign keys
included, whatever order it deletes them in."""

import pytest
from django.core.management import call_command
from django.db import connection

from backoffice.services.service_keys import service_key_create
from backoffice.tests.concurrency import postgres_only  # noqa: F401  (fixture)
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db(transaction=True)


def rows_left() -> dict[str, int]:
    left = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True, include_views=False):
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            if count := cursor.fetchone()[0]:
                left[table] = count
    return left


def test_the_flush_deletes_linked_rows_in_any_order_and_leaves_nothing(postgres_only):  # noqa: F811
    service_key_create(name="flushed", actor=StaffFactory())
    # the staff member, the key made by them and the audit entry naming them as its actor
    assert {"backoffice_staff", "backoffice_servicekey", "backoffice_auditlog"} <= set(rows_left())
    call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)  # nothing made again after
    assert rows_left() == {}
