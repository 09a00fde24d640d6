"""A rule's sum of amounts meets its threshold exactly on both databases.

SQLite keeps amounts as binary floats and adds them so: these seven cash deposits make exactly E25,000, and SQLite's
SUM gave 24999.999999999996, under the threshold, so neither the cash report nor structuring was raised. Amounts of
this kind (cents that no float holds exactly) are the common case, not a contrived one: about one set in thirty of
seven random deposits making E25,000 summed under it.
"""

from decimal import Decimal

from compliance.aml.tests.engine.helpers import hits_of, make_rule, tx

EXACTLY_25000 = ["2049.64", "4750.91", "1201.40", "988.04", "3698.14", "3690.06", "8621.81"]


def deposits(user, **fields):
    assert sum(Decimal(a) for a in EXACTLY_25000) == Decimal("25000")
    return [tx(user, amount, minutes=5 * n, **fields) for n, amount in enumerate(EXACTLY_25000)]


def test_cash_that_makes_the_reporting_threshold_exactly_is_reported(user):
    rule = make_rule("regulatory_reporting", reportingThreshold=25000)
    rows = deposits(user, channel="CASH")
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in rows] and hit.details["total"] == 25000.0


def test_split_deposits_that_make_the_structuring_threshold_exactly_are_flagged(user):
    rule = make_rule("structuring", thresholdAmount=25000, thresholdCount=3, timeWindowHours=24)
    rows = deposits(user)
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [r.pk for r in rows] and hit.details["total"] == 25000.0
