"""GET /admin/aml/threshold-reports and /:id: the contract's fields, filters, paging and roles."""

import datetime as dt

import pytest

from compliance.reporting.tests.threshold.helpers import MORNING, cash
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/admin/aml/threshold-reports"


@pytest.fixture
def reports(rule, customer):
    other = PlatformUserFactory(first_name="Lindiwe", last_name="Nxumalo")
    a = cash(customer, "25000")
    b = cash(customer, "30000", at=MORNING + dt.timedelta(days=1))
    c = cash(other, "40000", at=MORNING + dt.timedelta(days=2))
    return {"customer": customer, "other": other, "txs": [a, b, c]}


def test_the_list_is_paginated_with_the_contracts_fields(api, reports):
    r = api["officer"].get(URL, {"limit": 2})
    assert r.status_code == 200
    body = r.json()
    assert body["pagination"] == {"page": 1, "limit": 2, "total": 3, "totalPages": 2}
    item = body["data"][0]
    assert set(item) >= {"id", "user", "day", "total", "transactionIds", "status", "batchId", "fiuReason"}
    assert set(item["user"]) == {"id", "firstName", "lastName"}


def test_one_report(api, reports):
    customer = reports["customer"]
    listed = api["mlro"].get(URL, {"userId": str(customer.pk), "startDate": "2026-06-10", "endDate": "2026-06-10"})
    [item] = listed.json()["data"]
    r = api["mlro"].get(f"{URL}/{item['id']}")
    assert r.status_code == 200
    data = r.json()["data"]
    assert data["user"] == {"id": str(customer.pk), "firstName": "Sipho", "lastName": "Dlamini"}
    assert data["day"] == "2026-06-10" and data["total"] == 25000
    assert data["transactionIds"] == [str(reports["txs"][0].pk)]
    assert data["status"] == "PENDING" and data["batchId"] is None and data["fiuReason"] is None


def test_filters_status_user_and_days(api, reports):
    def ids(**params):
        return [i["day"] for i in api["admin"].get(URL, params).json()["data"]]

    assert sorted(ids(userId=str(reports["customer"].pk))) == ["2026-06-10", "2026-06-11"]
    assert ids(startDate="2026-06-11", endDate="2026-06-11") == ["2026-06-11"]
    assert sorted(ids(startDate="2026-06-11")) == ["2026-06-11", "2026-06-12"]
    assert ids(status="SUBMITTED") == []
    assert len(ids(status="PENDING")) == 3


@pytest.mark.parametrize("params", [{"status": "NOPE"}, {"userId": "x"}, {"startDate": "yesterday"}])
def test_bad_filters_are_400(api, reports, params):
    r = api["officer"].get(URL, params)
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"


def test_unknown_or_malformed_id_is_404(api, reports):
    assert api["officer"].get(f"{URL}/00000000-0000-0000-0000-000000000000").status_code == 404
    assert api["officer"].get(f"{URL}/not-a-uuid").status_code == 404


@pytest.mark.parametrize("role", ["support", "finance"])
def test_support_and_finance_are_refused(api, reports, role):
    report_id = api["officer"].get(URL).json()["data"][0]["id"]
    assert api[role].get(URL).status_code == 403
    assert api[role].get(f"{URL}/{report_id}").status_code == 403
    assert api[role].post(f"{URL}/batches", {}, format="json").status_code == 403
    r = api[role].post(f"{URL}/{report_id}/fiu-response", {"accepted": True}, format="json")
    assert r.status_code == 403


def test_anonymous_is_401(client, reports):
    assert client.get(URL).status_code == 401
