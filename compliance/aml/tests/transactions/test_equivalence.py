"""Record-time decisions and the batch scan agree: on one generated ledger, with every rule type hitting, both
raise the same alerts (same rule, same dedup key, same transactions).

The ledger is the per-type scenarios' (each type's pattern completed by one customer) plus seeded random
background activity for every customer. Path one records every row through the ledger service with
screening on, in time order, as the payment platform would send them; path two recomputes the alerts from
the same ledger with ``run_aml_scan``'s batch scan, after the record-time alerts are set aside.
"""

import datetime as dt
import random
from decimal import Decimal

import pytest

from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.scans import scan
from compliance.aml.tests.transactions.helpers import NOON, SCENARIOS, customer, make_rule
from kyc.models import Transaction
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db


def alerts_seen():
    return {
        (a.rule.rule_id, a.dedup_key, frozenset(t.pk for t in a.related_transactions.all()))
        for a in Alert.objects.select_related("rule").prefetch_related("related_transactions")
    }


def test_record_time_and_batch_scan_raise_the_same_alerts(django_capture_on_commit_callbacks):
    rng = random.Random(17)
    ctx = {
        "senders": [PlatformUserFactory() for _ in range(3)],
        "vendor": VendorFactory(),
        "casino": VendorFactory(business_sector="Gambling"),
    }
    for rule_type, (params, _past, _final) in SCENARIOS.items():
        make_rule(rule_type, **params)  # alert only: every row completes, so both paths see one ledger
    rows = []
    for rule_type, (_params, past, final) in sorted(SCENARIOS.items()):
        user = customer()
        rows += [(fields.pop("created_at"), user, fields) for fields in past(user, ctx)]
        rows.append((NOON, user, final(user, ctx)))
        # the dormant customer stays dormant; everyone else has background activity
        for _ in range(0 if rule_type == "account_lifecycle" else 6):
            minutes = rng.randint(5, 4 * 24 * 60)
            amount = Decimal(rng.randint(1000, 90000)) / 100
            rows.append(
                (
                    NOON - dt.timedelta(minutes=minutes),
                    user,
                    {"type": rng.choice(["TOP_UP", "CARD_PAYMENT"]), "amount": amount},
                )
            )
    rows.sort(key=lambda row: row[0])
    with django_capture_on_commit_callbacks(execute=True):
        for created_at, user, fields in rows:
            transaction_record(user=user, created_at=created_at, **fields)
    assert Transaction.objects.exclude(status="COMPLETED").count() == 0
    at_record_time = alerts_seen()
    rule_ids = set(AMLRule.objects.values_list("rule_id", flat=True))
    assert {rule_id for rule_id, _k, _t in at_record_time} == rule_ids, "every rule type must hit"

    # the batch scan of the same ledger raises nothing new on top of the record-time alerts ...
    assert scan(since=NOON - dt.timedelta(days=90), until=NOON + dt.timedelta(hours=1)).alerts_created == 0
    # ... and, from scratch, exactly the same alerts
    Alert.objects.all().delete()
    scan(since=NOON - dt.timedelta(days=90), until=NOON + dt.timedelta(hours=1))
    assert alerts_seen() == at_record_time
