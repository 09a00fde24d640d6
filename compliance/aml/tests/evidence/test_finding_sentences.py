"""The finding in words for each of the 16 rule types, from the catalogue's parameters and the engine's figures."""

from types import SimpleNamespace

import pytest

from compliance.aml.choices import AlertStatus, RuleType
from compliance.aml.engine.registry import CATALOGUE
from compliance.aml.engine.words import duration, money
from compliance.aml.evidence import finding, history_sentence

# The figures each evaluator writes into an alert's details (compliance/aml/engine/<type>.py), one hit each.
DETAILS = {
    "threshold": {"amount": 60000.0, "transaction_type": "WITHDRAWAL", "threshold_amount": 50000.0},
    "structuring": {
        "window_seconds": 86400,
        "count": 3,
        "total": 28200.0,
        "threshold_amount": 25000.0,
        "threshold_count": 3,
    },
    "velocity": {"window_seconds": 86400, "total": 52000.0, "previous_total": 10000.0, "percentage_change": 420.0},
    "behavioral": {
        "amount": 16000.0,
        "transaction_type": "TOP_UP",
        "threshold_amount": 15000.0,
        "occupations": ["student"],
    },
    "pep_related": {
        "amount": 12000.0,
        "transaction_type": "TRANSFER_OUT",
        "threshold_amount": 10000.0,
        "potential_pep": True,
    },
    "network_analysis": {
        "window_seconds": 259200,
        "transfers": 5,
        "total": 32500.0,
        "min_senders": 5,
        "min_total_amount": 30000.0,
    },
    "high_risk_transaction": {"amount": 16000.0, "transaction_type": "WITHDRAWAL", "threshold_amount": 15000.0},
    "pattern_detection": {
        "window_seconds": 1800,
        "count": 3,
        "total": 3150.0,
        "smallest": 1000.0,
        "largest": 1100.0,
        "similarity_percentage": 90,
    },
    "account_lifecycle": {
        "amount": 20000.0,
        "inactive_days": 200.5,
        "last_activity_epoch": 1,
        "threshold_amount": 15000.0,
    },
    "digital_wallet": {
        "top_up_amount": 12000.0,
        "transferred_amount": 11500.0,
        "percentage_transferred": 95.8,
        "window_minutes": 60,
    },
    "mobile_money": {"window_seconds": 86400, "count": 11, "total": 10500.0, "channel": "MOBILE_MONEY"},
    "vendor_specific": {"window_seconds": 86400, "payments": 2, "total": 5500.0, "threshold_amount": 5000.0},
    "cft_related": {"window_seconds": 604800, "count": 1, "total": 2500.0, "countries": ["SO"]},
    "regional_risk": {
        "amount": 6000.0,
        "transaction_type": "TRANSFER_OUT",
        "regions": ["lavumisa"],
        "threshold_amount": 5000.0,
    },
    "regulatory_reporting": {"day": "2026-11-10", "count": 3, "total": 28200.0, "reporting_threshold": 25000.0},
    "business_sector": {"window_seconds": 604800, "payments": 4, "total": 21000.0, "sectors": ["money transfer"]},
}


def _alert(rule_type, details):
    return SimpleNamespace(alert_type="RULE", details={"rule_type": rule_type, **details})


def _first_rule(rule_type):
    return next(r for r in CATALOGUE if r["conditions"]["ruleType"] == rule_type)


def test_every_rule_type_has_figures_here():
    assert set(DETAILS) == set(RuleType.values)


@pytest.mark.parametrize("rule_type", RuleType.values)
def test_each_type_reads_as_a_finding_and_its_rule(rule_type):
    conditions = _first_rule(rule_type)["conditions"]
    result = finding(_alert(rule_type, DETAILS[rule_type]), conditions, [])
    assert result.rule.startswith("Rule: "), result
    assert "SZL" in result.what + result.rule and ":" not in result.what.split(".")[0][:3]
    assert "{" not in result.what + result.rule and "None" not in result.what + result.rule


def test_network_analysis_counts_distinct_senders_from_the_transactions():
    conditions = _first_rule("network_analysis")["conditions"]
    transfers = [
        SimpleNamespace(counterparty_user_id=i % 5 + 1, counterparty_vendor_id=None, counterparty_vendor=None)
        for i in range(6)
    ]
    result = finding(_alert("network_analysis", {**DETAILS["network_analysis"], "transfers": 6}), conditions, transfers)
    assert result.what == "5 senders sent SZL 32,500.00 within 72 hours in 6 transfers."
    assert result.rule == "Rule: at least 5 senders and SZL 30,000.00 within 72 hours."


@pytest.mark.parametrize(
    "rule_type,what,rule",
    [
        (
            "structuring",
            "3 transactions, each below SZL 25,000.00, added up to SZL 28,200.00 within 24 hours.",
            "Rule: at least 3 transactions (top-up or transfer in), each below SZL 25,000.00, "
            "totalling SZL 25,000.00 or more within 24 hours.",
        ),
        (
            "digital_wallet",
            "A top-up of SZL 12,000.00, of which SZL 11,500.00 (95.8%) left the wallet within 1 hour.",
            "Rule: a top-up of at least SZL 5,000.00 with 90% or more leaving within 1 hour.",
        ),
        (
            "regulatory_reporting",
            "3 transactions on 2026-11-10 (Eswatini time) totalled SZL 28,200.00.",
            "Rule: SZL 25,000.00 or more in cash in one Eswatini day; a large-cash report may be due.",
        ),
    ],
)
def test_sentences_read_as_a_person_writes(rule_type, what, rule):
    result = finding(_alert(rule_type, DETAILS[rule_type]), _first_rule(rule_type)["conditions"], [])
    assert (result.what, result.rule) == (what, rule)


def test_a_missing_figure_falls_back_to_the_figures_there_are():
    result = finding(_alert("velocity", {"total": 5.0}), {"ruleType": "velocity"}, [])
    assert result.what == "Total: 5.0." and result.rule == ""


def test_alerts_of_a_type_without_sentences_list_their_details():
    alert = SimpleNamespace(
        alert_type="SOMETHING_NEW",
        details={"finding": "FACE", "other_user_id": "u-2"},
        get_alert_type_display=lambda: "Something new",
    )
    assert finding(alert, None, []).what == "Something new: Finding: FACE; Other user id: u-2."


def test_duplicate_identity_alerts_say_who_else_and_how():
    alert = SimpleNamespace(
        alert_type="DUPLICATE_IDENTITY",
        details={"finding": "FACE", "other_user_id": "u-2", "score": 93.4, "detail": "Same face"},
        get_alert_type_display=lambda: "Duplicate identity",
    )
    result = finding(alert, None, [])
    assert result.what == "The customer has the same face as user u-2 (similarity 93%)."
    alert.details = {
        "finding": "IMAGE",
        "other_user_id": "0ca4d984-caae-4192",
        "other_user_name": "Sabelo Tfwala",
        "score": 100.0,
        "detail": "The selfie is the same file as one of theirs",
    }
    assert finding(alert, None, []).what == (
        "The customer submitted an identity image also submitted by Sabelo Tfwala (user 0ca4d984) (similarity 100%)."
        " The selfie is the same file as one of theirs."
    )
    assert "once per pair of users" in result.rule


@pytest.mark.parametrize(
    "value,text", [(32500, "SZL 32,500.00"), (4999.5, "SZL 4,999.50"), ("1000000.00", "SZL 1,000,000.00")]
)
def test_money_reads_with_thousands_separators(value, text):
    assert money(value) == text


@pytest.mark.parametrize(
    "seconds,text",
    [(1800, "30 minutes"), (3600, "1 hour"), (259200, "72 hours"), (604800, "7 days"), (2592000, "30 days")],
)
def test_durations(seconds, text):
    assert duration(seconds) == text


def test_history_in_words():
    actor = SimpleNamespace(full_name="Nomsa Dube", email="n@x")
    event = SimpleNamespace(
        actor=actor,
        from_status=AlertStatus.UNDER_REVIEW,
        to_status=AlertStatus.CLOSED_FALSE_POSITIVE,
        note="Payroll",
        reason_code="EXPLAINED_ACTIVITY",
    )
    assert history_sentence(event) == "Nomsa Dube closed the alert as a false positive (activity explained): “Payroll”"
    raised = SimpleNamespace(
        actor=None, from_status="", to_status="OPEN", note="Raised by rule X (version 1).", reason_code=""
    )
    assert history_sentence(raised) == "Raised by rule X (version 1)."
