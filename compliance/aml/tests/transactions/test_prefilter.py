"""The record-time prefilters never skip a rule that would hit: on a random ledger, every hit the evaluator
finds for a new row is on a rule both the row filter and the wallet's hourly activity let run (and they do
skip most rules), and the record-time evaluation anchored on the row finds the same hits on it. The wallet's
activity is kept equal to the ledger through holds, releases and rejections."""

import datetime as dt
import random
from decimal import Decimal
from unittest import mock

import pytest

from compliance.aml.engine.base import Scope
from compliance.aml.engine.prefilter import activity_skips, could_hit
from compliance.aml.engine.runner import evaluate
from compliance.aml.services.screening import screening_paused
from compliance.aml.tests.transactions.helpers import NOON, SCENARIOS, make_rule
from kyc.models import UserActivityHour
from kyc.services import transaction_record
from kyc.services.activity import activity_add, activity_rebuild
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db


def test_no_hit_is_ever_skipped_on_a_random_ledger():
    rng = random.Random(2026)
    rules = [make_rule(rule_type, **params) for rule_type, (params, _p, _f) in SCENARIOS.items()]
    rules.append(make_rule("regional_risk", regions=["Ṁbabane", "  lavumisa "], thresholdAmount=5))
    for statuses in (["PENDING"], ["VERIFIED", "REJECTED"]):  # the vendors are PENDING: one runs, one never can
        rules.append(make_rule("vendor_specific", thresholdAmount=900, timeWindowHours=24, vendorStatuses=statuses))
    users = [
        PlatformUserFactory(balance=Decimal("1000000"), occupation=rng.choice(["Student", "Teacher", ""]))
        for _ in range(4)
    ]
    users[0].is_potential_pep = True
    users[0].save(update_fields=["is_potential_pep"])
    vendors = [VendorFactory(business_sector=s) for s in ("Gambling", "Retail")]
    types = ["TOP_UP", "TRANSFER_IN", "TRANSFER_OUT", "VENDOR_PAYMENT", "WITHDRAWAL", "CARD_PAYMENT"]
    checked = skipped = skipped_by_activity = hits = 0
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
        # as at record time: the row is written, the wallet's activity does not hold it yet
        with screening_paused(), mock.patch("kyc.services.ledger.activity_add"):
            tx = transaction_record(user=user, **fields)
        scope = Scope(since=tx.created_at, until=tx.created_at, user_id=user.pk)
        passed = [rule for rule in rules if could_hit(rule, tx)]
        by_activity = activity_skips(passed, tx)
        anchored = Scope(since=tx.created_at, until=tx.created_at, user_id=user.pk, anchor_id=tx.pk)
        for rule in rules:
            would = rule in passed and rule not in by_activity
            found = any(tx.pk in h.transaction_ids for h in evaluate(rule, scope))
            # the record-time evaluation (one window, the row's) finds exactly the window query's hits on it
            assert _hits_on(tx, evaluate(rule, anchored)) == _hits_on(tx, evaluate(rule, scope)), rule.rule_type
            checked += 1
            skipped += not would
            skipped_by_activity += rule in by_activity
            hits += found
            assert would or not found, (rule.rule_type, fields, rule in by_activity)
        activity_add(tx)
    assert hits > 20 and skipped > checked / 3 and skipped_by_activity > 20, (hits, skipped, skipped_by_activity)


def _hits_on(tx, hits):
    return [(h.key, h.transaction_ids, h.details) for h in hits if tx.pk in h.transaction_ids]


def _activity():
    return sorted(
        UserActivityHour.objects.values_list("user_id", "hour", "type", "channel", "count", "total", "max_amount")
    )


def test_the_hourly_activity_always_equals_the_ledger(django_capture_on_commit_callbacks):
    from backoffice.tests.factories import StaffFactory
    from kyc.services.ledger import held_transaction_reject, held_transaction_release, transaction_intake

    make_rule("threshold", action="hold", thresholdAmount=900)
    make_rule("threshold", action="block", thresholdAmount=2000)
    rng = random.Random(5)
    users = [PlatformUserFactory(balance=Decimal("50000")) for _ in range(3)]
    officer = StaffFactory(role="compliance_officer")
    held = []
    for i in range(60):
        result = transaction_intake(
            external_id=f"e-{i}",
            user_id=rng.choice(users).pk,
            type=rng.choice(["TOP_UP", "WITHDRAWAL", "CARD_PAYMENT"]),
            amount=Decimal(rng.choice([10, 250, 950, 2500])),
            channel=rng.choice(["WALLET", "MOBILE_MONEY"]),
            occurred_at=NOON - dt.timedelta(minutes=rng.randint(0, 3000)),
        )
        if result.transaction.status == "HELD":
            held.append(result.transaction)
    for i, tx in enumerate(held):
        decide = held_transaction_release if i % 2 else held_transaction_reject
        decide(transaction_id=tx.pk, actor=officer, note="checked")
    kept = _activity()
    activity_rebuild()
    assert kept == _activity() and len(kept) > 10


@pytest.mark.parametrize("gap_days", [200, 20])
def test_a_dormant_wallet_waking_is_found_alike_by_the_window_query_and_at_record_time(gap_days):
    # the record-time look-up of the previous row (same second: the smaller id first) against the LAG
    rule = make_rule("account_lifecycle", inactiveDays=90, thresholdAmount=1000)
    user = PlatformUserFactory(balance=Decimal("100000"))
    user.created_at = NOON - dt.timedelta(days=400)
    user.save(update_fields=["created_at"])
    second = NOON.replace(microsecond=0)
    with screening_paused():
        transaction_record(
            user=user, type="TOP_UP", amount=Decimal("50"), created_at=second - dt.timedelta(days=gap_days)
        )
        rows = [
            transaction_record(
                user=user, type="TOP_UP", amount=Decimal("5000"), created_at=second + dt.timedelta(microseconds=m)
            )
            for m in (0, 300, 300, 900)
        ]
    found = 0
    for tx in rows:
        window = Scope(since=tx.created_at, until=tx.created_at, user_id=user.pk)
        anchored = Scope(since=tx.created_at, until=tx.created_at, user_id=user.pk, anchor_id=tx.pk)
        assert _hits_on(tx, evaluate(rule, anchored)) == _hits_on(tx, evaluate(rule, window))
        found += bool(_hits_on(tx, evaluate(rule, window)))
    # at least the first row of the second wakes the wallet (a later one whose id sorts before every earlier
    # row of the second does too, as each saw the ledger when it was recorded)
    assert bool(found) == (gap_days > 90)
