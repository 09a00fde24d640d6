"""The users' name index: written with every name, searched by key, counted for name weights."""

from io import StringIO

import pytest
from django.core.management import call_command

from kyc.models import UserNameKey, UserNamePart
from kyc.selectors import name_matching
from kyc.services import user_name_index, user_purge, user_update
from kyc.tests.factories import PlatformUserFactory
from names import Person, blocking_keys, lookup_keys

pytestmark = pytest.mark.django_db


def keys_of(user) -> set[str]:
    return set(UserNameKey.objects.filter(user=user).values_list("key", flat=True))


def test_the_index_holds_the_blocking_keys_and_parts_of_the_name():
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    user_name_index(user=user)
    assert keys_of(user) == blocking_keys(Person("Sipho Dlamini"))
    assert set(UserNamePart.objects.filter(user=user).values_list("part", flat=True)) == {"sipho", "dlamini"}


def test_legacy_names_that_differ_are_indexed_as_an_alias():
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", names="Themba", surname="NKOSI")
    user_name_index(user=user)
    assert keys_of(user) == blocking_keys(Person("Sipho Dlamini", aliases=("Themba NKOSI",)))


def test_a_name_change_replaces_the_keys_and_registration_writes_them(api, django_capture_on_commit_callbacks):
    user = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    user_name_index(user=user)
    user_update(user=user, actor=None, last_name="Nkosi")
    assert keys_of(user) == blocking_keys(Person("Sipho Nkosi"))
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/v1/auth/user/register",
            {
                "phoneNumber": "+26876999001",
                "password": "Lindiwe-Str0ng-Pass",
                "firstName": "Lindiwe",
                "lastName": "Zulu",
            },
            format="json",
        )
    assert response.status_code == 201
    assert UserNameKey.objects.filter(user_id=response.json()["data"]["id"]).exists()


def test_the_rebuild_command_indexes_every_user_and_a_purge_removes_the_rows():
    users = PlatformUserFactory.create_batch(3)
    out = StringIO()
    call_command("index_user_names", "--batch-size", "2", stdout=out, stderr=StringIO())
    assert "3 users" in out.getvalue()
    assert {row for row in UserNameKey.objects.values_list("user_id", flat=True)} == {u.pk for u in users}
    user_purge(user=users[0], actor=None)
    assert not UserNameKey.objects.filter(user_id=users[0].pk).exists()


def test_users_are_found_by_their_lookup_keys_as_names_then_people():
    sipho = PlatformUserFactory(first_name="Sipho", last_name="Dlamini")
    namesake = PlatformUserFactory(first_name="Sipho", last_name="Dlamini", date_of_birth="1990-01-01")
    themba = PlatformUserFactory(first_name="Themba", last_name="Dlamini")
    for user in (sipho, namesake, themba):
        user_name_index(user=user)
    keys = lookup_keys(Person("DLAMINI, Sipho"), frequencies=name_matching.user_name_frequencies())
    assert name_matching.user_key_sizes(keys=keys)["p:dlmn|sf"] == 2  # "ph" reads as "f"
    groups = name_matching.user_name_groups(keys=keys)
    assert (("Sipho", "Dlamini", "", ""), 2) in groups["p:dlmn|sf"]  # two users, one name: the name travels once
    assert all(names[0] != "Themba" for found in groups.values() for names, _ in found)
    named = name_matching.users_named(keys=["p:dlmn|sf"], names=[("Sipho", "Dlamini", "", "")])
    people = {person.id: person for person in named["p:dlmn|sf"]}
    assert set(people) == {sipho.pk, namesake.pk}  # ids as text inside, UUIDs when asked
    assert people[namesake.pk].person.date_of_birth is not None and people[sipho.pk].person.country == "SZ"
    assert name_matching.user_people(user_ids=[themba.pk])[str(themba.pk)].full_name == "Themba Dlamini"


def test_frequencies_count_parts_blend_the_prior_and_are_cached():
    for first in ("Sipho", "Themba", "Bongani"):
        user_name_index(user=PlatformUserFactory(first_name=first, last_name="Mavimbela"))
    frequencies = name_matching.user_name_frequencies()
    # three of three users, plus the 10,000 people of the prior who have no Mavimbela
    assert frequencies.total == 3 + name_matching.PRIOR_PEOPLE
    assert frequencies.count("mavimbela") == 3
    assert frequencies.weight("dlamini") < frequencies.weight("mavimbela")  # the prior keeps Dlamini common
    user_name_index(user=PlatformUserFactory(first_name="Musa", last_name="Mavimbela"))
    assert name_matching.user_name_frequencies().count("mavimbela") == 3  # cached
    assert name_matching.user_name_frequencies(fresh=True).count("mavimbela") == 4


def test_keys_worth_searching_follow_the_real_bucket_sizes():
    from kyc.name_index import BUCKET_FLOOR, worth_searching

    sizes = {"p:dlmn|sph": 50_000, "n:dlmn": 180_000, "i:dlmn|s": 1500, "n:sph": 15_000, "i:sph|d": 900}
    assert worth_searching(sizes, total=1_000_000) == {"p:dlmn|sph", "i:dlmn|s", "i:sph|d"}
    assert worth_searching(sizes, total=100) == {"p:dlmn|sph"}  # the floor: at most 200 for a small index
    assert worth_searching({"n:mswt": 5000, "n:ms": 9000}, total=0) == {"n:mswt"}  # never unsearchable
    assert worth_searching({"n:x": BUCKET_FLOOR}, total=0) == {"n:x"}
    assert worth_searching({}, total=10) == set()
