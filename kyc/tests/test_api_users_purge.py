import datetime as dt
from decimal import Decimal

import pytest
from django.core.files.storage import default_storage

from backoffice.models import AuditLog
from compliance.models import SAR, Alert
from kyc.models import KycDocument, PlatformUser, Transaction, VerificationRecord
from kyc.services import transaction_record
from kyc.tests.conftest import user_url
from kyc.tests.factories import KycDocumentFactory, PlatformUserFactory, VerificationRecordFactory

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
    assert len(callbacks) == 1


def test_purge_is_audited_without_personal_data(admin_client_api, media):
    user, _ = full_user()
    admin_client_api.delete(user_url(user, "purge"))
    entry = AuditLog.objects.get(action="user.purge")
    assert entry.object_id == str(user.pk)
    assert user.phone_number not in str(entry.changes)


def _sar(user, staff, **extra):
    return SAR.objects.create(
        entity_user=user,
        suspicious_activity_type="structuring",
        activity_description="Deposits under threshold",
        date_of_suspicious_activity=dt.date(2026, 10, 1),
        amount_involved=Decimal("1000.00"),
        filed_by=staff,
        **extra,
    )


def test_the_subject_of_a_sar_is_kept_409_retention_hold(staff_client, media):
    client, staff = staff_client("admin")
    user, _ = full_user()
    _sar(user, staff)
    response = client.delete(user_url(user, "purge"))
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "RETENTION_HOLD"
    assert PlatformUser.objects.filter(pk=user.pk).exists()
    assert Transaction.objects.filter(user=user).count() == 2


def test_a_user_whose_ledger_a_sar_cites_is_kept_too(staff_client, media):
    client, staff = staff_client("admin")
    subject = PlatformUserFactory()
    counterparty, _ = full_user()
    sar = _sar(subject, staff)
    sar.related_transactions.add(counterparty.transactions.first())
    assert client.delete(user_url(counterparty, "purge")).status_code == 409


def test_a_user_whose_alert_a_sar_cites_is_kept_too(staff_client, media):
    client, staff = staff_client("admin")
    subject = PlatformUserFactory()
    other, _ = full_user()
    alert = Alert.objects.create(user=other, dedup_key=f"test-{other.pk}")
    _sar(subject, staff).related_alerts.add(alert)
    assert client.delete(user_url(other, "purge")).status_code == 409


def test_alerts_of_a_user_without_a_sar_go_with_the_purge(admin_client_api, media):
    user, _ = full_user()
    Alert.objects.create(user=user, dedup_key=f"test-{user.pk}")
    assert admin_client_api.delete(user_url(user, "purge")).status_code == 200
    assert not Alert.objects.exists()


def test_purging_an_unknown_user_is_404(admin_client_api):
    response = admin_client_api.delete("/api/v1/admin/users/3f0e7a52-0d55-4a8e-8a8c-1f2a3b4c5d6e/purge")
    assert response.status_code == 404 and response.json()["message"] == "User not found"
