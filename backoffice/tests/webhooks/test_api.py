"""/admin/webhooks: admins only; the secret in the creation's answer only; the contract's URL rules."""

import socket

import pytest

from backoffice import sealing
from backoffice.choices import StaffRole
from backoffice.models import AuditLog, WebhookEndpoint
from backoffice.services import webhooks

pytestmark = pytest.mark.django_db

URL = "/api/v1/admin/webhooks"


def create(client, **body):
    body = {"url": "https://platform.example.org/hooks", "events": ["transaction.released"], **body}
    return client.post(URL, body, format="json")


def test_create_shows_the_secret_once(admin_client_api):
    response = create(admin_client_api, description="Ledger service")
    assert response.status_code == 201
    data = response.json()["data"]
    assert data["secret"].startswith("whsec_")
    assert set(data) == {"id", "url", "events", "description", "isActive", "secret", "createdAt"}
    assert data["isActive"] is True and data["events"] == ["transaction.released"]
    one = admin_client_api.get(f"{URL}/{data['id']}").json()["data"]
    listed = admin_client_api.get(URL).json()["data"]
    assert "secret" not in one and all("secret" not in row for row in listed)
    entry = AuditLog.objects.get(action="webhook_endpoint.create")
    assert data["secret"] not in str(entry.changes)


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.FINANCE])
def test_only_admins(staff_client, role):
    client, _ = staff_client(role)
    assert create(client).status_code == 403
    assert client.get(URL).status_code == 403


@pytest.mark.parametrize(
    "url",
    [
        "http://platform.example.org/hooks",  # http:// only for allowed hosts
        "https://127.0.0.1/hooks",
        "https://localhost/hooks",
        "https://10.1.2.3/hooks",
        "https://192.168.0.10/hooks",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hooks",
        "https://[::ffff:10.0.0.1]/hooks",
        "https://0.0.0.0/hooks",
        "https://user:pass@platform.example.org/hooks",
        "ftp://platform.example.org/hooks",
        "not a url",
    ],
)
def test_urls_the_contract_forbids_are_400(admin_client_api, url):
    response = create(admin_client_api, url=url)
    assert response.status_code == 400, url
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "url" in response.json()["error"]["details"]
    assert not WebhookEndpoint.objects.exists()


def test_a_name_that_resolves_to_a_private_address_is_400(admin_client_api, monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 1, 6, "", ("10.0.0.5", 443))])
    assert create(admin_client_api, url="https://hooks.platform.example/x").status_code == 400


def test_an_allowed_host_may_be_http_and_local(admin_client_api, settings):
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    assert create(admin_client_api, url="http://127.0.0.1:9999/hooks").status_code == 201


@pytest.mark.parametrize("events", [[], ["transaction.created"], "user.frozen", None])
def test_events_must_be_a_non_empty_subset(admin_client_api, events):
    response = create(admin_client_api, events=events)
    details = response.json()["error"]["details"]
    assert response.status_code == 400 and any(key.startswith("events") for key in details)


def test_delete_is_204_and_then_404(admin_client_api):
    endpoint_id = create(admin_client_api).json()["data"]["id"]
    assert admin_client_api.delete(f"{URL}/{endpoint_id}").status_code == 204
    assert admin_client_api.get(f"{URL}/{endpoint_id}").status_code == 404
    assert admin_client_api.get(f"{URL}/not-a-uuid").status_code == 404
    assert WebhookEndpoint.objects.get(pk=endpoint_id).deleted_at is not None


def test_rotation_gives_a_new_secret_once(admin_client_api):
    created = create(admin_client_api).json()["data"]
    rotated = admin_client_api.post(f"{URL}/{created['id']}/rotate-secret").json()["data"]
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != created["secret"]
    endpoint = WebhookEndpoint.objects.get(pk=created["id"])
    previous = sealing.unseal(endpoint.previous_secret_sealed, purpose=webhooks.SECRET_PURPOSE)
    assert previous == created["secret"] and endpoint.previous_secret_expires_at
    assert webhooks.signing_secret(endpoint) == rotated["secret"]
