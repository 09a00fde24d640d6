"""The audit log page: sequence and hash shown, and "Verify the chain now" with its result in words."""

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.audit.helpers import write_entries
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

PAGE = "/admin/backoffice/auditlog/"


@pytest.mark.parametrize("role", [StaffRole.ADMIN, StaffRole.MLRO])
def test_the_page_shows_sequence_and_hash_and_verifies_on_demand(client, role):
    write_entries(3)
    client.force_login(StaffFactory(role=role))
    page = client.get(PAGE).content.decode()
    assert AuditLog.objects.get(sequence=3).hash[:12] in page
    assert "Verify the chain now" in page
    answer = client.get(PAGE + "verify-chain/", follow=True)
    assert "The audit chain is intact: 3 entries verified" in answer.content.decode()
    AuditLog.objects.filter(sequence=2).update(object_type="forged")
    answer = client.get(PAGE + "verify-chain/", follow=True).content.decode()
    assert "The audit chain is broken at entry 2" in answer and "CHANGED" in answer


def test_roles_without_the_log_cannot_verify(client):
    client.force_login(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    assert client.get(PAGE + "verify-chain/").status_code == 403
