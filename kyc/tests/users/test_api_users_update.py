import pytest

from backoffice.models import AuditLog
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def test_update_changes_names_and_email_and_returns_the_user(admin_client_api):
    user = PlatformUserFactory(first_name="Old", last_name="Name", email="old@example.com")
    response = admin_client_api.put(
        user_url(user), {"firstName": "New", "lastName": "Surname", "email": "New@Example.com"}, format="json"
    )
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["firstName"], data["lastName"], data["email"]) == ("New", "Surname", "new@example.com")
    user.refresh_from_db()
    assert user.first_name == "New" and user.email == "new@example.com"


def test_update_is_audited_with_the_changed_fields(admin_client_api):
    user = PlatformUserFactory(first_name="Old")
    admin_client_api.put(user_url(user), {"firstName": "New"}, format="json")
    entry = AuditLog.objects.get(action="user.update")
    assert entry.object_id == str(user.pk)
    assert entry.changes == {"first_name": {"from": "Old", "to": "New"}}


def test_any_other_field_is_400_validation_error_naming_it_and_nothing_is_written(admin_client_api):
    user = PlatformUserFactory(first_name="Keep")
    response = admin_client_api.put(user_url(user), {"firstName": "Changed", "balance": 1000}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "Validation error"
    assert "balance" in response.json()["error"]["details"]
    user.refresh_from_db()
    assert user.first_name == "Keep" and user.balance == 0
    assert not AuditLog.objects.filter(action="user.update").exists()


@pytest.mark.parametrize("body,field", [({"email": "not-an-email"}, "email"), ({"firstName": ""}, "firstName")])
def test_invalid_values_are_400_with_details(admin_client_api, body, field):
    user = PlatformUserFactory()
    response = admin_client_api.put(user_url(user), body, format="json")
    assert response.status_code == 400
    assert field in response.json()["error"]["details"]


def test_an_empty_body_is_400(admin_client_api):
    assert admin_client_api.put(user_url(PlatformUserFactory()), {}, format="json").status_code == 400


def test_an_email_of_another_user_is_409(admin_client_api):
    PlatformUserFactory(email="taken@example.com")
    user = PlatformUserFactory()
    response = admin_client_api.put(user_url(user), {"email": "TAKEN@example.com"}, format="json")
    assert response.status_code == 409


def test_updating_an_unknown_user_is_404(admin_client_api):
    response = admin_client_api.put(
        "/api/v1/admin/users/00000000-0000-0000-0000-000000000000", {"firstName": "X"}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["message"] == "User not found"


def test_an_unknown_field_and_a_bad_email_are_reported_together(admin_client_api):
    user = PlatformUserFactory(first_name="Old")
    response = admin_client_api.put(
        user_url(user), {"firstName": "New", "email": "not-an-email", "riskRating": "LOW"}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()["error"]["details"]) == {"email", "riskRating"}
    user.refresh_from_db()
    assert user.first_name == "Old"


def test_a_json_array_body_is_400(admin_client_api):
    user = PlatformUserFactory()
    response = admin_client_api.put(user_url(user), [{"firstName": "X"}], format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "VALIDATION_ERROR"
