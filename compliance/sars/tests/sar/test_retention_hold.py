"""The legal retention hold: compliance keeps a user the KYC purge would delete while a SAR needs their records."""

import datetime as dt
from decimal import Decimal

import pytest

from compliance.aml.models.alerts import Alert
from compliance.sars.models.sar import SAR
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def full_user():
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("50.00"))
    transaction_record(user=user, type="WITHDRAWAL", amount=Decimal("20.00"))
    return user, None


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
