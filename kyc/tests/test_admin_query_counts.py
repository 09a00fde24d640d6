"""KYC admin pages cost the same number of queries however long a user's ledger, documents or history are."""

from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from kyc.models import Transaction
from kyc.services import transaction_record
from kyc.tests.factories import KycDocumentFactory, PlatformUserFactory, VerificationRecordFactory

pytestmark = pytest.mark.django_db

COVERED = {"platformuser", "transaction"}


def test_every_admin_page_of_the_app_is_covered():
    assert registered_models("kyc") == COVERED


def _ledger(user):
    def grow(n):
        for _ in range(n):
            transaction_record(user=user, type="TOP_UP", amount=Decimal("10.00"))

    return grow


def test_user_list_and_user_page(media):
    client = admin_browser()
    user = PlatformUserFactory()
    _ledger(user)(1)
    assert_flat(client, reverse("admin:kyc_platformuser_changelist"), lambda n: PlatformUserFactory.create_batch(n))

    def grow_everything(n):
        _ledger(user)(n)
        KycDocumentFactory.create_batch(n, user=user)
        VerificationRecordFactory.create_batch(n, user=user)

    assert_flat(client, reverse("admin:kyc_platformuser_change", args=[user.pk]), grow_everything)
    assert_flat(
        client, reverse("admin:kyc_platformuser_credit_wallet", args=[user.pk]) + "?key=" + "a" * 32, _ledger(user)
    )


def test_ledger_pages():
    client = admin_browser()
    user = PlatformUserFactory()
    _ledger(user)(1)
    assert_flat(client, reverse("admin:kyc_transaction_changelist"), lambda n: _ledger(PlatformUserFactory())(n))
    tx = Transaction.objects.first()
    assert_flat(client, reverse("admin:kyc_transaction_change", args=[tx.pk]), _ledger(user))
