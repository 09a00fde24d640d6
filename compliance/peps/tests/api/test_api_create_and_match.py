"""POST /admin/aml/pep: the record, the matching summary, and what a match does to the user."""

import pytest

from compliance.aml.choices import AlertType
from compliance.aml.models.alerts import Alert
from compliance.peps.models.pep import PEP, PEPMatch
from compliance.peps.tests.helpers import BASE, make_user, pep_body
from compliance.risk import risk_picture

pytestmark = pytest.mark.django_db


def test_create_answers_201_with_the_pep_and_the_matching_summary(officer_api):
    user = make_user("Bakotimu", "Dafiloza", date_of_birth="1971-04-02")
    response = officer_api.post(BASE, pep_body("Bakotimu Dafiloza", source="gazette"), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["success"] is True and body["message"]
    pep = body["data"]["pep"]
    assert pep["name"] == "Bakotimu Dafiloza" and pep["category"] == "Government Official"
    assert pep["isActive"] is True and pep["additionalInfo"] == {} and pep["source"] == "gazette"
    assert pep["aliases"] == [] and pep["dateOfBirth"] is None and pep["version"] == 1
    assert pep["createdAt"].endswith("Z") and pep["updatedAt"].endswith("Z")
    matching = body["data"]["matching"]
    assert matching["usersMatched"] == 1 and matching["usersUpdated"] == 1 and matching["alertsCreated"] == 1
    assert matching["usersScanned"] >= 1
    [entry] = matching["matches"]
    assert entry["userId"] == str(user.pk) and entry["pepId"] == pep["id"]
    assert entry["fullName"] == "Bakotimu Dafiloza" and 0.8 <= entry["score"] <= 1


def test_a_match_flags_the_user_raises_the_risk_and_opens_one_pep_match_alert(officer_api):
    user = make_user("Bakotimu", "Dafiloza")
    before = user.current_risk_score
    officer_api.post(BASE, pep_body("DAFILOZA, Bakotimu"), format="json")
    user.refresh_from_db()
    assert user.is_potential_pep is True
    assert user.current_risk_score == risk_picture(user).indicated_score == 30 + 12 + 10  # flag, alert, unverified
    alert = Alert.objects.get(user=user)
    assert alert.alert_type == AlertType.PEP_MATCH
    assert alert.details["pep_name"] == "DAFILOZA, Bakotimu"
    assert alert.details["explanation"]["matcher_version"] and alert.details["score"] >= 0.8
    match = PEPMatch.objects.get(user=user)
    assert match.status == "POTENTIAL" and match.alert == alert
    assert match.risk_points == user.current_risk_score - before


def test_a_shared_common_surname_is_not_a_match(officer_api):
    make_user("Themba", "Dlamini")
    response = officer_api.post(BASE, pep_body("Sipho Dlamini"), format="json")
    assert response.json()["data"]["matching"]["usersMatched"] == 0
    assert not Alert.objects.exists()


def test_duplicate_name_ignoring_case_accents_and_spaces_is_409(officer_api):
    assert officer_api.post(BASE, pep_body("José  Dlamini"), format="json").status_code == 201
    response = officer_api.post(BASE, pep_body("jose dlamini"), format="json")
    assert response.status_code == 409
    assert response.json()["message"] == "PEP with this name already exists"
    assert response.json()["error"]["code"] == "CONFLICT"
    assert PEP.objects.count() == 1


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "   "}, {"name": None}, {"category": "Judge"}])
def test_missing_name_is_400_name_is_required(officer_api, body):
    response = officer_api.post(BASE, body, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "Name is required"
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


@pytest.mark.parametrize(
    "field,value",
    [
        ("category", "Astronaut"),
        ("isActive", "yes"),
        ("additionalInfo", [1, 2]),
        ("dateOfBirth", "1990-13-01"),
        ("dateOfBirth", "2999-01-01"),
        ("aliases", "not a list"),
        ("nickname", "x"),
    ],
)
def test_bad_fields_are_400_naming_the_field(officer_api, field, value):
    response = officer_api.post(BASE, pep_body("Valid Name", **{field: value}), format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["error"]["details"]


def test_category_defaults_to_unknown_and_forgives_case(officer_api):
    a = officer_api.post(BASE, {"name": "Kafu Lomeno"}, format="json").json()["data"]["pep"]
    b = officer_api.post(BASE, {"name": "Kafu Lomenozi", "category": "head_of_state"}, format="json").json()
    assert a["category"] == "Unknown" and b["data"]["pep"]["category"] == "Head of State"


def test_aliases_and_date_of_birth_are_kept_and_matched(officer_api):
    user = make_user("Ilyas", "Karimov", date_of_birth="1960-05-12")
    body = pep_body("Ильяс Каримов", aliases=["Iljas Karimow", "ilyas  karimov"], dateOfBirth="1960-05-12")
    data = officer_api.post(BASE, body, format="json").json()["data"]
    assert data["pep"]["aliases"] == ["Iljas Karimow", "ilyas karimov"]
    assert data["pep"]["dateOfBirth"] == "1960-05-12"
    assert [m["userId"] for m in data["matching"]["matches"]] == [str(user.pk)]
