"""Helpers and fixtures of the tests in compliance/aml/tests/rules: import helpers from here, never from conftest."""

import uuid

import pytest

from backoffice.choices import StaffRole

VALID_CONDITIONS = {
    "threshold": {"thresholdAmount": 50000},
    "structuring": {"thresholdAmount": 25000, "thresholdCount": 3, "timeWindowHours": 24},
    "velocity": {"percentageChange": 300, "timeWindowHours": 48},
    "behavioral": {"thresholdAmount": 20000, "occupations": ["student", "unemployed"]},
    "pep_related": {"thresholdAmount": 10000},
    "network_analysis": {"minSenders": 5, "minTotalAmount": 30000, "timeWindowHours": 72},
    "pattern_detection": {"minAmount": 1000, "timeWindowMinutes": 30, "similarityPercentage": 90},
    "account_lifecycle": {"inactiveDays": 180, "thresholdAmount": 15000},
    "digital_wallet": {"minAmount": 5000, "timeWindowMinutes": 60, "topupPercentageTransferred": 90},
    "regional_risk": {"regions": ["Region A", "Region B"]},
    "regulatory_reporting": {"reportingThreshold": 25000},
    "high_risk_transaction": {"thresholdAmount": 15000, "transactionTypes": ["WITHDRAWAL"]},
    "mobile_money": {"minCount": 10, "minTotalAmount": 10000, "timeWindowHours": 24},
    "vendor_specific": {"thresholdAmount": 5000, "timeWindowHours": 24},
    "cft_related": {"countries": ["KP"], "thresholdAmount": 0, "timeWindowHours": 24},
    "business_sector": {"sectors": ["gambling"], "thresholdAmount": 20000, "timeWindowHours": 168},
}


def rule_body(rule_type="threshold", **overrides):
    body = {
        "ruleId": f"T-{rule_type.upper()}-{uuid.uuid4().hex[:8]}",
        "name": f"Test {rule_type} rule",
        "description": "Made by a test",
        "category": "tests",
        "conditions": {"ruleType": rule_type, **VALID_CONDITIONS[rule_type]},
        "actions": {"createAlert": True},
        "severity": "MEDIUM",
        "priority": 10,
    }
    body.update(overrides)
    return {k: v for k, v in body.items() if v is not None}


@pytest.fixture
def mlro(staff_client):
    return staff_client(StaffRole.MLRO)


@pytest.fixture
def officer(staff_client):
    return staff_client(StaffRole.COMPLIANCE_OFFICER)


@pytest.fixture
def make_rule(mlro, settings):
    client, _ = mlro

    def make(rule_type="threshold", **overrides):
        # a rule as it stands before the test: made while four eyes was off, so one asked for active is active
        # (under four eyes it would start switched off with a proposal: test_four_eyes_rules_created_active)
        four_eyes, settings.RULE_FOUR_EYES = settings.RULE_FOUR_EYES, False
        try:
            r = client.post("/api/v1/admin/aml/rules", rule_body(rule_type, **overrides), format="json")
        finally:
            settings.RULE_FOUR_EYES = four_eyes
        assert r.status_code == 201, r.json()
        return r.json()["data"]

    return make
