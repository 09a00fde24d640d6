"""On PostgreSQL the user search is answered by the trigram indexes of migration 0003."""

import pytest
from django.db import connection

from kyc.filtersets import SEARCH_FIELDS, search_q
from kyc.models import PlatformUser
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("pg_trgm indexes exist on PostgreSQL only")


def plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        # a handful of rows would be read sequentially anyway; forbid that to see whether the indexes fit
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_every_search_column_has_a_trigram_index():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'kyc_platformuser'")
        indexes = dict(cursor.fetchall())
    for field in SEARCH_FIELDS:
        definition = indexes[f"kyc_user_trgm_{field}"]
        assert "gin_trgm_ops" in definition and f"upper(({field})::text)" in definition


def test_the_search_query_uses_the_trigram_indexes():
    PlatformUserFactory.create_batch(3)
    text = plan(PlatformUser.objects.filter(search_q("dlam")).order_by())
    assert "kyc_user_trgm_first_name" in text and "kyc_user_trgm_id_number" in text
    assert "Seq Scan" not in text


def test_a_full_name_search_also_uses_the_trigram_indexes():
    PlatformUserFactory.create_batch(3)
    text = plan(PlatformUser.objects.filter(search_q("thabo dlam")).order_by())
    assert "kyc_user_trgm_first_name" in text and "kyc_user_trgm_last_name" in text
    assert "Seq Scan" not in text
