import pytest

from backoffice.models import AuditLog
from kyc.tests.factories import PASSWORD, PlatformUserFactory
from kyc.tests.helpers import BASE, user_url

pytestmark = pytest.mark.django_db


def test_delete_archives_the_user(admin_client_api):
    user = PlatformUserFactory()
    response = admin_client_api.delete(user_url(user))
    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "message": "User archived",
        "data": {"id": str(user.pk), "isArchived": True},
    }
    user.refresh_from_db()
    assert user.is_archived and user.archived_at is not None
    assert AuditLog.objects.filter(action="user.archive", object_id=str(user.pk)).count() == 1


def test_unarchive_restores_the_user(admin_client_api):
    user = PlatformUserFactory(is_archived=True)
    response = admin_client_api.post(user_url(user, "unarchive"))
    assert response.status_code == 200
    assert response.json()["message"] == "User restored"
    assert response.json()["data"] == {"id": str(user.pk), "isArchived": False}
    user.refresh_from_db()
    assert not user.is_archived and user.archived_at is None


def test_archiving_twice_answers_the_same_and_records_once(admin_client_api):
    user = PlatformUserFactory()
    admin_client_api.delete(user_url(user))
    again = admin_client_api.delete(user_url(user))
    assert again.status_code == 200 and again.json()["data"]["isArchived"] is True
    assert AuditLog.objects.filter(action="user.archive").count() == 1


def test_an_archived_user_leaves_the_active_list(admin_client_api):
    user = PlatformUserFactory()
    admin_client_api.delete(user_url(user))
    assert admin_client_api.get(BASE).json()["data"] == []


def test_an_archived_user_cannot_log_in(admin_client_api, api):
    user = PlatformUserFactory()
    admin_client_api.delete(user_url(user))
    response = api.post(
        "/api/v1/auth/user/login", {"phoneNumber": user.phone_number, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "ACCOUNT_ARCHIVED"


def test_archiving_an_unknown_user_is_404(admin_client_api):
    response = admin_client_api.delete(f"{BASE}/7d1f6a53-4a09-4a51-8c8e-0b6c2b9b1a11")
    assert response.status_code == 404 and response.json()["message"] == "User not found"
