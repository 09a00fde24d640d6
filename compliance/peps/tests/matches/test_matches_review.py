"""GET/PUT /admin/aml/pep/matches: listing, confirming and dismissing; what each does to the user."""

import uuid

import pytest

from backoffice.models import AuditLog
from compliance.peps.models.pep import PEPMatch
from compliance.peps.tests.helpers import BASE, add_pep, make_user
from compliance.risk import risk_picture

pytestmark = pytest.mark.django_db
MATCHES = f"{BASE}/matches"


@pytest.fixture
def matched(db):
    user = make_user("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza", category="Judge").pep
    return user, pep, PEPMatch.objects.get(user=user)


def test_matches_list_filters_by_user_pep_and_status(officer_api, matched):
    user, pep, match = matched
    other = make_user("Lurano", "Vetsikali")
    add_pep("Lurano Vetsikali")
    body = officer_api.get(MATCHES).json()
    assert body["pagination"]["total"] == 2
    row = officer_api.get(MATCHES, {"userId": str(user.pk)}).json()["data"]
    assert [m["id"] for m in row] == [str(match.pk)]
    assert row[0]["pep"]["name"] == "Bakotimu Dafiloza" and row[0]["user"]["firstName"] == "Bakotimu"
    assert row[0]["status"] == "POTENTIAL" and row[0]["explanation"]["summary"]
    assert [m["userId"] for m in officer_api.get(MATCHES, {"pepId": str(pep.pk)}).json()["data"]] == [str(user.pk)]
    assert officer_api.get(MATCHES, {"status": "DISMISSED"}).json()["data"] == []
    assert officer_api.get(MATCHES, {"status": "NOPE"}).status_code == 400
    # the second user's own match is listed under their id, and only theirs
    others = officer_api.get(MATCHES, {"userId": str(other.pk)}).json()["data"]
    assert [m["pep"]["name"] for m in others] == ["Lurano Vetsikali"] and others[0]["id"] != str(match.pk)


def test_dismissing_takes_the_points_back_and_clears_the_flag(officer, matched):
    client, staff = officer
    user, _, match = matched
    response = client.put(f"{MATCHES}/{match.pk}", {"status": "DISMISSED", "note": "Different person"}, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["status"] == "DISMISSED" and data["note"] == "Different person"
    assert data["reviewedBy"]["id"] == str(staff.pk) and data["reviewedAt"]
    user.refresh_from_db()
    # no flag, the alert closed: what is left is the identity not verified yet
    assert user.is_potential_pep is False and user.current_risk_score == 10 and user.risk_rating == "LOW"
    assert AuditLog.objects.filter(action="pep_match.review", object_id=str(match.pk)).exists()


def test_confirming_keeps_the_flag_and_a_second_identical_move_is_409(officer_api, matched):
    user, _, match = matched
    body = {"status": "CONFIRMED", "note": "Same ID number"}
    assert officer_api.put(f"{MATCHES}/{match.pk}", body, format="json").status_code == 200
    user.refresh_from_db()
    assert user.is_potential_pep is True and user.current_risk_score == 30 + 10  # the alert is decided
    again = officer_api.put(f"{MATCHES}/{match.pk}", body, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "INVALID_TRANSITION"


def test_one_dismissal_keeps_the_flag_while_another_match_is_open(officer_api, matched):
    user, _, match = matched
    add_pep("Dafiloza Bakotimu Remi")  # a second PEP matching the same user
    assert PEPMatch.objects.filter(user=user).count() == 2
    officer_api.put(f"{MATCHES}/{match.pk}", {"status": "DISMISSED", "note": "No"}, format="json")
    user.refresh_from_db()
    assert user.is_potential_pep is True
    assert user.current_risk_score == risk_picture(user).indicated_score > 30 + 10  # the other match's alert is open


@pytest.mark.parametrize("body", [{}, {"status": "POTENTIAL"}, {"status": "maybe"}])
def test_review_takes_confirmed_or_dismissed_only(officer_api, matched, body):
    _, _, match = matched
    response = officer_api.put(f"{MATCHES}/{match.pk}", body, format="json")
    assert response.status_code == 400 and "status" in response.json()["error"]["details"]


def test_unknown_match_is_404(officer_api):
    response = officer_api.put(f"{MATCHES}/{uuid.uuid4()}", {"status": "CONFIRMED"}, format="json")
    assert response.status_code == 404
