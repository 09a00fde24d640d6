"""KYC admin pages cost the same number of queries however long a user's ledger, documents or history are."""

from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from backoffice.tests.factories import StaffFactory
from kyc.models import Transaction
from kyc.services import credit_request_approve, transaction_record, user_credit
from kyc.tests.factories import KycDocumentFactory, PlatformUserFactory, TransactionFactory, VerificationRecordFactory
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db

COVERED = {"platformuser", "transaction", "creditrequest"}


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
    _counterparties(user, 1)  # the page shows counterparties (one and two hops) from the start
    assert_flat(client, reverse("admin:kyc_platformuser_changelist"), lambda n: PlatformUserFactory.create_batch(n))

    def grow_everything(n):
        _ledger(user)(n)
        KycDocumentFactory.create_batch(n, user=user)
        VerificationRecordFactory.create_batch(n, user=user)
        _counterparties(user, n)

    assert_flat(client, reverse("admin:kyc_platformuser_change", args=[user.pk]), grow_everything)
    assert_flat(
        client, reverse("admin:kyc_platformuser_credit_wallet", args=[user.pk]) + "?key=" + "a" * 32, _ledger(user)
    )


def _counterparties(user, n):
    """Transfers with ``n`` new wallets and a vendor, each wallet paying a third person: one and two hops."""
    vendor = VendorFactory()
    for _ in range(n):
        other = PlatformUserFactory()
        TransactionFactory(user=user, type="TRANSFER_OUT", amount=Decimal("5.00"), counterparty_user=other)
        TransactionFactory(
            user=other, type="TRANSFER_OUT", amount=Decimal("3.00"), counterparty_user=PlatformUserFactory()
        )
        TransactionFactory(user=user, type="VENDOR_PAYMENT", amount=Decimal("2.00"), counterparty_vendor=vendor)


def test_credit_request_queue_and_page(settings):
    settings.CREDIT_APPROVAL_THRESHOLD = Decimal("10")
    client = admin_browser()
    maker, checker = StaffFactory(role="finance"), StaffFactory(role="finance")
    user = PlatformUserFactory()

    def ask(n):
        return [user_credit(user=user, actor=maker, amount=Decimal("50"), reason=f"r{i}").request for i in range(n)]

    first = ask(1)[0]
    assert_flat(client, reverse("admin:kyc_creditrequest_changelist"), ask)
    credit_request_approve(credit_request=first, actor=checker)
    assert_flat(client, reverse("admin:kyc_creditrequest_change", args=[first.pk]), lambda n: ask(n), by=2)


def test_ledger_pages():
    client = admin_browser()
    user = PlatformUserFactory()
    _ledger(user)(1)
    assert_flat(client, reverse("admin:kyc_transaction_changelist"), lambda n: _ledger(PlatformUserFactory())(n))
    tx = Transaction.objects.first()
    assert_flat(client, reverse("admin:kyc_transaction_change", args=[tx.pk]), _ledger(user))
