"""The screening demo: a potential match, a confirmed (frozen) customer and a held payment; twice changes nothing."""

import io

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sanctions import screening_demo
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.tests.screening.helpers import make_entry
from kyc.models import PlatformUser, Transaction

pytestmark = pytest.mark.django_db


def test_the_demo_seeds_the_whole_flow_once(django_capture_on_commit_callbacks):
    StaffFactory(email="mlro@vikela.demo", role=StaffRole.MLRO)
    make_entry("Ahmad Khalil Haddad", dates_of_birth=["1970"])
    make_entry("Bashir Omar Nuri")
    make_entry("Global Shipping Trust", entry_type="ENTITY")
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            screening_demo.seed(io.StringIO())
    statuses = sorted(SanctionsMatch.objects.values_list("party", "status"))
    assert statuses == [("COUNTERPARTY", "POTENTIAL"), ("USER", "CONFIRMED"), ("USER", "POTENTIAL")]
    assert PlatformUser.objects.get(phone_number=screening_demo.CONFIRMED_PHONE).is_frozen
    assert Transaction.objects.get(external_id=screening_demo.HELD_EXTERNAL_ID).status == "HELD"
