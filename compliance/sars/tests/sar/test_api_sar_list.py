"""GET /api/v1/admin/aml/sars: its own pagination shape, filters, sorting, and a constant number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from compliance.sars.choices import SARStatus
from compliance.sars.tests.sar.helpers import file_sar, move

URL = "/api/v1/admin/aml/sars"


def test_the_list_has_its_own_pagination_shape_and_item_fields(clients, make_sar, subject, crew):
    make_sar()
    make_sar()
    r = clients["filer"].get(URL, {"limit": 1})
    assert r.status_code == 200
    b = r.json()
    assert b["success"] is True
    assert b["data"]["pagination"] == {
        "totalItems": 2,
        "currentPage": 1,
        "itemsPerPage": 1,
        "totalPages": 2,
        "hasNextPage": True,
        "hasPrevPage": False,
    }
    item = b["data"]["sars"][0]
    assert set(item) == {
        "id",
        "sarId",
        "status",
        "suspiciousActivityType",
        "activityDescription",
        "dateOfSuspiciousActivity",
        "amountInvolved",
        "entityUser",
        "filedBy",
        "createdAt",
        "draftedAt",
        "dueAt",
        "priority",
    }
    assert item["entityUser"] == {
        "id": str(subject.pk),
        "firstName": "Thabo",
        "lastName": "Maseko",
        "email": subject.email,
        "phoneNumber": subject.phone_number,
    }
    assert item["filedBy"] == {
        "id": str(crew["filer"].pk),
        "firstName": crew["filer"].first_name,
        "lastName": crew["filer"].last_name,
        "email": crew["filer"].email,
    }
    page2 = clients["filer"].get(URL, {"limit": 1, "page": 2}).json()["data"]
    assert page2["pagination"]["hasPrevPage"] is True and page2["pagination"]["hasNextPage"] is False
    assert page2["sars"][0]["id"] != item["id"]


def test_a_page_past_the_end_is_empty(clients, make_sar):
    make_sar()
    data = clients["filer"].get(URL, {"page": 5}).json()["data"]
    assert data["sars"] == [] and data["pagination"]["totalItems"] == 1


def test_limit_is_capped_at_100(clients):
    assert clients["filer"].get(URL, {"limit": 1000}).json()["data"]["pagination"]["itemsPerPage"] == 100


@pytest.mark.parametrize(
    "param,value", [("limit", "0"), ("limit", "-5"), ("limit", "abc"), ("limit", "2.5"), ("page", "0"), ("page", "two")]
)
def test_page_and_limit_must_be_positive_integers(clients, param, value):
    r = clients["filer"].get(URL, {param: value})
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"


def test_the_status_filter_keeps_only_that_status(clients, make_sar):
    draft = make_sar()
    pending = make_sar(SARStatus.PENDING_REVIEW)
    ids = [s["id"] for s in clients["filer"].get(URL, {"status": "PENDING_REVIEW"}).json()["data"]["sars"]]
    assert ids == [str(pending.pk)] and str(draft.pk) not in ids


@pytest.mark.parametrize(
    "params",
    [
        {"status": "PENDING"},
        {"sortBy": "__class__"},
        {"sortBy": "password"},
        {"sortOrder": "sideways"},
        {"startDate": "yesterday"},
    ],
)
def test_bad_filters_and_sorts_are_400(clients, params):
    r = clients["filer"].get(URL, params)
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"


def test_default_order_is_newest_first_and_sort_by_amount_works(clients, subject, crew):
    small = file_sar(subject, crew["filer"], amount_involved="10.00")
    big = file_sar(subject, crew["filer"], amount_involved="900.00")
    newest_first = [s["id"] for s in clients["filer"].get(URL).json()["data"]["sars"]]
    assert newest_first == [str(big.pk), str(small.pk)]
    by_amount = clients["filer"].get(URL, {"sortBy": "amountInvolved", "sortOrder": "asc"}).json()["data"]["sars"]
    assert [s["amountInvolved"] for s in by_amount] == [10.0, 900.0]


def test_date_bounds_are_inclusive_on_created_at(clients, make_sar):
    sar = make_sar()
    day = sar.created_at.date().isoformat()
    assert clients["filer"].get(URL, {"startDate": day, "endDate": day}).json()["data"]["pagination"]["totalItems"] == 1
    assert clients["filer"].get(URL, {"startDate": "2999-01-01"}).json()["data"]["sars"] == []


def test_the_list_costs_the_same_queries_for_3_or_30_sars(clients, subject, crew):
    def queries():
        with CaptureQueriesContext(connection) as ctx:
            assert clients["reviewer"].get(URL, {"limit": 100}).status_code == 200
        return len(ctx.captured_queries)

    for _ in range(3):
        move(file_sar(subject, crew["filer"]), crew["filer"], SARStatus.PENDING_REVIEW)
    few = queries()
    for _ in range(27):
        file_sar(subject, crew["reviewer"])
    assert queries() == few


def test_total_items_follows_every_filing_and_move(clients, make_sar, crew):
    def total(**params):
        return clients["filer"].get(URL, params).json()["data"]["pagination"]["totalItems"]

    sar = make_sar()
    assert (total(), total(status="DRAFT"), total(status="PENDING_REVIEW")) == (1, 1, 0)
    make_sar()
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    assert (total(), total(status="DRAFT"), total(status="PENDING_REVIEW")) == (2, 1, 1)
