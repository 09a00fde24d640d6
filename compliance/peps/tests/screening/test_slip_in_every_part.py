"""A slip in every part of a name, through the real indexes both ways: a new PEP finds the user (the users'
name-key table), a screened name finds the PEP (the PEPs' in-memory index) (issue: "Nomvulo Fenamuga" did not
match "Nomvula Fenamugi"); migration 0010 gave PEPs listed before matcher 1.1.0 their slip-tolerant keys."""

from importlib import import_module

import pytest
from django.apps import apps

from compliance.peps.models.pep import PEPMatch, PEPNameKey
from compliance.peps.selectors.pep import pep_person, pep_screen
from compliance.peps.services import pep as pep_services
from kyc.name_index import stored
from kyc.services import user_name_index
from kyc.tests.factories import PlatformUserFactory
from names import blocking_keys

pytestmark = pytest.mark.django_db

migration = import_module("compliance.migrations.0010_index_slip_tolerant_pep_name_keys")


def test_a_new_pep_with_a_slip_in_every_part_matches_the_user():
    user = PlatformUserFactory(first_name="Nomvulo", last_name="Fenamuga")
    user_name_index(user=user)
    pep_services.pep_create(actor=None, name="Nomvula Fenamugi")
    match = PEPMatch.objects.get(user=user)
    assert any(item["kind"] == "readAsSlip" for item in match.explanation["adjustments"])


def test_a_screened_name_with_a_consonant_slip_in_every_part_finds_the_pep():
    pep_services.pep_create(actor=None, name="Nomvula Fenamuga")
    hits = pep_screen(name="Nonvula Fenamuka")
    assert [hit.pep.name for hit in hits] == ["Nomvula Fenamuga"]


def test_peps_indexed_before_get_the_new_keys_and_screening_never_depended_on_them():
    pep = pep_services.pep_create(actor=None, name="Nomvula Fenamuga", aliases=["Nomvula Dlamini"]).pep
    PEPNameKey.objects.filter(pep=pep, key__regex=r"^[tu]:").delete()  # as matcher 1.0 left the index
    # a screen asks the process's in-memory index, built from the PEP rows, not the stored keys
    assert [hit.pep.name for hit in pep_screen(name="Nonvula Fenamuka")] == ["Nomvula Fenamuga"]

    migration.add_keys(apps, None)
    migration.add_keys(apps, None)  # safe to run again

    assert set(PEPNameKey.objects.filter(pep=pep).values_list("key", flat=True)) == stored(
        blocking_keys(pep_person(pep))
    )
    assert [hit.pep.name for hit in pep_screen(name="Nonvula Fenamuka")] == ["Nomvula Fenamuga"]
