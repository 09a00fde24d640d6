from decimal import Decimal

import pytest
from django.core.files.storage import default_storage
from django.db import connection

from backoffice.models import AuditLog
from kyc import hooks
from kyc.models import KycDocument, PlatformUser, Transaction, VerificationRecord
from kyc.services import transaction_record
from kyc.tests.factories import KycDocumentFactory, PlatformUserFactory, VerificationRecordFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def full_user():
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("50.00"))
    transaction_record(user=user, type="WITHDRAWAL", amount=Decimal("20.00"))
    docs = [KycDocumentFactory(user=user, type=t) for t in ("ID_FRONT", "SELFIE")]
    VerificationRecordFactory(user=user)
    return user, docs


def test_purge_deletes_the_user_and_everything_of_theirs(admin_client_api, media, django_capture_on_commit_callbacks):
    user, docs = full_user()
    names = [d.file.name for d in docs]
    assert all(default_storage.exists(n) for n in names)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client_api.delete(user_url(user, "purge"))
    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "message": "User permanently deleted",
        "data": {"id": str(user.pk), "deleted": {"transactions": 2, "documents": 2, "verifications": 1}},
    }
    assert not PlatformUser.objects.filter(pk=user.pk).exists()
    assert not Transaction.objects.exists() and not KycDocument.objects.exists()
    assert not VerificationRecord.objects.exists()
    assert not any(default_storage.exists(n) for n in names)


def test_files_stay_until_the_transaction_commits(admin_client_api, media, django_capture_on_commit_callbacks):
    user, docs = full_user()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        admin_client_api.delete(user_url(user, "purge"))
    assert default_storage.exists(docs[0].file.name)
    # the files' deletion; on PostgreSQL after the wait for the commit's flush that the audit entry asks for
    names = [callback.__name__ for callback in callbacks]
    assert names[:-1] == (["wait_for_flush"] if connection.vendor == "postgresql" else [])
    assert "purge" in callbacks[-1].__qualname__


def test_purge_is_audited_without_personal_data(admin_client_api, media):
    user, _ = full_user()
    admin_client_api.delete(user_url(user, "purge"))
    entry = AuditLog.objects.get(action="user.purge")
    assert entry.object_id == str(user.pk)
    assert user.phone_number not in str(entry.changes)


def test_a_purge_guard_that_holds_the_user_refuses_with_409_retention_hold(admin_client_api, media, monkeypatch):
    user, _ = full_user()
    asked = []
    monkeypatch.setattr(hooks.purge_held, "_functions", [lambda *, user: asked.append(user.pk) or True])
    response = admin_client_api.delete(user_url(user, "purge"))
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "RETENTION_HOLD"
    assert asked == [user.pk]
    assert PlatformUser.objects.filter(pk=user.pk).exists() and Transaction.objects.filter(user=user).count() == 2


def test_purging_an_unknown_user_is_404(admin_client_api):
    response = admin_client_api.delete("/api/v1/admin/users/3f0e7a52-0d55-4a8e-8a8c-1f2a3b4c5d6e/purge")
    assert response.status_code == 404 and response.json()["message"] == "User not found"
