"""Tipping-off: only compliance roles reach a SAR; support and finance get 403 everywhere, others 401."""

import pytest

from backoffice import tokens
from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.tests.sar.conftest import client_for
from kyc.tests.factories import PlatformUserFactory


def endpoints(sar, user):
    base = "/api/v1/admin/aml/sars"
    return [
        ("get", base, None),
        (
            "post",
            base,
            {
                "entityUserId": str(user.pk),
                "suspiciousActivityType": "fraud",
                "activityDescription": "x",
                "dateOfSuspiciousActivity": "2026-01-01",
                "amountInvolved": 1,
            },
        ),
        ("put", f"{base}/{sar.pk}/status", {"status": "PENDING_REVIEW"}),
        ("get", f"{base}/{sar.pk}/export", None),
        ("get", f"{base}/{sar.sar_id}/export?format=goaml", None),
        ("patch", f"{base}/{sar.pk}", {"activityDescription": "y"}),
        ("post", f"{base}/{sar.pk}/return", {"reason": "z"}),
        ("get", f"{base}/{sar.pk}/comments", None),
        ("post", f"{base}/{sar.pk}/comments", {"text": "hello"}),
        ("get", f"{base}/{sar.sar_id}/attachments", None),
        ("post", f"{base}/{sar.sar_id}/attachments", {"file": "x"}),
    ]


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_get_403_on_every_sar_endpoint(make_sar, subject, role):
    sar = make_sar()
    client = client_for(StaffFactory(role=role))
    for method, path, body in endpoints(sar, subject):
        r = getattr(client, method)(path, body, format="json") if body else getattr(client, method)(path)
        assert r.status_code == 403, (method, path, r.content)
        assert r.json()["error"]["code"] == "FORBIDDEN"
        assert sar.sar_id.encode() not in r.content


@pytest.mark.parametrize("role", [StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN])
def test_compliance_roles_can_list_and_export(make_sar, role):
    sar = make_sar()
    client = client_for(StaffFactory(role=role))
    assert client.get("/api/v1/admin/aml/sars").status_code == 200
    assert client.get(f"/api/v1/admin/aml/sars/{sar.pk}/export").status_code == 200


def test_a_platform_users_token_never_opens_the_sar_list(api, db):
    user = PlatformUserFactory()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens.issue_pair(kind='user', principal_id=user.pk).access}")
    assert api.get("/api/v1/admin/aml/sars").status_code in (401, 403)


def test_no_token_is_401(api, db):
    assert api.get("/api/v1/admin/aml/sars").status_code == 401


def test_a_wrong_method_is_405_in_the_envelope(clients):
    r = clients["admin"].patch("/api/v1/admin/aml/sars", {}, format="json")
    assert r.status_code == 405 and r.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
