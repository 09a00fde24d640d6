"""velocity, regulatory_reporting, account_lifecycle, digital_wallet."""

import datetime as dt

from compliance.aml.tests.engine.helpers import NOON, hits_of, make_rule, tx
from kyc.models import PlatformUser

DAY = 24 * 60


def _opened_long_ago(user, days=400):
    PlatformUser.objects.filter(pk=user.pk).update(created_at=NOON - dt.timedelta(days=days))


def test_velocity_flags_a_window_far_above_the_one_before(user):
    rule = make_rule("velocity", percentageChange=300, timeWindowHours=24, minAmount=1000)
    tx(user, 500, minutes=-DAY)
    today = [tx(user, 1500, minutes=m) for m in (0, 30)]
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in today]
    assert hit.details["previous_total"] == 500.0 and hit.details["total"] == 3000.0


def test_velocity_ignores_steady_volume_and_empty_previous_windows(user, other):
    rule = make_rule("velocity", percentageChange=300, timeWindowHours=24)
    tx(user, 1000, minutes=-DAY)
    tx(user, 1500)
    tx(other, 90000)
    assert hits_of(rule) == []


def test_velocity_respects_the_minimum_amount(user):
    rule = make_rule("velocity", percentageChange=100, timeWindowHours=24, minAmount=10000)
    tx(user, 10, minutes=-DAY)
    tx(user, 500)
    assert hits_of(rule) == []


def cash(user, amount, **fields):
    return tx(user, amount, channel="CASH", **fields)


def test_regulatory_reporting_adds_up_a_users_utc_day(user):
    rule = make_rule("regulatory_reporting", reportingThreshold=25000)
    rows = [cash(user, 12500, minutes=m) for m in (0, 60)]
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in rows]
    assert hit.details["day"] == "2026-06-10" and hit.details["total"] == 25000.0


def test_regulatory_reporting_does_not_add_up_two_eswatini_days(user):
    rule = make_rule("regulatory_reporting", reportingThreshold=25000)
    cash(user, 12500, minutes=-15 * 60)  # 21:00 UTC the day before: 23:00 in Mbabane
    cash(user, 12500)
    assert hits_of(rule) == []


def test_regulatory_reporting_days_are_eswatini_days_not_utc_days(user):
    rule = make_rule("regulatory_reporting", reportingThreshold=25000)
    late = cash(user, 12500, minutes=-13 * 60)  # 23:00 UTC the day before: already 01:00 on the 10th locally
    noon = cash(user, 12500)
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [late.pk, noon.pk] and hit.details["day"] == "2026-06-10"


def test_regulatory_reporting_counts_cash_only_never_a_wallet_credit_or_a_card(user):
    rule = make_rule("regulatory_reporting", reportingThreshold=25000)
    tx(user, 30000, type="TOP_UP", channel="WALLET")  # an admin credit: no cash changed hands
    tx(user, 30000, channel="CARD")
    tx(user, 30000, channel="BANK")
    assert hits_of(rule) == []
    counted = cash(user, 25000, minutes=10)
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [counted.pk] and hit.details["total"] == 25000.0


def test_account_lifecycle_flags_a_large_transaction_after_a_long_silence(user):
    rule = make_rule("account_lifecycle", inactiveDays=180, thresholdAmount=15000)
    _opened_long_ago(user)
    tx(user, 100, minutes=-200 * DAY)
    woke = tx(user, 16000)
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [woke.pk] and hit.details["inactive_days"] >= 180


def test_account_lifecycle_counts_an_account_that_never_transacted_since_opening(user):
    rule = make_rule("account_lifecycle", inactiveDays=180, thresholdAmount=15000)
    _opened_long_ago(user)
    woke = tx(user, 20000)
    assert [h.transaction_ids for h in hits_of(rule)] == [[woke.pk]]


def test_account_lifecycle_ignores_active_and_new_accounts(user, other):
    rule = make_rule("account_lifecycle", inactiveDays=180, thresholdAmount=15000)
    _opened_long_ago(user)
    tx(user, 100, minutes=-30 * DAY)
    tx(user, 20000)
    tx(other, 20000)  # opened today
    assert hits_of(rule) == []


def test_digital_wallet_flags_a_top_up_moved_on_quickly(user):
    rule = make_rule("digital_wallet", minAmount=5000, timeWindowMinutes=60, topupPercentageTransferred=90)
    top = tx(user, 10000)
    outs = [tx(user, 5000, minutes=10, type="TRANSFER_OUT"), tx(user, 4000, minutes=50, type="WITHDRAWAL")]
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [top.pk, *(o.pk for o in outs)]
    assert hit.details["percentage_transferred"] == 90.0


def test_digital_wallet_ignores_slow_or_partial_outflows(user, other):
    rule = make_rule("digital_wallet", minAmount=5000, timeWindowMinutes=60, topupPercentageTransferred=90)
    tx(user, 10000)
    tx(user, 5000, minutes=10, type="TRANSFER_OUT")
    tx(user, 5000, minutes=90, type="TRANSFER_OUT")
    tx(other, 10000)
    tx(other, 8000, minutes=5, type="TRANSFER_OUT")
    assert hits_of(rule) == []


def test_digital_wallet_screening_at_the_outflow_finds_the_earlier_top_up(user):
    rule = make_rule("digital_wallet", minAmount=5000, timeWindowMinutes=60, topupPercentageTransferred=90)
    top = tx(user, 10000)
    out = tx(user, 10000, minutes=30, type="TRANSFER_OUT")
    at_outflow = NOON + dt.timedelta(minutes=30)
    [hit] = hits_of(rule, since=at_outflow, until=at_outflow, user=user)
    assert hit.transaction_ids == [top.pk, out.pk]
