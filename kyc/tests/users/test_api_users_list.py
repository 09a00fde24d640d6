import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from backoffice.lists import paging as pagination
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import BASE

pytestmark = pytest.mark.django_db


def ids(response):
    return {item["id"] for item in response.json()["data"]}


def test_list_items_carry_the_interface_fields_and_the_general_pagination(admin_client_api):
    PlatformUserFactory(balance=Decimal("12.50"))
    body = admin_client_api.get(BASE).json()
    assert body["success"] is True
    assert body["pagination"] == {"page": 1, "limit": 20, "total": 1, "totalPages": 1}
    item = body["data"][0]
    assert set(item) >= {
        "id",
        "phoneNumber",
        "email",
        "firstName",
        "lastName",
        "verificationStatus",
        "riskRating",
        "currentRiskScore",
        "balance",
        "isVerified",
        "createdAt",
    }
    assert item["balance"] == 12.5
    assert item["createdAt"].endswith("Z")


def test_archived_users_are_listed_only_when_is_archived_is_true(admin_client_api):
    active = PlatformUserFactory()
    archived = PlatformUserFactory(is_archived=True)
    assert ids(admin_client_api.get(BASE)) == {str(active.pk)}
    assert ids(admin_client_api.get(BASE, {"isArchived": "false"})) == {str(active.pk)}
    assert ids(admin_client_api.get(BASE, {"isArchived": "true"})) == {str(archived.pk)}
    assert ids(admin_client_api.get(BASE, {"isArchived": "1"})) == {str(archived.pk)}


@pytest.mark.parametrize("param", ["isArchived", "hasCard"])
def test_booleans_other_than_true_false_1_0_are_400(admin_client_api, param):
    response = admin_client_api.get(BASE, {param: "yes"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert param in response.json()["error"]["details"]


def test_has_card_filters_on_a_linked_nfc_card(admin_client_api):
    with_card = PlatformUserFactory(nfc_card_number="NFC-0001")
    without = PlatformUserFactory()
    assert ids(admin_client_api.get(BASE, {"hasCard": "true"})) == {str(with_card.pk)}
    assert ids(admin_client_api.get(BASE, {"hasCard": "0"})) == {str(without.pk)}


def test_verification_status_and_risk_rating_filter(admin_client_api):
    verified_high = PlatformUserFactory(verification_status="VERIFIED", is_verified=True, risk_rating="HIGH")
    PlatformUserFactory(verification_status="VERIFIED", is_verified=True, risk_rating="LOW")
    PlatformUserFactory(verification_status="REJECTED", risk_rating="HIGH")
    response = admin_client_api.get(BASE, {"verificationStatus": "VERIFIED", "riskRating": "HIGH"})
    assert ids(response) == {str(verified_high.pk)}


def test_an_unknown_verification_status_is_400(admin_client_api):
    response = admin_client_api.get(BASE, {"verificationStatus": "MAYBE"})
    assert response.status_code == 400
    assert "verificationStatus" in response.json()["error"]["details"]


@pytest.mark.parametrize(
    "fields,term",
    [
        ({"first_name": "Thandeka"}, "thand"),
        ({"last_name": "Mamba"}, "MAMB"),
        ({"names": "Sipho Themba"}, "themba"),
        ({"surname": "Kunene"}, "unen"),
        ({"phone_number": "+26876991234"}, "7699123"),
        ({"email": "zodwa@mail.example"}, "ZODWA@"),
        ({"id_number": "9001015800087"}, "0101580"),
    ],
)
def test_search_matches_names_legacy_names_phone_email_and_id_number_ignoring_case(admin_client_api, fields, term):
    match = PlatformUserFactory(**fields)
    PlatformUserFactory(first_name="Other", last_name="Person", email="nobody@example.org")
    assert ids(admin_client_api.get(BASE, {"search": term})) == {str(match.pk)}


def test_search_finds_a_phone_number_typed_with_spaces(admin_client_api):
    match = PlatformUserFactory(phone_number="+26876123456")
    assert ids(admin_client_api.get(BASE, {"search": "7612 3456"})) == {str(match.pk)}


def test_sort_by_balance_ascending(admin_client_api):
    rich = PlatformUserFactory(balance=Decimal("900.00"))
    poor = PlatformUserFactory(balance=Decimal("1.00"))
    data = admin_client_api.get(BASE, {"sortBy": "balance", "sortOrder": "asc"}).json()["data"]
    assert [u["id"] for u in data] == [str(poor.pk), str(rich.pk)]


@pytest.mark.parametrize("field", ["password", "balance;drop", "is_archived"])
def test_sort_by_outside_the_whitelist_is_400(admin_client_api, field):
    response = admin_client_api.get(BASE, {"sortBy": field})
    assert response.status_code == 400
    assert "sortBy" in response.json()["error"]["details"]


def test_start_and_end_dates_are_inclusive_bounds_on_created_at(admin_client_api):
    user = PlatformUserFactory()
    day = timezone.now().date()
    assert ids(admin_client_api.get(BASE, {"startDate": day.isoformat(), "endDate": day.isoformat()})) == {str(user.pk)}
    tomorrow = (day + dt.timedelta(days=1)).isoformat()
    assert admin_client_api.get(BASE, {"startDate": tomorrow}).json()["pagination"]["total"] == 0


def test_limit_is_capped_at_100_and_bad_pages_are_400(admin_client_api):
    assert admin_client_api.get(BASE, {"limit": 500}).json()["pagination"]["limit"] == 100
    assert admin_client_api.get(BASE, {"page": "0"}).status_code == 400


def test_a_page_of_users_costs_a_fixed_number_of_queries(admin_client_api, django_assert_max_num_queries):
    PlatformUserFactory.create_batch(30)
    # staff lookup, count, page: the same however many users there are
    with django_assert_max_num_queries(4):
        response = admin_client_api.get(BASE, {"limit": 30})
    assert len(response.json()["data"]) == 30


def test_put_on_the_collection_is_405(admin_client_api):
    response = admin_client_api.put(BASE, {}, format="json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "METHOD_NOT_ALLOWED"


def test_deep_pages_find_their_ids_first_and_keep_the_order(admin_client_api, monkeypatch):
    monkeypatch.setattr(pagination, "DEFERRED_JOIN_OFFSET", 2)
    users = PlatformUserFactory.create_batch(5)
    expected = [str(u.pk) for u in sorted(users, key=lambda u: (u.created_at, u.pk), reverse=True)][2:4]
    data = admin_client_api.get(BASE, {"limit": 2, "page": 2}).json()["data"]
    assert [u["id"] for u in data] == expected
