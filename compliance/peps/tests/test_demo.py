"""The demo PEP list: every category, aliases, other scripts, matches with demo users, idempotent."""

import io

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.peps.choices import PEPCategory
from compliance.peps.demo import seed as seed_peps
from compliance.peps.models.pep import PEP, PEPMatch, ScreeningRun
from compliance.peps.tests.helpers import make_user

pytestmark = pytest.mark.django_db


def test_demo_peps_cover_every_category_match_demo_users_and_seed_once():
    StaffFactory(email="compliance@vikela.demo", role=StaffRole.COMPLIANCE_OFFICER)
    make_user("Sibusiso", "Mkhonta", phone_number="+26876200002")
    make_user("Mandla", "Zwane", phone_number="+26876210005")
    make_user("Thabo", "Dlamini", phone_number="+26876210001")
    seed_peps(io.StringIO())
    assert set(PEP.objects.values_list("category", flat=True)) == set(PEPCategory.values)
    assert PEP.objects.exclude(aliases=[]).count() >= 3
    assert any(not name.isascii() for name in PEP.objects.values_list("name", flat=True))
    assert PEP.objects.filter(is_active=False).exists()
    statuses = dict(PEPMatch.objects.values_list("user__phone_number", "status"))
    assert statuses == {"+26876200002": "CONFIRMED", "+26876210005": "DISMISSED"}  # no Dlamini namesake matched
    state = (PEP.objects.count(), PEPMatch.objects.count(), Alert.objects.count(), ScreeningRun.objects.count())
    seed_peps(io.StringIO())
    assert (PEP.objects.count(), PEPMatch.objects.count(), Alert.objects.count(), ScreeningRun.objects.count()) == state
