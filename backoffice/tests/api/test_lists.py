"""The shared list pieces: strict page/limit, sorting whitelist, date bounds, strict booleans."""

import datetime as dt

import django_filters
import pytest
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.test import APIRequestFactory, force_authenticate

from backoffice.api.permissions import IsStaff
from backoffice.lists.filters import ListFilterSet, StrictBooleanFilter
from backoffice.models import Staff
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


class StaffFilter(ListFilterSet):
    sort_fields = {"createdAt": "created_at", "email": "email"}
    active = StrictBooleanFilter(field_name="is_active")
    role = django_filters.CharFilter()

    class Meta:
        model = Staff
        fields = []


class StaffRow(serializers.ModelSerializer):
    class Meta:
        model = Staff
        fields = ["email"]


class StaffList(ListAPIView):
    queryset = Staff.objects.all()
    serializer_class = StaffRow
    filterset_class = StaffFilter
    permission_classes = [IsStaff]


def call(**params):
    viewer = Staff.objects.order_by("created_at").first()
    request = APIRequestFactory().get("/x", params)
    force_authenticate(request, user=viewer)
    response = StaffList.as_view()(request)
    response.render()
    return response


@pytest.fixture
def staff():
    base = dt.datetime(2026, 1, 10, 12, tzinfo=dt.UTC)
    rows = [StaffFactory(email=f"s{n}@example.com", is_active=n != 4) for n in range(5)]
    for n, row in enumerate(rows):
        Staff.objects.filter(pk=row.pk).update(created_at=base + dt.timedelta(days=n))
    return rows


def emails(response):
    return [row["email"] for row in response.data["data"]]


def test_default_page_and_newest_first(staff):
    r = call()
    assert r.data["pagination"] == {"page": 1, "limit": 20, "total": 5, "totalPages": 1}
    assert emails(r) == [f"s{n}@example.com" for n in (4, 3, 2, 1, 0)]


def test_page_arithmetic(staff):
    r = call(limit=2, page=3)
    assert r.data["pagination"] == {"page": 3, "limit": 2, "total": 5, "totalPages": 3}
    assert emails(r) == ["s0@example.com"]


def test_a_page_past_the_end_is_empty_not_an_error(staff):
    r = call(limit=2, page=9)
    assert r.status_code == 200 and r.data["data"] == []


def test_limit_above_100_is_capped(staff):
    assert call(limit=500).data["pagination"]["limit"] == 100


@pytest.mark.parametrize(
    "param,value", [("limit", "0"), ("limit", "-5"), ("limit", "abc"), ("limit", "2.5"), ("page", "0"), ("page", "two")]
)
def test_page_and_limit_must_be_positive_integers(staff, param, value):
    r = call(**{param: value})
    assert r.status_code == 400 and r.data["error"]["code"] == "VALIDATION_ERROR"


def test_sort_by_a_whitelisted_field_both_ways(staff):
    assert emails(call(sortBy="email", sortOrder="asc"))[0] == "s0@example.com"
    assert emails(call(sortBy="email"))[0] == "s4@example.com"


@pytest.mark.parametrize("field", ["password", "is_superuser", "__class__", "email;drop"])
def test_sort_by_outside_the_whitelist_is_400(staff, field):
    r = call(sortBy=field)
    assert r.status_code == 400 and "sortBy" in r.data["error"]["details"]


def test_sort_order_must_be_asc_or_desc(staff):
    assert call(sortOrder="up").status_code == 400


def test_a_bare_end_date_includes_that_whole_day(staff):
    r = call(startDate="2026-01-11", endDate="2026-01-12")
    assert emails(r) == ["s2@example.com", "s1@example.com"]


def test_date_times_are_exact_bounds(staff):
    r = call(startDate="2026-01-11T12:00:01Z")
    assert emails(r) == ["s4@example.com", "s3@example.com", "s2@example.com"]


def test_bad_dates_are_400(staff):
    assert call(startDate="yesterday").status_code == 400


@pytest.mark.parametrize("value,count", [("true", 4), ("1", 4), ("false", 1), ("0", 1)])
def test_booleans_accept_true_false_1_0(staff, value, count):
    assert call(active=value).data["pagination"]["total"] == count


@pytest.mark.parametrize("value", ["yes", "maybe", "TRUEISH"])
def test_other_boolean_values_are_400(staff, value):
    r = call(active=value)
    assert r.status_code == 400 and "active" in r.data["error"]["details"]
