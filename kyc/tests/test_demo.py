import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db.models import Sum

from kyc.choices import CREDIT_TYPES, RiskRating, VerificationStatus
from kyc.models import KycDocument, PlatformUser, Transaction, VerificationRecord

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def snapshot():
    return (
        sorted(PlatformUser.objects.values_list("phone_number", "balance", "verification_status", "is_archived")),
        sorted(Transaction.objects.values_list("reference", "amount", "created_at")),
        KycDocument.objects.count(),
        VerificationRecord.objects.count(),
    )


def test_seed_demo_covers_every_state_and_running_it_twice_changes_nothing(demo_data):
    users = PlatformUser.objects.all()
    assert set(users.values_list("verification_status", flat=True)) == set(VerificationStatus.values)
    assert set(users.values_list("risk_rating", flat=True)) == set(RiskRating.values)
    assert users.filter(is_archived=True).exists() and users.filter(is_archived=False).exists()
    assert users.exclude(nfc_card_number=None).exists() and users.filter(nfc_card_number=None).exists()
    # every customer who sent documents sent a selfie (the sanctions demo's customers, registered by phone, sent none)
    with_documents = users.filter(documents__isnull=False).distinct()
    assert with_documents.count() >= users.count() - 3
    assert KycDocument.objects.filter(type="SELFIE").count() == with_documents.count()
    span = Transaction.objects.order_by("created_at")
    assert (span.last().created_at - span.first().created_at).days >= 90
    assert set(Transaction.objects.values_list("type", flat=True)) >= {
        "TOP_UP",
        "VENDOR_PAYMENT",
        "WITHDRAWAL",
        "TRANSFER_IN",
        "TRANSFER_OUT",
    }
    # every balance is the sum its ledger explains
    for user in PlatformUser.objects.all():
        credits = user.transactions.filter(type__in=CREDIT_TYPES, status="COMPLETED").aggregate(s=Sum("amount"))["s"]
        debits = (
            user.transactions.exclude(type__in=CREDIT_TYPES).filter(status="COMPLETED").aggregate(s=Sum("amount"))["s"]
        )
        assert user.balance == (credits or Decimal(0)) - (debits or Decimal(0))
    assert_ledgers_are_consistent_in_time_order()
    first = snapshot()
    call_command("seed_demo", stdout=io.StringIO())
    assert snapshot() == first


def assert_ledgers_are_consistent_in_time_order():
    """Every wallet's rows, oldest first, each start from the one before: its balance is the last balance_after."""
    for user in PlatformUser.objects.all():
        rows = list(user.transactions.filter(status="COMPLETED").order_by("created_at", "id"))
        if not rows:
            assert user.balance == 0, user.phone_number
            continue
        moments = [row.created_at for row in rows]
        assert len(set(moments)) == len(moments), f"{user.phone_number}: two rows at one moment"
        balance = Decimal("0.00")
        for row in rows:
            balance += row.amount if row.type in CREDIT_TYPES else -row.amount
            assert row.balance_after == balance, (user.phone_number, row.reference)
        assert user.balance == rows[-1].balance_after, user.phone_number
