"""Reviewing matches over the API: confirm freezes and drafts a SAR, unfreezing takes a second person."""

import pytest

from backoffice.choices import StaffRole
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.services.screening import screen_user
from compliance.sanctions.tests.screening.helpers import MATCHES, SCREEN, make_entry
from compliance.sars.models import SAR

pytestmark = pytest.mark.django_db


@pytest.fixture
def potential(customer):
    entry = make_entry("Amina Dlamini Yusuf", dates_of_birth=["1980-02-03"], nationalities=["SO"])
    screen_user(user_id=customer.pk)
    return SanctionsMatch.objects.get(entry=entry)


def test_the_match_as_listed_and_a_note_required(staff_client, potential, customer):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    data = client.get(MATCHES, {"status": "POTENTIAL", "party": "USER"}).json()["data"]
    assert [m["id"] for m in data] == [str(potential.pk)]
    row = data[0]
    assert row["user"] == {"id": str(customer.pk), "firstName": "Amina", "lastName": "Dlamini"}
    assert row["entry"]["list"] == "UN" and row["entry"]["type"] == "INDIVIDUAL" and row["counterpartyName"] is None
    assert row["explanation"] and row["decidedBy"] is None
    r = client.put(f"{MATCHES}/{potential.pk}", {"status": "DISMISSED"}, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"


def test_confirming_freezes_blocks_credits_drafts_a_sar_and_a_second_person_unfreezes(
    staff_client, potential, customer
):
    mlro_client, mlro = staff_client(StaffRole.MLRO)
    r = mlro_client.put(f"{MATCHES}/{potential.pk}", {"status": "CONFIRMED", "note": "Same DOB"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["data"]["status"] == "CONFIRMED" and r.json()["data"]["decidedBy"]["id"] == str(mlro.pk)
    again = mlro_client.put(f"{MATCHES}/{potential.pk}", {"status": "DISMISSED", "note": "x"}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "INVALID_TRANSITION"
    customer.refresh_from_db()
    assert customer.is_frozen
    sar = SAR.objects.get(entity_user=customer)
    assert sar.suspicious_activity_type == "sanctions_violation" and "Amina Dlamini Yusuf" in sar.activity_description
    assert sar.status == "DRAFT"

    support, _ = staff_client(StaffRole.SUPPORT)
    shown = support.get(f"/api/v1/admin/users/{customer.pk}").json()["data"]
    assert shown["isFrozen"] is True and "sanction" not in str(shown).lower()
    assert support.get(MATCHES).status_code == 403
    assert support.post(SCREEN, {"name": "x"}, format="json").status_code == 403

    admin, _ = staff_client(StaffRole.ADMIN)
    credit = admin.post(
        f"/api/v1/admin/users/{customer.pk}/add-balance", {"amount": 10, "reason": "promo"}, format="json"
    )
    assert credit.status_code == 409 and credit.json()["error"]["code"] == "ACCOUNT_FROZEN"

    unfreeze = f"/api/v1/admin/users/{customer.pk}/unfreeze"
    officer, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    assert officer.post(unfreeze, {"reason": "cleared"}, format="json").status_code == 403
    same = mlro_client.post(unfreeze, {"reason": "cleared"}, format="json")
    assert same.status_code == 403 and same.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    assert admin.post(unfreeze, {}, format="json").status_code == 400
    done = admin.post(unfreeze, {"reason": "Court order lifted"}, format="json")
    assert done.status_code == 200 and done.json()["data"]["isFrozen"] is False
    twice = admin.post(unfreeze, {"reason": "again"}, format="json")
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "INVALID_TRANSITION"


def test_screen_answers_entries_best_first_and_writes_nothing(staff_client):
    make_entry("Viktor Anatolyevich Bout", aliases=["Victor Butt"], dates_of_birth=["1967-01-13"])
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    r = client.post(SCREEN, {"name": "viktor bout", "dateOfBirth": "1967-01-13"}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["count"] == 1 and body["data"][0]["entry"]["name"] == "Viktor Anatolyevich Bout"
    assert body["data"][0]["score"] >= 0.8 and body["data"][0]["explanation"]
    assert not SanctionsMatch.objects.exists()
    assert client.post(SCREEN, {}, format="json").status_code == 400
