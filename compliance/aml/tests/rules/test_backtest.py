"""POST /admin/aml/rules/:ruleId/backtest on a crafted ledger whose answer is known."""

import datetime as dt
from decimal import Decimal

import pytest

from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

URL = "/api/v1/admin/aml/rules"
DAY = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
WINDOW = {"from": "2026-03-01T00:00:00Z", "to": "2026-03-31T23:59:59Z"}


def tx(user, amount, *, hours=0, **fields):
    return TransactionFactory(
        user=user, amount=Decimal(str(amount)), type="TOP_UP", created_at=DAY + dt.timedelta(hours=hours), **fields
    )


@pytest.fixture
def ledger(db):
    """Alice: 5,000 and 3,000; Bob: 4,500; Carol: 2,000; and 9,000 of Alice outside the window."""
    alice = PlatformUserFactory(first_name="Alice", last_name="Dlamini")
    bob = PlatformUserFactory(first_name="Bob", last_name="Nxumalo")
    carol = PlatformUserFactory(first_name="Carol", last_name="Simelane")
    rows = {
        "a5000": tx(alice, 5000),
        "a3000": tx(alice, 3000, hours=1),
        "b4500": tx(bob, 4500, hours=2),
        "c2000": tx(carol, 2000, hours=3),
        "outside": tx(alice, 9000, hours=-24 * 30),
    }
    return {"alice": alice, "bob": bob, "carol": carol, **rows}


@pytest.fixture
def threshold_rule(make_rule):
    return make_rule(conditions={"ruleType": "threshold", "thresholdAmount": 4000}, isActive=True)


def run(client, rule, **body):
    r = client.post(f"{URL}/{rule['ruleId']}/backtest", {**WINDOW, **body}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()["data"]


def tx_sets(hits):
    return sorted(tuple(h["transactionIds"]) for h in hits)


def test_the_current_version_over_the_window(mlro, ledger, threshold_rule):
    data = run(mlro[0], threshold_rule)
    assert tx_sets(data["hits"]) == sorted([(str(ledger["a5000"].pk),), (str(ledger["b4500"].pk),)])
    assert data["alsoByCurrent"] == 2 and data["added"] == [] and data["dropped"] == []
    assert {(u["firstName"], u["hits"]) for u in data["users"]} == {("Alice", 1), ("Bob", 1)}
    assert isinstance(data["seconds"], float)
    assert not Alert.objects.exists()  # a backtest raises nothing


def test_lower_threshold_adds_and_higher_drops(mlro, ledger, threshold_rule):
    lower = run(mlro[0], threshold_rule, conditions={"ruleType": "threshold", "thresholdAmount": 2500})
    assert len(lower["hits"]) == 3 and lower["alsoByCurrent"] == 2
    assert tx_sets(lower["added"]) == [(str(ledger["a3000"].pk),)] and lower["dropped"] == []
    assert {u["firstName"]: u["hits"] for u in lower["users"]} == {"Alice": 2, "Bob": 1}
    higher = run(mlro[0], threshold_rule, conditions={"ruleType": "threshold", "thresholdAmount": 4800})
    assert tx_sets(higher["hits"]) == [(str(ledger["a5000"].pk),)] and higher["alsoByCurrent"] == 1
    assert higher["added"] == [] and tx_sets(higher["dropped"]) == [(str(ledger["b4500"].pk),)]
    assert not Alert.objects.exists()
    assert AMLRule.objects.get(rule_id=threshold_rule["ruleId"]).conditions["thresholdAmount"] == 4000


def test_another_rule_type_as_proposed_conditions(mlro, ledger, threshold_rule):
    # two top-ups each below 6,000 adding up to 6,000+ within 24 hours: only Alice (5,000 then 3,000)
    structuring = {"ruleType": "structuring", "thresholdAmount": 6000, "thresholdCount": 2, "timeWindowHours": 24}
    data = run(mlro[0], threshold_rule, conditions=structuring)
    assert [u["firstName"] for u in data["users"]] == ["Alice"]
    assert set(data["hits"][0]["transactionIds"]) == {str(ledger["a5000"].pk), str(ledger["a3000"].pk)}
    assert data["alsoByCurrent"] == 0 and len(data["dropped"]) == 2


def test_bad_input_is_a_400(mlro, ledger, threshold_rule):
    client, _ = mlro
    url = f"{URL}/{threshold_rule['ruleId']}/backtest"
    r = client.post(url, {**WINDOW, "conditions": {"ruleType": "threshold", "thresholdAmount": "x"}}, format="json")
    assert r.status_code == 400 and "conditions.thresholdAmount" in r.json()["error"]["details"]
    r = client.post(url, {"from": "2026-03-31T00:00:00Z", "to": "2026-03-01T00:00:00Z"}, format="json")
    assert r.status_code == 400 and "to" in r.json()["error"]["details"]
    r = client.post(url, {"to": "2026-03-01T00:00:00Z"}, format="json")
    assert r.status_code == 400 and "from" in r.json()["error"]["details"]


def test_officers_may_backtest_support_may_not(officer, staff_client, threshold_rule):
    from backoffice.choices import StaffRole

    assert officer[0].post(f"{URL}/{threshold_rule['ruleId']}/backtest", WINDOW, format="json").status_code == 200
    support, _ = staff_client(StaffRole.SUPPORT)
    assert support.post(f"{URL}/{threshold_rule['ruleId']}/backtest", WINDOW, format="json").status_code == 403


def test_a_bare_date_as_the_end_takes_the_whole_day_and_partial_conditions_change_the_rules_own(
    mlro, ledger, threshold_rule
):
    # the ledger's rows are on 10 March from noon on
    data = run(mlro[0], threshold_rule, **{"from": "2026-03-10", "to": "2026-03-10"})
    assert len(data["hits"]) == 2
    lower = run(mlro[0], threshold_rule, conditions={"thresholdAmount": 2500})
    assert len(lower["hits"]) == 3 and len(lower["added"]) == 1
