"""Users by ID number (the duplicate search's profile side), compared through ``kyc.identity.id_number_key``."""

import pytest

from kyc.selectors.users import users_with_id_number
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def test_a_profile_number_written_with_spaces_and_dashes_is_found_by_its_digits():
    spaced = PlatformUserFactory(id_number="9001 0158-00085")
    plain = PlatformUserFactory(id_number="9001015800085")
    PlatformUserFactory(id_number="9001015800086")
    assert set(users_with_id_number(id_number="９００１０１５８０００８５")) == {spaced.pk, plain.pk}
    assert users_with_id_number(id_number="9001015800085", exclude_user_id=plain.pk) == [spaced.pk]


def test_a_changed_number_is_searched_by_its_new_value():
    user = PlatformUserFactory(id_number="9001015800085")
    user.id_number = "8502 0258 00089"
    user.save(update_fields=["id_number"])
    assert users_with_id_number(id_number="9001015800085") == []
    assert users_with_id_number(id_number="8502025800089") == [user.pk]


def test_no_number_finds_nobody():
    PlatformUserFactory(id_number="")
    assert users_with_id_number(id_number=" - ") == []


def test_the_migration_fills_the_keys_of_existing_users():
    import importlib

    from django.apps import apps

    from kyc.models import PlatformUser

    user = PlatformUserFactory(id_number="9001 0158-00085")
    PlatformUser.objects.filter(pk=user.pk).update(id_number_key="")  # as the column was added
    importlib.import_module("kyc.migrations.0016_user_id_number_key").fill_keys(apps, None)
    assert users_with_id_number(id_number="9001015800085") == [user.pk]
