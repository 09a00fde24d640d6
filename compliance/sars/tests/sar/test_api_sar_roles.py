"""Tipping-off: only compliance roles reach a SAR; support and finance get 403 everywhere, others 401."""

import pytest

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.tests.sar.helpers import client_for
from kyc.tests.factories import PlatformUserFactory


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
