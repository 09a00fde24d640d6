"""Alert details are stored snake_case and answered camelCase exactly as before (issue 16).

Every JSON column is checked after the demo seed in backoffice/tests/api/test_stored_json_keys.py.
OLD holds the details the code wrote before the change, one per rule type and alert type: the migration must
turn each into snake_case, and the API must answer each byte for byte as it did.
"""

import importlib
import json

import pytest
from django.apps import apps as django_apps

from backoffice.jsonkeys import camel_key_paths, camel_keys, snake_keys
from compliance.aml.choices import AlertType, RuleType
from compliance.aml.models.alerts import Alert
from compliance.aml.services.identity import duplicate_identity_alert
from compliance.aml.services.scans import scan
from compliance.aml.tests.engine.helpers import NOON, make_rule, tx
from compliance.aml.tests.factories import AlertFactory
from kyc.tests.factories import PlatformUserFactory

URL = "/api/v1/admin/aml/alerts"
MIGRATION = importlib.import_module("compliance.migrations.0018_alert_details_snake_case")
RULE = {"ruleId": "T-1", "ruleVersion": 2, "ruleName": "A rule"}
WINDOW = {"windowSeconds": 86400, "windowEndEpoch": 1781092800, "partition": "p"}

# What the engine wrote before, per rule type (keys as the old code spelled them).
OLD_RULE_DETAILS = {
    "threshold": {"amount": 60000.0, "transactionType": "WITHDRAWAL", "thresholdAmount": 50000.0},
    "structuring": {**WINDOW, "count": 3, "total": 28200.0, "thresholdAmount": 25000.0, "thresholdCount": 3},
    "velocity": {
        "windowSeconds": 86400,
        "windowStartEpoch": 1781049600,
        "total": 52000.0,
        "previousTotal": 10000.0,
        "percentageChange": 420.0,
    },
    "behavioral": {"amount": 16000.0, "transactionType": "TOP_UP", "thresholdAmount": 15000.0, "occupations": ["x"]},
    "pep_related": {
        "amount": 12000.0,
        "transactionType": "TRANSFER_OUT",
        "thresholdAmount": 10000.0,
        "potentialPep": True,
    },
    "network_analysis": {**WINDOW, "transfers": 6, "total": 32500.0, "minSenders": 5, "minTotalAmount": 30000.0},
    "high_risk_transaction": {"amount": 16000.0, "transactionType": "WITHDRAWAL", "thresholdAmount": 15000.0},
    "pattern_detection": {
        **WINDOW,
        "count": 4,
        "total": 20000.0,
        "smallest": 4900.0,
        "largest": 5100.0,
        "similarityPercentage": 90,
    },
    "account_lifecycle": {
        "amount": 20000.0,
        "inactiveDays": 200.5,
        "lastActivityEpoch": 1,
        "thresholdAmount": 15000.0,
    },
    "digital_wallet": {
        "topUpAmount": 12000.0,
        "transferredAmount": 11500.0,
        "percentageTransferred": 95.8,
        "windowMinutes": 60,
    },
    "mobile_money": {**WINDOW, "count": 11, "total": 10500.0, "channel": "MOBILE_MONEY"},
    "vendor_specific": {**WINDOW, "payments": 2, "total": 5500.0, "thresholdAmount": 5000.0},
    "cft_related": {**WINDOW, "count": 1, "total": 2500.0, "countries": ["SO"]},
    "regional_risk": {
        "amount": 6000.0,
        "transactionType": "TRANSFER_OUT",
        "regions": ["lavumisa"],
        "thresholdAmount": 5000.0,
    },
    "regulatory_reporting": {"day": "2026-11-10", "count": 3, "total": 28200.0, "reportingThreshold": 25000.0},
    "business_sector": {**WINDOW, "payments": 4, "total": 21000.0, "sectors": ["money transfer"]},
}
OLD_OTHER_DETAILS = {
    AlertType.PEP_MATCH: {
        "matchId": "m-1",
        "pepId": "p-1",
        "pepName": "Hon. Thabo Maseko",
        "category": "Senior Politician",
        "position": "MP",
        "country": "SZ",
        "score": 0.93,
        "reason": "new match",
        "explanation": {"matcherVersion": 4, "parts": [], "adjustments": [], "summary": "Both parts agree."},
    },
    AlertType.DUPLICATE_IDENTITY: {
        "finding": "FACE",
        "userIds": ["a", "b"],
        "userId": "a",
        "otherUserId": "b",
        "otherUserName": "Sabelo Tfwala",
        "score": 91.0,
        "jobId": "j-1",
        "detail": "Same face",
    },
}
OLD = [
    *[(AlertType.RULE, {**RULE, "ruleType": t, **d}) for t, d in OLD_RULE_DETAILS.items()],
    *OLD_OTHER_DETAILS.items(),
]


def test_the_old_details_cover_every_rule_type():
    assert set(OLD_RULE_DETAILS) == set(RuleType.values)


@pytest.mark.parametrize("alert_type,old", OLD)
def test_every_old_key_round_trips(alert_type, old):
    stored = snake_keys(old)
    assert not camel_key_paths(stored) and camel_keys(stored) == old


@pytest.mark.django_db
def test_the_migration_converts_old_rows_and_the_api_answers_as_before(officer):
    client, _ = officer
    alerts = [AlertFactory(alert_type=alert_type, details=old) for alert_type, old in OLD]
    before = {str(a.pk): client.get(f"{URL}/{a.pk}").json()["data"]["details"] for a in alerts}
    MIGRATION.to_snake(django_apps, None)
    for alert, (_, old) in zip(alerts, OLD, strict=True):
        alert.refresh_from_db()
        assert not camel_key_paths(alert.details) and alert.details == snake_keys(old)
        answered = client.get(f"{URL}/{alert.pk}").json()["data"]["details"]
        assert answered == old == before[str(alert.pk)]
    MIGRATION.to_camel(django_apps, None)
    assert [Alert.objects.get(pk=a.pk).details for a in alerts] == [old for _, old in OLD]


@pytest.mark.django_db
def test_a_scan_stores_snake_case_and_the_api_answers_the_old_keys(officer):
    user = PlatformUserFactory()
    rule = make_rule("threshold", thresholdAmount=1000)
    tx(user, 5000)
    scan(since=NOON.replace(hour=0), until=NOON.replace(hour=23))
    alert = Alert.objects.get(rule=rule)
    assert set(alert.details) == {
        "rule_id",
        "rule_type",
        "rule_version",
        "rule_name",
        "amount",
        "transaction_type",
        "threshold_amount",
    }
    client, _ = officer
    answered = client.get(f"{URL}/{alert.pk}").json()["data"]["details"]
    assert answered == {
        "ruleId": rule.rule_id,
        "ruleType": "threshold",
        "ruleVersion": 1,
        "ruleName": rule.name,
        "amount": 5000.0,
        "transactionType": "TOP_UP",
        "thresholdAmount": 1000.0,
    }


@pytest.mark.django_db
def test_a_duplicate_identity_alert_stores_snake_case_and_answers_the_old_keys(officer):
    user, other = PlatformUserFactory(), PlatformUserFactory()
    duplicate_identity_alert(
        user=user, other_user_id=other.pk, kind="FACE", score=91.0, source={"job_id": "j-1", "detail": "Same face"}
    )
    alert = Alert.objects.get(alert_type=AlertType.DUPLICATE_IDENTITY)
    assert not camel_key_paths(alert.details) and alert.details["job_id"] == "j-1"
    client, _ = officer
    assert client.get(f"{URL}/{alert.pk}").json()["data"]["details"] == {
        "finding": "FACE",
        "userIds": sorted([str(user.pk), str(other.pk)]),
        "userId": str(user.pk),
        "otherUserId": str(other.pk),
        "otherUserName": other.full_name,
        "score": 91.0,
        "jobId": "j-1",
        "detail": "Same face",
    }


@pytest.mark.django_db
def test_the_api_answers_each_old_detail_in_the_order_the_old_row_gave_it(officer):
    # PostgreSQL's jsonb orders keys by length: snake_case keys come back in another order than the camelCase
    # ones did, and the answer must still be the same bytes
    client, _ = officer
    alerts = [AlertFactory(alert_type=alert_type, details=snake_keys(old)) for alert_type, old in OLD]
    answered = {a.pk: client.get(f"{URL}/{a.pk}").json()["data"]["details"] for a in alerts}
    MIGRATION.to_camel(django_apps, None)  # the rows as the old code kept them, read as it answered them
    for alert in alerts:
        assert json.dumps(answered[alert.pk]) == json.dumps(Alert.objects.get(pk=alert.pk).details)
