"""threshold, pep_related, behavioral, high_risk_transaction, regional_risk: one row decides."""

from compliance.aml.tests.engine.helpers import hits_of, make_rule, tx


def test_threshold_flags_a_transaction_at_or_above_the_amount(user):
    rule = make_rule("threshold", thresholdAmount=50000)
    big = tx(user, 50000)
    tx(user, 49999.99)
    [hit] = hits_of(rule)
    assert hit.transaction_ids == [big.pk] and hit.user_id == user.pk
    assert hit.details["amount"] == 50000.0


def test_threshold_ignores_failed_rows_and_types_outside_its_list(user):
    rule = make_rule("threshold", thresholdAmount=1000, transactionTypes=["WITHDRAWAL"])
    tx(user, 5000, type="TOP_UP")
    tx(user, 5000, type="WITHDRAWAL", status="FAILED")
    assert hits_of(rule) == []
    wd = tx(user, 5000, type="WITHDRAWAL")
    assert [h.transaction_ids for h in hits_of(rule)] == [[wd.pk]]


def test_threshold_only_looks_inside_the_scope(user):
    rule = make_rule("threshold", thresholdAmount=100)
    tx(user, 500, minutes=-3 * 24 * 60)
    assert hits_of(rule) == []


def test_pep_related_flags_potential_peps_only(user, other):
    rule = make_rule("pep_related", thresholdAmount=10000)
    user.is_potential_pep = True
    user.save()
    flagged = tx(user, 12000)
    tx(other, 90000)
    tx(user, 9000)
    assert [h.transaction_ids for h in hits_of(rule)] == [[flagged.pk]]


def test_behavioral_matches_occupations_case_insensitively(user, other):
    rule = make_rule("behavioral", thresholdAmount=15000, occupations=["Student", "unemployed"])
    user.occupation = "  student "
    user.save()
    other.occupation = "teacher"
    other.save()
    hit_row = tx(user, 15000)
    tx(user, 14000)
    tx(other, 80000)
    assert [h.transaction_ids for h in hits_of(rule)] == [[hit_row.pk]]


def test_high_risk_transaction_filters_type_channel_and_foreign_countries(user):
    rule = make_rule(
        "high_risk_transaction",
        thresholdAmount=5000,
        transactionTypes=["TRANSFER_OUT"],
        channels=["BANK"],
        foreignOnly=True,
    )
    tx(user, 9000, type="TRANSFER_OUT", channel="BANK", country="SZ")
    tx(user, 9000, type="TRANSFER_OUT", channel="WALLET", country="ZA")
    tx(user, 9000, type="TOP_UP", channel="BANK", country="ZA")
    tx(user, 4000, type="TRANSFER_OUT", channel="BANK", country="ZA")
    hit_row = tx(user, 9000, type="TRANSFER_OUT", channel="BANK", country="ZA")
    assert [h.transaction_ids for h in hits_of(rule)] == [[hit_row.pk]]


def test_regional_risk_matches_the_rows_region(user):
    rule = make_rule("regional_risk", regions=["Lavumisa", "Ngwenya"], thresholdAmount=1000)
    hit_row = tx(user, 1500, region="lavumisa")
    tx(user, 500, region="Lavumisa")
    tx(user, 5000, region="Manzini")
    assert [h.transaction_ids for h in hits_of(rule)] == [[hit_row.pk]]


def test_regional_risk_without_threshold_flags_any_amount(user):
    rule = make_rule("regional_risk", regions=["Ngwenya"])
    hit_row = tx(user, 1, region="Ngwenya")
    assert [h.transaction_ids for h in hits_of(rule)] == [[hit_row.pk]]
