"""On PostgreSQL, with real threads: an alert raised on a customer whose payment is being taken at that moment
waits for the payment, and neither fails.

Every wallet write locks the customer's row, then appends its audit entry (the chain's head is locked until
commit). Raising an alert appended its entry first and locked the customer's row after (their risk score
follows the alert): with a payment in between, each waited for the other and PostgreSQL broke the deadlock
after a second by failing one of them (seen in bench/aml_decisions.py with 8 callers).
"""

import threading
import time
import uuid
from decimal import Decimal

import pytest
from django.db import transaction

from backoffice.audit import audit_record
from backoffice.tests.concurrency import run_in_threads
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alerts import NewAlert, alert_raise_many
from kyc.services.ledger import lock_user
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]

# long enough for the alert to reach what it waits on while the payment holds the wallet
ALERT_REACHES_ITS_WAIT = 0.5


def test_an_alert_raised_during_a_payment_on_its_customer_waits_for_it():
    user = PlatformUserFactory(balance=Decimal("100.00"))
    wallet_locked = threading.Event()
    key = f"lock-order-{uuid.uuid4().hex}"

    def payment():
        with transaction.atomic():
            lock_user(user)
            wallet_locked.set()
            time.sleep(ALERT_REACHES_ITS_WAIT)
            audit_record(actor=None, action="transaction.intake", object_type="kyc_platformuser", object_id=user.pk)
        return "paid"

    def alert():
        wallet_locked.wait(5)
        raised = alert_raise_many(alerts=[NewAlert(user_id=user.pk, dedup_key=key, severity="HIGH", details={})])
        return len(raised)

    outcomes = run_in_threads(2, lambda index: payment() if index == 0 else alert())

    assert outcomes == ["paid", 1], outcomes
    assert Alert.objects.filter(dedup_key=key, user=user).count() == 1
