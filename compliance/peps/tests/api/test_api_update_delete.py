"""PUT and DELETE /admin/aml/pep/:pepId, and GET of one PEP with its matched users."""

import uuid

import pytest

from backoffice.models import AuditLog
from compliance.aml.models.alerts import Alert
from compliance.peps.models.pep import PEP, PEPMatch
from compliance.peps.tests.helpers import BASE, make_user, pep_body

pytestmark = pytest.mark.django_db


def create(api, name, **fields):
    response = api.post(BASE, pep_body(name, **fields), format="json")
    assert response.status_code == 201, response.json()
    return response.json()["data"]["pep"]


def test_update_changes_the_updatable_fields_and_raises_the_version(officer_api):
    pep = create(officer_api, "Zolani Mavuta")
    response = officer_api.put(
        f"{BASE}/{pep['id']}",
        {"position": "Deputy Minister", "isActive": False, "additionalInfo": {"term": "2024-"}, "category": "judge"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["position"] == "Deputy Minister" and data["isActive"] is False and data["category"] == "Judge"
    assert data["additionalInfo"] == {"term": "2024-"} and data["version"] == 2
    assert data["matching"]["usersMatched"] == 0
    entry = AuditLog.objects.get(action="pep.update", object_id=pep["id"])
    assert entry.changes == {
        "version": 2,
        "fields": {
            "position": {"from": "Minister", "to": "Deputy Minister"},
            "is_active": {"from": True, "to": False},
            "additional_info": {"from": {}, "to": {"term": "2024-"}},
            "category": {"from": "Government Official", "to": "Judge"},
        },
    }


def test_an_update_that_changes_nothing_keeps_the_version(officer_api):
    pep = create(officer_api, "Zolani Mavuta", position="Minister")
    data = officer_api.put(f"{BASE}/{pep['id']}", {"position": "Minister"}, format="json").json()["data"]
    assert data["version"] == 1


def test_a_rename_onto_another_pep_is_409_and_source_cannot_be_updated(officer_api):
    create(officer_api, "Zolani Mavuta")
    other = create(officer_api, "Kelebogile Tau")
    response = officer_api.put(f"{BASE}/{other['id']}", {"name": "ZOLANI MAVUTA"}, format="json")
    assert response.status_code == 409 and response.json()["message"] == "PEP with this name already exists"
    response = officer_api.put(f"{BASE}/{other['id']}", {"source": "elsewhere"}, format="json")
    assert response.status_code == 400 and "source" in response.json()["error"]["details"]
    response = officer_api.put(f"{BASE}/{other['id']}", {"name": " "}, format="json")
    assert response.status_code == 400 and response.json()["message"] == "Name is required"


def test_a_name_change_matches_again_a_position_change_does_not(officer_api):
    user = make_user("Kelebogile", "Tau")
    pep = create(officer_api, "Kelebogile Taunyane")
    assert not Alert.objects.exists()
    renamed = officer_api.put(f"{BASE}/{pep['id']}", {"name": "Kelebogile Tau"}, format="json").json()["data"]
    assert renamed["matching"]["usersMatched"] == 1 and renamed["matching"]["alertsCreated"] == 1
    moved = officer_api.put(f"{BASE}/{pep['id']}", {"position": "Ambassador"}, format="json").json()["data"]
    assert moved["matching"]["usersScanned"] == 0 and moved["matching"]["matches"] == []
    assert Alert.objects.filter(user=user).count() == 1


@pytest.mark.parametrize("method", ["get", "put", "delete"])
@pytest.mark.parametrize("pep_id", [uuid.uuid4(), "not-a-uuid"])
def test_unknown_pep_is_404_pep_not_found(officer_api, method, pep_id):
    response = getattr(officer_api, method)(f"{BASE}/{pep_id}", {"position": "x"}, format="json")
    assert response.status_code == 404
    assert response.json()["message"] == "PEP not found"
    assert response.json()["error"]["code"] == "NOT_FOUND"


def test_detail_lists_the_matched_users_with_their_explanation(officer_api):
    user = make_user("Nomalanga", "Shabangu-Xaba")
    pep = create(officer_api, "Nomalanga Shabangu-Xaba")
    data = officer_api.get(f"{BASE}/{pep['id']}").json()["data"]
    assert data["name"] == "Nomalanga Shabangu-Xaba"
    [matched] = data["matchedUsers"]
    assert matched["userId"] == str(user.pk) and matched["status"] == "POTENTIAL"
    assert matched["explanation"]["parts"] and matched["fullName"] == "Nomalanga Shabangu-Xaba"


def test_delete_removes_the_pep_for_good_and_keeps_its_match(officer_api):
    make_user("Nomalanga", "Shabangu-Xaba")
    pep = create(officer_api, "Nomalanga Shabangu-Xaba")
    response = officer_api.delete(f"{BASE}/{pep['id']}")
    assert response.status_code == 200 and response.json()["data"] == {"id": pep["id"]}
    assert not PEP.objects.exists()
    assert officer_api.get(f"{BASE}/{pep['id']}").status_code == 404
    assert PEPMatch.objects.get().pep is None
