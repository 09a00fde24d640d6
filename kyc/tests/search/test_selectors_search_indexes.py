"""On PostgreSQL the user search is answered by the trigram indexes of migration 0003."""

import pytest
from django.db import connection

from kyc.filtersets import SEARCH_FIELDS, search_q, search_users
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


def test_a_full_name_search_reads_one_trigram_index_for_all_its_words():
    # field by field, each word cost a scan of seven indexes over the long posting lists of common names
    PlatformUserFactory.create_batch(3)
    text = plan(search_users(PlatformUser.objects.all(), "thabo dlamini nkosi").order_by())
    assert text.count("Bitmap Index Scan") == 1 and "kyc_user_trgm_search_text" in text, text
    assert "Seq Scan" not in text


def test_a_phone_number_typed_in_pieces_is_served_by_the_indexes_too():
    PlatformUserFactory.create_batch(3)
    text = plan(search_users(PlatformUser.objects.all(), "(76) 12-3456").order_by())
    assert "kyc_user_trgm_search_text" in text and "kyc_user_trgm_phone_number" in text, text
    assert "Seq Scan" not in text


def test_the_full_text_index_is_built_from_the_expression_the_search_filters_on():
    # the planner uses an expression index only for the very expression of the query
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'kyc_user_trgm_search_text'")
        (definition,) = cursor.fetchone()
    assert "gin_trgm_ops" in definition
    assert all(field in definition for field in SEARCH_FIELDS)


@pytest.mark.parametrize(
    "term,expected",
    [("Thabo Dlamini", {"thabo"}), ("dlamini thab", {"thabo"}), ("thabo dlamini-nx", set()), ("habo dlamini", set())],
)
def test_full_name_search_finds_the_same_people_on_postgresql(term, expected):
    people = {
        "thabo": PlatformUserFactory(first_name="Thabo", last_name="Dlamini"),
        "lethabo": PlatformUserFactory(first_name="Lethabo", last_name="Dlamini"),
    }
    found = set(search_users(PlatformUser.objects.all(), term).values_list("pk", flat=True))
    assert found == {people[name].pk for name in expected}
