"""GET /admin/aml/pep (list), /search and /stats."""

import pytest

from compliance.peps.tests.helpers import BASE, add_pep

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed(db):
    add_pep("Mandla Hlatshwayo", category="Senior Politician", country="Eswatini", position="Senator")
    add_pep("José Ramírez", category="Judge", country="Mexico", position="Supreme Court judge")
    add_pep("Amina Diallo", category="Judge", country="Senegal", is_active=False, position="Magistrate")
    add_pep("Pieter van der Merwe", category="Military Officer", country="South Africa", position="General")


def test_list_defaults_to_50_and_shows_active_and_inactive(officer_api, listed):
    body = officer_api.get(BASE).json()
    assert body["pagination"] == {"page": 1, "limit": 50, "total": 4, "totalPages": 1}
    assert len(body["data"]) == 4
    assert body["data"][0]["name"] == "Pieter van der Merwe"  # newest first


@pytest.mark.parametrize(
    "params,names",
    [
        ({"status": "active"}, {"Mandla Hlatshwayo", "José Ramírez", "Pieter van der Merwe"}),
        ({"status": "inactive"}, {"Amina Diallo"}),
        ({"category": "Judge"}, {"José Ramírez", "Amina Diallo"}),
        ({"category": "judge", "status": "active"}, {"José Ramírez"}),
        ({"search": "jose"}, {"José Ramírez"}),
        ({"search": "senator"}, {"Mandla Hlatshwayo"}),
        ({"search": "south af"}, {"Pieter van der Merwe"}),
    ],
)
def test_list_filters(officer_api, listed, params, names):
    data = officer_api.get(BASE, params).json()["data"]
    assert {p["name"] for p in data} == names


@pytest.mark.parametrize(
    "params", [{"status": "all"}, {"category": "Astronaut"}, {"sortBy": "secret"}, {"limit": "0"}, {"page": "x"}]
)
def test_list_refuses_bad_parameters(officer_api, listed, params):
    response = officer_api.get(BASE, params)
    assert response.status_code == 400 and response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_list_sorts_by_name_and_caps_the_limit(officer_api, listed):
    body = officer_api.get(BASE, {"sortBy": "name", "sortOrder": "asc", "limit": 500}).json()
    assert [p["name"] for p in body["data"]][:2] == ["Amina Diallo", "José Ramírez"]
    assert body["pagination"]["limit"] == 100


def test_search_answers_data_and_count(officer_api, listed):
    body = officer_api.get(f"{BASE}/search", {"q": "ramirez"}).json()
    assert body["success"] is True and body["count"] == 1
    assert [p["name"] for p in body["data"]] == ["José Ramírez"]
    assert officer_api.get(f"{BASE}/search", {"q": "judge"}).json()["count"] == 1
    assert officer_api.get(f"{BASE}/search", {"q": "zz-nobody"}).json() == {"success": True, "data": [], "count": 0}


@pytest.mark.parametrize(
    "params,message",
    [
        ({}, "Search query is required"),
        ({"q": ""}, "Search query is required"),
        ({"q": "a"}, "Search query must be at least 2 characters"),
    ],
)
def test_search_needs_a_query_of_two_characters(officer_api, params, message):
    response = officer_api.get(f"{BASE}/search", params)
    assert response.status_code == 400
    assert response.json()["message"] == message


def test_stats_count_in_the_database(officer_api, listed):
    data = officer_api.get(f"{BASE}/stats").json()["data"]
    assert data["total"] == 4 and data["active"] == 3 and data["inactive"] == 1
    assert data["byCountry"] == {"Eswatini": 1, "Mexico": 1, "Senegal": 1, "South Africa": 1}
    assert data["byCategory"]["Judge"] == 2 and data["byCategory"]["Head of State"] == 0
    assert sum(data["byCategory"].values()) == 4 and len(data["byCategory"]) == 10
