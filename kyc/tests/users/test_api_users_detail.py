import re
import uuid
from decimal import Decimal

import pytest

from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import BASE, user_url

pytestmark = pytest.mark.django_db

KYC_USER_TABLE = {
    "id",
    "phoneNumber",
    "email",
    "firstName",
    "lastName",
    "names",
    "surname",
    "idNumber",
    "dateOfBirth",
    "sex",
    "verificationStatus",
    "riskRating",
    "currentRiskScore",
    "balance",
    "nfcCardNumber",
    "rewardsPoints",
    "referralCode",
    "isVerified",
    "isArchived",
    # contract: sanctions (a frozen wallet)
    "isFrozen",
    "createdAt",
}


def test_detail_is_the_full_kyc_user_table_in_camel_case(admin_client_api):
    user = PlatformUserFactory(
        names="Sipho",
        surname="Dlamini",
        id_number="9001015800087",
        sex="MALE",
        nfc_card_number="NFC-9",
        balance=Decimal("250.75"),
        rewards_points=40,
        date_of_birth="1990-01-01",
    )
    response = admin_client_api.get(user_url(user))
    assert response.status_code == 200
    data = response.json()["data"]
    assert set(data) == KYC_USER_TABLE
    assert data["balance"] == 250.75
    assert data["dateOfBirth"] == "1990-01-01"
    assert data["nfcCardNumber"] == "NFC-9"
    assert data["createdAt"].endswith("Z")


def _keys(value) -> list[str]:
    if isinstance(value, dict):
        return [key for key, inner in value.items() for key in (key, *_keys(inner))]
    if isinstance(value, list):
        return [key for inner in value for key in _keys(inner)]
    return []


def test_detail_says_nothing_about_sars_alerts_or_pep_flags(admin_client_api):
    user = PlatformUserFactory(is_potential_pep=True)
    # the answer's field names, word by word (sarCount, isPep, openAlerts), not its text: a generated customer may be
    # called Sarah or Pepe, and isArchived holds "sar" across two words
    keys = _keys(admin_client_api.get(user_url(user)).json())
    assert "firstName" in keys
    words = {key: [part.lower() for part in re.findall(r"[a-z]+|[A-Z][a-z]*", key)] for key in keys}
    for word in ("sar", "alert", "pep", "suspicious"):
        assert not [key for key, parts in words.items() if any(part.startswith(word) for part in parts)], word


def test_an_archived_user_can_still_be_read(admin_client_api):
    user = PlatformUserFactory(is_archived=True)
    assert admin_client_api.get(user_url(user)).json()["data"]["isArchived"] is True


def test_unknown_user_is_404_user_not_found(admin_client_api):
    response = admin_client_api.get(f"{BASE}/{uuid.uuid4()}")
    assert response.status_code == 404
    assert response.json()["message"] == "User not found"
    assert response.json()["error"]["code"] == "NOT_FOUND"


@pytest.mark.parametrize("suffix", ["", "/history", "/transactions", "/documents", "/verifications"])
def test_a_non_uuid_id_is_a_404_in_the_envelope(admin_client_api, suffix):
    response = admin_client_api.get(f"{BASE}/not-a-uuid{suffix}")
    assert response.status_code == 404
    assert response.json()["message"] == "User not found"


def test_without_a_token_it_is_401(api):
    user = PlatformUserFactory()
    assert api.get(user_url(user)).status_code == 401
