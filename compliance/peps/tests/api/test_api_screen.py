"""POST /admin/aml/pep/screen: a name against the active PEPs, nothing written, best first, explained."""

import pytest

from compliance.aml.models.alerts import Alert
from compliance.peps.models.pep import PEPMatch, ScreeningRun
from compliance.peps.tests.helpers import BASE, add_pep

pytestmark = pytest.mark.django_db
SCREEN = f"{BASE}/screen"


def test_screen_answers_the_matching_peps_best_first_with_explanations(officer_api):
    add_pep("Vladimir Vladimirovich Putin", aliases=["Владимир Путин"], country="Russia", date_of_birth="1952-10-07")
    add_pep("Vladimir Putinov", country="Bulgaria")
    add_pep("Retired Official", is_active=False)
    runs = ScreeningRun.objects.count()
    response = officer_api.post(SCREEN, {"name": "Путин Владимир", "dateOfBirth": "1952-10-07"}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["success"] is True and body["count"] == len(body["data"]) == 1
    [hit] = body["data"]
    assert hit["pep"]["name"] == "Vladimir Vladimirovich Putin"
    assert 0.8 <= hit["score"] <= 1
    explanation = hit["explanation"]
    assert set(explanation) == {"matcherVersion", "parts", "adjustments", "summary"}
    assert {"query", "candidate", "score", "weight", "note"} <= set(explanation["parts"][0])
    assert not PEPMatch.objects.exists() and not Alert.objects.exists()
    assert ScreeningRun.objects.count() == runs


def test_screen_skips_inactive_peps_and_different_people(officer_api):
    add_pep("Thandeka Mthethwa", is_active=False)
    add_pep("Sipho Dlamini")
    assert officer_api.post(SCREEN, {"name": "Thandeka Mthethwa"}, format="json").json()["count"] == 0
    assert officer_api.post(SCREEN, {"name": "Themba Dlamini"}, format="json").json()["count"] == 0
    assert officer_api.post(SCREEN, {"name": "Siphiwe Dlamini"}, format="json").json()["count"] == 0


def test_a_conflicting_date_of_birth_lowers_the_score_below_the_threshold(officer_api):
    add_pep("Sibusiso Mavimbela", date_of_birth="1961-03-02")
    assert officer_api.post(SCREEN, {"name": "Sibusiso Mavimbela"}, format="json").json()["count"] == 1
    far = officer_api.post(SCREEN, {"name": "Sibusiso Mavimbela", "dateOfBirth": "1994-07-21"}, format="json")
    assert far.json()["count"] == 0


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"dateOfBirth": "1990-01-01"}])
def test_screen_needs_a_name(officer_api, body):
    response = officer_api.post(SCREEN, body, format="json")
    assert response.status_code == 400 and response.json()["message"] == "Name is required"


def test_the_threshold_setting_decides(officer_api, settings):
    add_pep("Sibusiso Mavimbela")
    settings.PEP_MATCH_THRESHOLD = 1.0
    assert officer_api.post(SCREEN, {"name": "Sibusiso Mavimbla"}, format="json").json()["count"] == 0
    settings.PEP_MATCH_THRESHOLD = 0.8
    assert officer_api.post(SCREEN, {"name": "Sibusiso Mavimbla"}, format="json").json()["count"] == 1
