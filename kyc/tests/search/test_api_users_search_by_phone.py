import pytest

from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import BASE

pytestmark = pytest.mark.django_db

URL = f"{BASE}/search-by-phone"


@pytest.mark.parametrize("typed", ["+26876123456", "+268 7612 3456", "76123456", "0026876123456"])
def test_finds_the_user_whatever_the_format_of_the_number(admin_client_api, typed):
    user = PlatformUserFactory(
        phone_number="+26876123456", first_name="Ayanda", last_name="Shongwe", nfc_card_number="NFC-77"
    )
    response = admin_client_api.post(URL, {"phoneNumber": typed}, format="json")
    assert response.status_code == 200
    assert response.json()["data"] == {
        "id": str(user.pk),
        "phoneNumber": "+26876123456",
        "firstName": "Ayanda",
        "lastName": "Shongwe",
        "fullName": "Ayanda Shongwe",
        "verificationStatus": "PENDING",
        "isVerified": False,
        "nfcCardNumber": "NFC-77",
    }


def test_no_user_with_that_number_is_404_user_not_found(admin_client_api):
    response = admin_client_api.post(URL, {"phoneNumber": "+26879999999"}, format="json")
    assert response.status_code == 404
    assert response.json()["message"] == "User not found"


def test_an_archived_user_is_not_offered_for_card_linking(admin_client_api):
    PlatformUserFactory(phone_number="+26876123456", is_archived=True)
    assert admin_client_api.post(URL, {"phoneNumber": "+26876123456"}, format="json").status_code == 404


def test_phone_number_is_required(admin_client_api):
    response = admin_client_api.post(URL, {}, format="json")
    assert response.status_code == 400
    assert "phoneNumber" in response.json()["error"]["details"]


@pytest.mark.parametrize("typed", ["not a number", "123"])
def test_something_that_is_not_a_phone_number_is_400(admin_client_api, typed):
    response = admin_client_api.post(URL, {"phoneNumber": typed}, format="json")
    assert response.status_code == 400
    assert "phoneNumber" in response.json()["error"]["details"]
