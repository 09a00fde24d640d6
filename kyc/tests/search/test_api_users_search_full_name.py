"""A full name across the name fields, in any order; every word must match; the last may be a prefix."""

import pytest

from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import BASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return {
        "thabo": PlatformUserFactory(first_name="Thabo", last_name="Dlamini"),
        "lethabo": PlatformUserFactory(first_name="Lethabo", last_name="Dlamini"),
        "nokuthula": PlatformUserFactory(first_name="Nokuthula", last_name="Dlamini-Nxumalo"),
        "legacy": PlatformUserFactory(first_name="T", last_name="D", names="Sipho Thabo", surname="Mamba"),
        "nkosi": PlatformUserFactory(first_name="Thabo", last_name="Nkosi", email="thabo.n@example.com"),
    }


def found(client, url, param, term) -> set[str]:
    response = client.get(url, {param: term, "limit": 100})
    assert response.status_code == 200, response.json()
    return {row["id"] for row in response.json()["data"]}


def ids(people, *names) -> set[str]:
    return {str(people[n].pk) for n in names}


@pytest.mark.parametrize("url,param", [(f"{BASE}/search", "q"), (BASE, "search")])
@pytest.mark.parametrize(
    "term,expected",
    [
        ("Thabo Dlamini", ["thabo"]),
        ("dlamini thabo", ["thabo"]),
        ("THABO   dlamini", ["thabo"]),
        ("nokuthula dlamin", ["nokuthula"]),
        ("dlamini nokuth", ["nokuthula"]),
        ("nxumalo nokuthula", ["nokuthula"]),
        ("thabo mamba", ["legacy"]),
        ("sipho mam", ["legacy"]),
        ("nkosi thabo.n@", ["nkosi"]),
        ("Thabo Zulu", []),
        ("habo dlamini", []),
    ],
)
def test_every_word_must_match_a_field_in_any_order(admin_client_api, people, url, param, term, expected):
    assert found(admin_client_api, url, param, term) == ids(people, *expected)


def test_one_word_still_matches_inside_a_name(admin_client_api, people):
    assert found(admin_client_api, f"{BASE}/search", "q", "habo") == ids(people, "thabo", "lethabo", "nkosi", "legacy")
