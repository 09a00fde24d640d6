"""Migration 0011 adds matcher 1.1.0's slip-tolerant keys to users indexed before it, and nothing else."""

from importlib import import_module

import pytest
from django.apps import apps

from kyc.models import UserNameKey
from kyc.services import user_name_index
from kyc.tests.factories import PlatformUserFactory
from names import Person, blocking_keys

pytestmark = pytest.mark.django_db

migration = import_module("kyc.migrations.0012_index_slip_tolerant_name_keys")


def keys_of(user) -> set[str]:
    return set(UserNameKey.objects.filter(user=user).values_list("key", flat=True))


def test_users_indexed_before_get_the_new_keys_and_keep_the_old():
    user = PlatformUserFactory(first_name="Nomvula", last_name="Fenamuga")
    user_name_index(user=user)
    UserNameKey.objects.filter(user=user, key__regex=r"^[tu]:").delete()  # as matcher 1.0 left the index
    before = keys_of(user)
    assert before and not any(key[:2] in ("t:", "u:") for key in before)

    migration.add_keys(apps, None)

    assert keys_of(user) == blocking_keys(Person("Nomvula Fenamuga"))
    assert before < keys_of(user)


def test_running_it_again_changes_nothing():
    users = [PlatformUserFactory(first_name="Sipho", last_name=name) for name in ("Dlamini", "Mavimbela")]
    for user in users:
        user_name_index(user=user)
    rows = UserNameKey.objects.count()
    migration.add_keys(apps, None)
    assert UserNameKey.objects.count() == rows
