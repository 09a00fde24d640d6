"""POST /admin/aml/pep/bulk: partial success, per-item errors with indexes, the 10,000 cap, the matching."""

import pytest

from compliance.aml.models.alerts import Alert
from compliance.peps.models.pep import PEP
from compliance.peps.services.pep import BULK_MAX
from compliance.peps.tests.helpers import BASE, make_user, pep_body

pytestmark = pytest.mark.django_db
BULK = f"{BASE}/bulk"


def test_each_item_is_validated_alone_and_failures_name_their_index(officer_api):
    officer_api.post(BASE, pep_body("Existing Person"), format="json")
    peps = [
        pep_body("Lomari Kesuvo"),
        {"category": "Judge"},  # no name
        pep_body("Pabeni Torulo", category="Astronaut"),
        pep_body("existing  PERSON"),  # already on the list
        pep_body("Lomári Kesuvo"),  # same name as item 0
        "not an object",
        pep_body("Nuvato Remiko", dateOfBirth="1980-02"),
    ]
    response = officer_api.post(BULK, {"peps": peps}, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["created"] == 2 and data["failed"] == 5
    errors = {e["index"]: e for e in data["errors"]}
    assert sorted(errors) == [1, 2, 3, 4, 5]
    assert errors[1]["message"] == "Name is required"
    assert errors[2]["name"] == "Pabeni Torulo" and "category" in errors[2]["details"]
    assert errors[3]["message"] == "PEP with this name already exists"
    assert errors[4]["message"] == "PEP with this name already exists"
    assert set(PEP.objects.values_list("name", flat=True)) == {"Existing Person", "Lomari Kesuvo", "Nuvato Remiko"}
    assert PEP.objects.get(name="Nuvato Remiko").date_of_birth == "1980-02"


def test_bulk_matches_the_created_peps_against_users(officer_api):
    users = [make_user("Rivoka", "Salemba"), make_user("Temuzi", "Oranfe")]
    response = officer_api.post(
        BULK,
        {"peps": [pep_body("Rivoka Salemba"), pep_body("Oranfe, Temuzi"), pep_body("Nobody Atallis")]},
        format="json",
    )
    matching = response.json()["data"]["matching"]
    assert matching["usersMatched"] == 2 and matching["alertsCreated"] == 2 and matching["usersUpdated"] == 2
    assert {m["userId"] for m in matching["matches"]} == {str(u.pk) for u in users}
    assert Alert.objects.filter(alert_type="PEP_MATCH").count() == 2


def test_more_than_10000_items_is_413_and_nothing_is_written(officer_api):
    peps = [{"name": f"Person {n}"} for n in range(BULK_MAX + 1)]
    response = officer_api.post(BULK, {"peps": peps}, format="json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert not PEP.objects.exists()


@pytest.mark.parametrize("body", [{}, {"peps": "x"}, {"peps": []}, [{"name": "A B"}], {"peps": None}])
def test_a_body_without_a_list_of_peps_is_400(officer_api, body):
    response = officer_api.post(BULK, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_bulk_counts_against_the_bulk_rate_limit(officer_api, settings):
    settings.RATE_LIMIT_BULK = "2/m"
    statuses = [officer_api.post(BULK, {"peps": [pep_body(f"Rate Limited {n}")]}, format="json") for n in range(3)]
    assert [r.status_code for r in statuses] == [201, 201, 429]
    assert statuses[0]["X-RateLimit-Limit"] == "2"


def test_a_body_over_the_request_size_limit_is_413_not_500(officer_api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 50_000
    peps = [pep_body(f"Person Number {n}", position="x" * 500) for n in range(200)]
    response = officer_api.post(BULK, {"peps": peps}, format="json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"
