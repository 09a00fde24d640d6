import pytest

from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import BASE

pytestmark = pytest.mark.django_db

URL = f"{BASE}/search"


def test_q_missing_is_400_search_term_is_required(admin_client_api):
    response = admin_client_api.get(URL)
    assert response.status_code == 400
    assert response.json()["message"] == "Search term is required"
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_blank_q_counts_as_missing(admin_client_api):
    assert admin_client_api.get(URL, {"q": "   "}).json()["message"] == "Search term is required"


def test_q_shorter_than_three_characters_is_400(admin_client_api):
    response = admin_client_api.get(URL, {"q": "ab"})
    assert response.status_code == 400
    assert "q" in response.json()["error"]["details"]


def test_search_returns_a_paginated_list_of_basic_info(admin_client_api):
    match = PlatformUserFactory(first_name="Nomsa", last_name="Hlophe")
    PlatformUserFactory(first_name="Bongani", last_name="Zwane")
    body = admin_client_api.get(URL, {"q": "hloph"}).json()
    assert [u["id"] for u in body["data"]] == [str(match.pk)]
    assert body["pagination"]["total"] == 1
    assert body["data"][0]["lastName"] == "Hlophe"


def test_search_reaches_id_numbers_and_legacy_surnames(admin_client_api):
    by_id = PlatformUserFactory(id_number="8505055800081")
    by_surname = PlatformUserFactory(surname="Magagula")
    assert [u["id"] for u in admin_client_api.get(URL, {"q": "85050558"}).json()["data"]] == [str(by_id.pk)]
    assert [u["id"] for u in admin_client_api.get(URL, {"q": "magag"}).json()["data"]] == [str(by_surname.pk)]


def test_search_honours_page_limit_and_sorting(admin_client_api):
    for name in ("Anele", "Banele", "Canele"):
        PlatformUserFactory(first_name=name)
    body = admin_client_api.get(URL, {"q": "nele", "limit": 2, "sortBy": "firstName", "sortOrder": "asc"}).json()
    assert [u["firstName"] for u in body["data"]] == ["Anele", "Banele"]
    assert body["pagination"] == {"page": 1, "limit": 2, "total": 3, "totalPages": 2}
    assert admin_client_api.get(URL, {"q": "nele", "sortBy": "password"}).status_code == 400


def test_search_leaves_archived_users_out_unless_asked(admin_client_api):
    PlatformUserFactory(first_name="Lindiwe", is_archived=True)
    assert admin_client_api.get(URL, {"q": "lindiwe"}).json()["data"] == []
    assert len(admin_client_api.get(URL, {"q": "lindiwe", "isArchived": "true"}).json()["data"]) == 1


def test_a_short_result_totals_itself_without_counting(admin_client_api):
    # the page that ends the list tells the total (backoffice.lists.paging.page_and_total): no EXPLAIN, no COUNT
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for n in range(3):
        PlatformUserFactory(first_name="Zanele", last_name=f"Hlophe{n}")
    PlatformUserFactory(first_name="Themba", last_name="Motsa")
    first = admin_client_api.get(URL, {"q": "Zanele", "limit": 2})
    assert first.json()["pagination"] == {"page": 1, "limit": 2, "total": 3, "totalPages": 2}
    with CaptureQueriesContext(connection) as queries:
        last = admin_client_api.get(URL, {"q": "Zanele", "limit": 2, "page": 2})
    assert last.json()["pagination"] == {"page": 2, "limit": 2, "total": 3, "totalPages": 2}
    assert len(last.json()["data"]) == 1
    assert not [q["sql"] for q in queries if q["sql"].startswith("EXPLAIN") or "COUNT(" in q["sql"]]
