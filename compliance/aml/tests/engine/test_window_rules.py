"""Rules on rolling windows: structuring, network_analysis, pattern_detection, mobile_money,
vendor_specific, cft_related, business_sector."""

import datetime as dt

from compliance.aml.tests.engine.helpers import NOON, hits_of, make_rule, tx
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory


def test_structuring_flags_split_deposits_within_the_window(user):
    rule = make_rule("structuring", thresholdAmount=25000, thresholdCount=3, timeWindowHours=24)
    rows = [tx(user, 9000, minutes=m) for m in (0, 60, 120)]
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in rows]
    assert hit.details["count"] == 3 and hit.details["total"] == 27000.0


def test_structuring_ignores_deposits_spread_beyond_the_window(user):
    rule = make_rule("structuring", thresholdAmount=25000, thresholdCount=3, timeWindowHours=24)
    for day in (0, 2, 4):
        tx(user, 9000, minutes=day * 24 * 60 - 600)
    assert hits_of(rule, until=NOON + dt.timedelta(days=5)) == []


def test_structuring_ignores_amounts_at_or_above_the_threshold(user):
    rule = make_rule("structuring", thresholdAmount=25000, thresholdCount=3, timeWindowHours=24)
    tx(user, 25000)
    tx(user, 9000, minutes=1)
    tx(user, 9000, minutes=2)
    assert hits_of(rule) == []


def test_structuring_raises_one_hit_per_burst_not_one_per_row(user):
    rule = make_rule("structuring", thresholdAmount=1000, thresholdCount=2, timeWindowHours=1)
    for minute in range(0, 50, 5):
        tx(user, 600, minutes=minute)
    assert len(hits_of(rule)) == 1


def test_network_analysis_counts_distinct_senders(user):
    rule = make_rule("network_analysis", minSenders=3, minTotalAmount=3000, timeWindowHours=72)
    senders = PlatformUserFactory.create_batch(3)
    for i, sender in enumerate(senders):
        tx(user, 1200, minutes=i, type="TRANSFER_IN", counterparty_user=sender)
    [hit] = hits_of(rule)
    assert hit.user_id == user.pk and len(hit.transaction_ids) == 3


def test_network_analysis_ignores_one_sender_sending_many_times(user, other):
    rule = make_rule("network_analysis", minSenders=3, minTotalAmount=3000, timeWindowHours=72)
    for i in range(5):
        tx(user, 1200, minutes=i, type="TRANSFER_IN", counterparty_user=other)
    assert hits_of(rule) == []


def test_pattern_detection_flags_similar_amounts_in_a_short_window(user):
    rule = make_rule("pattern_detection", minAmount=1000, timeWindowMinutes=30, similarityPercentage=90)
    rows = [tx(user, amount, minutes=m, type="TRANSFER_OUT") for amount, m in ((2000, 0), (1950, 10), (2050, 20))]
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in rows]


def test_pattern_detection_ignores_dissimilar_amounts_and_slow_repeats(user, other):
    rule = make_rule("pattern_detection", minAmount=1000, timeWindowMinutes=30, similarityPercentage=90)
    for amount, m in ((2000, 0), (1000, 10), (3000, 20)):
        tx(user, amount, minutes=m)
    for m in (0, 40, 80):
        tx(other, 2000, minutes=m)
    assert hits_of(rule) == []


def test_mobile_money_counts_only_the_mobile_money_channel(user, other):
    rule = make_rule("mobile_money", minCount=3, minTotalAmount=3000, timeWindowHours=24, transactionTypes=["TOP_UP"])
    for m in range(3):
        tx(user, 1000, minutes=m, channel="MOBILE_MONEY")
        tx(other, 1000, minutes=m, channel="WALLET")
    [hit] = hits_of(rule)
    assert hit.user_id == user.pk


def test_vendor_specific_sums_payments_per_vendor_and_checks_its_kyc_status(user):
    rule = make_rule("vendor_specific", thresholdAmount=5000, timeWindowHours=24, vendorStatuses=["PENDING"])
    pending = VendorFactory(kyc_status="PENDING")
    verified = VendorFactory(kyc_status="VERIFIED")
    rows = [tx(user, 3000, minutes=m, type="VENDOR_PAYMENT", counterparty_vendor=pending) for m in (0, 5)]
    for m in (0, 5):
        tx(user, 3000, minutes=m, type="VENDOR_PAYMENT", counterparty_vendor=verified)
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in rows]
    assert hit.details["partition"].replace("-", "") == pending.pk.hex


def test_vendor_specific_does_not_add_up_different_vendors(user):
    rule = make_rule("vendor_specific", thresholdAmount=5000, timeWindowHours=24)
    for m in range(3):
        tx(user, 2000, minutes=m, type="VENDOR_PAYMENT", counterparty_vendor=VendorFactory())
    assert hits_of(rule) == []


def test_cft_related_flags_listed_countries(user, other):
    rule = make_rule("cft_related", countries=["SO", "YE"], thresholdAmount=2000, timeWindowHours=168)
    rows = [tx(user, 1000, minutes=m, country="SO") for m in (0, 60 * 24)]
    tx(other, 1500, country="YE")
    tx(other, 9000, country="ZA")
    [hit] = hits_of(rule, until=NOON + dt.timedelta(days=2))
    assert hit.transaction_ids == [r.pk for r in rows]


def test_cft_related_with_zero_threshold_flags_any_transaction(user):
    rule = make_rule("cft_related", countries=["KP"], thresholdAmount=0, timeWindowHours=24)
    row = tx(user, 1, country="KP")
    assert [h.transaction_ids for h in hits_of(rule)] == [[row.pk]]


def test_business_sector_sums_payments_to_vendors_of_the_sectors(user):
    rule = make_rule("business_sector", sectors=["Gambling"], thresholdAmount=5000, timeWindowHours=168)
    casino = VendorFactory(business_sector="gambling")
    shop = VendorFactory(business_sector="groceries")
    rows = [tx(user, 3000, minutes=m * 600, type="VENDOR_PAYMENT", counterparty_vendor=casino) for m in (0, 1)]
    tx(user, 9000, type="VENDOR_PAYMENT", counterparty_vendor=shop)
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in rows]


def test_network_analysis_counts_a_sender_whose_earlier_transfer_fell_out_of_the_window(user, other):
    rule = make_rule("network_analysis", minSenders=2, minTotalAmount=100, timeWindowHours=1)
    tx(user, 100, minutes=-90, type="TRANSFER_IN", counterparty_user=other)
    inside = tx(user, 100, minutes=-40, type="TRANSFER_IN", counterparty_user=other)
    last = tx(user, 100, minutes=0, type="TRANSFER_IN", counterparty_user=PlatformUserFactory())
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [inside.pk, last.pk]
