"""What the platform is told: a held payment released or rejected, a verification finished; written with the change."""

from decimal import Decimal

import pytest

from backoffice.choices import WebhookEventType
from backoffice.models import WebhookDelivery, WebhookEvent
from backoffice.services import webhooks
from backoffice.tests.factories import StaffFactory
from kyc.errors import InsufficientFunds
from kyc.services.ledger import held_transaction_reject, held_transaction_release
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = pytest.mark.django_db


def held_transaction(user, **fields):
    """A row the intake held (REVIEW): what a compliance officer then releases or rejects."""
    return TransactionFactory(user=user, status="HELD", decision="REVIEW", **fields)


@pytest.fixture
def subscribed(receiver):
    webhooks.webhook_endpoint_create(
        actor=StaffFactory(role="admin"), url=receiver.url, event_types=list(WebhookEventType.values)
    )
    return receiver


def test_a_release_tells_the_platform_the_state_after_it(subscribed):
    user = PlatformUserFactory(balance=Decimal("100.00"))
    tx = held_transaction(user, amount=Decimal("40.00"), type="TOP_UP", external_id="ext-1")
    held_transaction_release(transaction_id=tx.pk, actor=StaffFactory(role="compliance_officer"), note="checked")
    event = WebhookEvent.objects.get()
    assert event.type == "transaction.released"
    assert event.data == {
        "transaction_id": str(tx.pk),
        "external_id": "ext-1",
        "user_id": str(user.pk),
        "status": "COMPLETED",
        "amount": 40.0,
        "balance": 140.0,
    }
    assert WebhookDelivery.objects.filter(event=event).count() == 1
    assert webhooks.webhook_sweep()["delivered"] == 1


def test_a_rejection_too(subscribed):
    user = PlatformUserFactory(balance=Decimal("100.00"))
    tx = held_transaction(user, amount=Decimal("40.00"), type="TOP_UP", external_id="ext-2")
    held_transaction_reject(transaction_id=tx.pk, actor=StaffFactory(role="compliance_officer"), note="no")
    event = WebhookEvent.objects.get()
    assert event.type == "transaction.rejected" and event.data["status"] == "REJECTED"
    assert event.data["balance"] == 100.0


def test_a_refused_release_tells_nothing(subscribed):
    user = PlatformUserFactory(balance=Decimal("10.00"))
    tx = held_transaction(user, amount=Decimal("40.00"), type="WITHDRAWAL", external_id="ext-3")
    with pytest.raises(InsufficientFunds):  # 409: rolled back, no event
        held_transaction_release(transaction_id=tx.pk, actor=StaffFactory(role="compliance_officer"), note="x")
    assert not WebhookEvent.objects.exists()


def test_a_freeze_and_its_lifting_tell_the_platform_that_and_nothing_more(subscribed):
    from kyc.services.freeze import user_freeze, user_unfreeze

    user = PlatformUserFactory()
    user_freeze(user=user, actor=StaffFactory(role="compliance_officer"), reason="UN list QDi.001 confirmed")
    user_unfreeze(user=user, actor=StaffFactory(role="mlro"), reason="the listing was a namesake")
    frozen, unfrozen = WebhookEvent.objects.order_by("created_at")
    assert (frozen.type, frozen.data) == ("user.frozen", {"user_id": str(user.pk), "is_frozen": True})
    assert (unfrozen.type, unfrozen.data) == ("user.unfrozen", {"user_id": str(user.pk), "is_frozen": False})
    assert webhooks.webhook_sweep()["delivered"] == 2
