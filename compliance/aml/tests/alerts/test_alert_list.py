import pytest

from compliance.aml.models.alerts import Alert
from kyc.tests.factories import PlatformUserFactory

URL = "/api/v1/admin/aml/alerts"


def test_list_is_paginated_with_the_contract_shape(officer, make_alert, rule):
    alert = make_alert(transactions=2)
    client, _ = officer
    body = client.get(URL).json()
    assert body["pagination"] == {"page": 1, "limit": 20, "total": 1, "totalPages": 1}
    [item] = body["data"]
    assert item["id"] == str(alert.pk) and item["alertType"] == "RULE"
    assert item["rule"] == {"ruleId": "T-THR", "name": "Big one"} and item["ruleVersion"] == 3
    assert item["user"] == {
        "id": str(alert.user_id),
        "firstName": alert.user.first_name,
        "lastName": alert.user.last_name,
    }
    assert item["severity"] == "MEDIUM" and item["status"] == "OPEN" and item["details"] == {"why": "test"}
    assert sorted(item["relatedTransactionIds"]) == sorted(str(t.pk) for t in alert.related_transactions.all())
    assert item["createdAt"].endswith("Z")


def test_pep_match_alert_has_no_rule(officer, make_alert):
    make_alert(alert_type="PEP_MATCH")
    client, _ = officer
    [item] = client.get(URL).json()["data"]
    assert item["alertType"] == "PEP_MATCH" and item["rule"] is None


def test_filters_status_severity_type_and_user(officer, make_alert):
    user = PlatformUserFactory()
    a = make_alert(user=user, severity="HIGH")
    b = make_alert(status="UNDER_REVIEW")
    c = make_alert(alert_type="PEP_MATCH", severity="CRITICAL")
    client, _ = officer

    def ids(**params):
        return {x["id"] for x in client.get(URL, params).json()["data"]}

    assert ids(status="UNDER_REVIEW") == {str(b.pk)}
    assert ids(severity="HIGH") == {str(a.pk)}
    assert ids(alertType="PEP_MATCH") == {str(c.pk)}
    assert ids(userId=str(user.pk)) == {str(a.pk)}


@pytest.mark.parametrize(
    "params",
    [
        {"status": "DONE"},
        {"severity": "HUGE"},
        {"alertType": "X"},
        {"userId": "not-a-uuid"},
        {"sortBy": "user"},
        {"limit": "0"},
    ],
)
def test_bad_filters_are_400(officer, params):
    client, _ = officer
    r = client.get(URL, params)
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"


def test_sort_by_severity_orders_by_urgency_not_alphabet(officer, make_alert):
    for severity in ("LOW", "CRITICAL", "MEDIUM", "HIGH"):
        make_alert(severity=severity)
    client, _ = officer
    desc = [x["severity"] for x in client.get(URL, {"sortBy": "severity"}).json()["data"]]
    assert desc == ["CRITICAL", "HIGH", "MEDIUM", "LOW"]
    asc = [x["severity"] for x in client.get(URL, {"sortBy": "severity", "sortOrder": "asc"}).json()["data"]]
    assert asc == ["LOW", "MEDIUM", "HIGH", "CRITICAL"]


def test_limit_is_capped_at_100(officer):
    client, _ = officer
    assert client.get(URL, {"limit": 500}).json()["pagination"]["limit"] == 100


def test_list_takes_a_fixed_number_of_queries(officer, make_alert, django_assert_max_num_queries):
    for _ in range(5):
        make_alert(transactions=3)
    client, _ = officer
    with django_assert_max_num_queries(6):
        assert len(client.get(URL).json()["data"]) == 5


def test_detail_has_history_and_unknown_is_404(officer, make_alert):
    alert = make_alert()
    client, _ = officer
    data = client.get(f"{URL}/{alert.pk}").json()["data"]
    assert data["id"] == str(alert.pk) and data["events"] == []
    for ref in ("00000000-0000-0000-0000-000000000000", "nope"):
        r = client.get(f"{URL}/{ref}")
        assert r.status_code == 404 and r.json()["message"] == "Alert not found"
    assert Alert.objects.count() == 1


@pytest.mark.parametrize("role", ["support", "finance"])
def test_support_and_finance_never_see_alerts(staff_client, make_alert, role):
    alert = make_alert()
    client, _ = staff_client(role)
    for r in (
        client.get(URL),
        client.get(f"{URL}/{alert.pk}"),
        client.put(f"{URL}/{alert.pk}/status", {"status": "UNDER_REVIEW"}, format="json"),
    ):
        assert r.status_code == 403
        assert str(alert.pk) not in r.content.decode()
