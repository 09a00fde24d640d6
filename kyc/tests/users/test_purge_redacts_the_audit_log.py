"""A purge blanks what the audit log holds about the user and the chain still verifies: erasure and integrity."""

import pytest

from backoffice.models import AuditLog
from backoffice.services.audit_verify import audit_verify
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def test_a_purge_redacts_the_users_entries_and_the_chain_still_verifies(admin_client_api, media):
    user = PlatformUserFactory(first_name="Sibusiso", email="sibusiso@example.com")
    assert admin_client_api.put(user_url(user), {"firstName": "Sibu"}, format="json").status_code == 200
    about = AuditLog.objects.filter(object_id=str(user.pk))
    assert "Sibusiso" in str(about.get(action="user.update").changes)

    assert admin_client_api.delete(user_url(user, "purge")).status_code == 200

    update = about.get(action="user.update")
    assert "Sibusiso" not in str(update.changes) and "Sibu" not in str(update.changes)
    assert update.redacted_at is not None and update.changes == {"redacted": True}
    redaction = about.get(action="audit.redact")
    assert redaction.changes == {"sequences": [update.sequence]}
    # the purge's own entry (counts only) is written after the redaction and is not redacted
    assert about.get(action="user.purge").redacted_at is None
    result = audit_verify()
    assert result.intact, result.first_broken


def test_the_audit_api_says_an_entry_was_redacted(admin_client_api, media):
    user = PlatformUserFactory()
    admin_client_api.put(user_url(user), {"firstName": "Zanele"}, format="json")
    admin_client_api.delete(user_url(user, "purge"))
    rows = admin_client_api.get("/api/v1/admin/audit-logs", {"action": "user.update"}).json()["data"]
    assert rows[0]["redactedAt"] is not None and rows[0]["changes"] == {"redacted": True}
