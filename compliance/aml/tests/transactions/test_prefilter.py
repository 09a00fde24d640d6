"""The record-time prefilter never skips a rule that would hit: on a random ledger, every hit the evaluator
finds for a new row is on a rule the prefilter let run (and the prefilter does skip most rules)."""

import datetime as dt
import random
from decimal import Decimal

import pytest

from compliance.aml.engine.base import Scope
from compliance.aml.engine.hooks import screening_paused
from compliance.aml.engine.prefilter import could_hit
from compliance.aml.engine.runner import evaluate
from compliance.aml.tests.transactions.conftest import make_rule
from compliance.aml.tests.transactions.test_decisions_per_rule_kind import NOON, SCENARIOS
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db


def test_no_hit_is_ever_skipped_on_a_random_ledger():
    rng = random.Random(2026)
    rules = [make_rule(rule_type, **params) for rule_type, (params, _p, _f) in SCENARIOS.items()]
    rules.append(make_rule("regional_risk", regions=["Ṁbabane", "  lavumisa "], thresholdAmount=5))
    users = [
        PlatformUserFactory(balance=Decimal("1000000"), occupation=rng.choice(["Student", "Teacher", ""]))
        for _ in range(4)
    ]
    users[0].is_potential_pep = True
    users[0].save(update_fields=["is_potential_pep"])
    vendors = [VendorFactory(business_sector=s) for s in ("Gambling", "Retail")]
    types = ["TOP_UP", "TRANSFER_IN", "TRANSFER_OUT", "VENDOR_PAYMENT", "WITHDRAWAL", "CARD_PAYMENT"]
    checked = skipped = hits = 0
    moment = NOON - dt.timedelta(days=3)
    for _ in range(160):
        moment += dt.timedelta(minutes=rng.randint(1, 50))
        user = rng.choice(users)
        kind = rng.choice(types)
        fields = {
            "type": kind,
            "amount": Decimal(rng.choice([50, 400, 505, 950, 1000, 1500, 2500])),
            "channel": rng.choice(["WALLET", "MOBILE_MONEY", "CARD"]),
            "country": rng.choice(["SZ", "SZ", "KP", "ZA"]),
            "region": rng.choice(["", "Lavumisa", "lavumisa ", "Manzini", "Ṁbabane"]),
            "created_at": moment,
        }
        if kind == "TRANSFER_IN":
            fields["counterparty_user"] = rng.choice([u for u in users if u != user])
        if kind in ("VENDOR_PAYMENT", "CARD_PAYMENT"):
            fields["counterparty_vendor"] = rng.choice(vendors + [None])
        with screening_paused():
            tx = transaction_record(user=user, **fields)
        scope = Scope(since=tx.created_at, until=tx.created_at, user_id=user.pk)
        for rule in rules:
            would = could_hit(rule, tx)
            found = any(tx.pk in h.transaction_ids for h in evaluate(rule, scope))
            checked += 1
            skipped += not would
            hits += found
            assert would or not found, (rule.rule_type, fields)
    assert hits > 20 and skipped > checked / 3, (hits, skipped, checked)
