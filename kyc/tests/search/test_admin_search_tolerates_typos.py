"""Issue 31: the admin's customer search finds a customer through two typos (the name index and matcher behind the
plain search), finds nobody for a name nobody bears, and leaves the API's search as the contract has it."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from kyc.filtersets import search_users, search_users_tolerant
from kyc.models import PlatformUser
from kyc.services.names import user_name_index
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    made = {}
    for first, last in (("Thabo", "Dlamini"), ("Sipho", "Nkosi"), ("Lindiwe", "Zwane"), ("Thandi", "Dube")):
        made[first] = PlatformUserFactory(first_name=first, last_name=last)
        user_name_index(user=made[first])
    return made


@pytest.mark.parametrize("term", ["Thaba Dlamimi", "dlamni thabo", "Thabo Dlamini"])
def test_two_typos_still_find_the_customer(people, term):
    found = list(search_users_tolerant(PlatformUser.objects.all(), term))
    assert found == [people["Thabo"]]


def test_a_name_nobody_bears_finds_nobody(people):
    assert not search_users_tolerant(PlatformUser.objects.all(), "Zzyzx Qwerty").exists()


def test_the_api_search_is_unchanged(people):
    assert not search_users(PlatformUser.objects.all(), "Thaba Dlamimi").exists()


def test_support_finds_them_in_the_admin(people):
    client = Client()
    client.force_login(StaffFactory(role=StaffRole.SUPPORT))
    page = client.get(reverse("admin:kyc_platformuser_changelist"), {"q": "Thaba Dlamimi"}).content.decode()
    assert "Thabo" in page and "Sipho" not in page
