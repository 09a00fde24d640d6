"""The contract's role table on /admin/users: who may read, update, archive, credit and purge."""

import pytest

from kyc.tests.conftest import BASE, user_url
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db

ROLES = ["support", "compliance_officer", "mlro", "finance", "admin"]


def call(client, operation, user):
    return {
        "list": lambda: client.get(BASE),
        "detail": lambda: client.get(user_url(user)),
        "search": lambda: client.get(f"{BASE}/search", {"q": "abc"}),
        "stats": lambda: client.get(f"{BASE}/stats"),
        "history": lambda: client.get(user_url(user, "history")),
        "by_phone": lambda: client.post(f"{BASE}/search-by-phone", {"phoneNumber": user.phone_number}, format="json"),
        "update": lambda: client.put(user_url(user), {"firstName": "Renamed"}, format="json"),
        "archive": lambda: client.delete(user_url(user)),
        "unarchive": lambda: client.post(user_url(user, "unarchive")),
        "credit": lambda: client.post(user_url(user, "add-balance"), {"amount": 1, "reason": "r"}, format="json"),
        "purge": lambda: client.delete(user_url(user, "purge")),
    }[operation]()


ALLOWED = {
    "list": set(ROLES),
    "detail": set(ROLES),
    "search": set(ROLES),
    "stats": set(ROLES),
    "history": set(ROLES),
    "by_phone": set(ROLES),
    "update": {"support", "compliance_officer", "mlro", "admin"},
    "archive": {"compliance_officer", "mlro", "admin"},
    "unarchive": {"compliance_officer", "mlro", "admin"},
    "credit": {"finance", "admin"},
    "purge": {"admin"},
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("operation", sorted(ALLOWED))
def test_role_table(staff_client, role, operation):
    client, _ = staff_client(role)
    user = PlatformUserFactory()
    response = call(client, operation, user)
    if role in ALLOWED[operation]:
        assert response.status_code == 200, response.content
    else:
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "FORBIDDEN"
