"""The one way higher apps change a user's risk: capped at 100, the rating follows, every change audited."""

import pytest

from backoffice.models import AuditLog
from kyc.choices import RiskRating
from kyc.services import RiskFlag, risk_rating_for, user_risk_flag, user_risk_flag_many
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "score,rating", [(0, "LOW"), (39, "LOW"), (40, "MEDIUM"), (69, "MEDIUM"), (70, "HIGH"), (100, "HIGH")]
)
def test_rating_bands(score, rating):
    assert risk_rating_for(score) == rating


def test_a_raise_is_capped_at_100_and_reports_what_it_applied():
    user = PlatformUserFactory(current_risk_score=90, risk_rating=RiskRating.HIGH)
    change = user_risk_flag(user_id=user.pk, points=30, potential_pep=True, reason="PEP match")
    user.refresh_from_db()
    assert (user.current_risk_score, user.risk_rating, user.is_potential_pep) == (100, "HIGH", True)
    assert change.applied == 10 and change.changed


def test_a_raise_never_lowers_the_rating_and_taking_points_back_recomputes_it():
    user = PlatformUserFactory(current_risk_score=5, risk_rating=RiskRating.HIGH)
    user_risk_flag(user_id=user.pk, points=30, reason="PEP match")
    user.refresh_from_db()
    assert (user.current_risk_score, user.risk_rating) == (35, "HIGH")
    user_risk_flag(user_id=user.pk, points=-30, potential_pep=False, reason="dismissed")
    user.refresh_from_db()
    assert (user.current_risk_score, user.risk_rating, user.is_potential_pep) == (5, "LOW", False)


def test_many_flags_apply_in_order_with_one_audit_entry_per_user():
    a, b = PlatformUserFactory(), PlatformUserFactory(current_risk_score=80)
    changes = user_risk_flag_many(
        flags=[RiskFlag(a.pk, 30, True), RiskFlag(b.pk, 30, True), RiskFlag(a.pk, 30, True)], reason="PEP match"
    )
    assert [c.applied for c in changes] == [30, 20, 30]
    a.refresh_from_db()
    assert a.current_risk_score == 60 and a.risk_rating == "MEDIUM"
    entries = AuditLog.objects.filter(action="user.risk")
    assert entries.count() == 2
    assert entries.get(object_id=str(a.pk)).changes["current_risk_score"] == {"from": 0, "to": 60}


def test_a_flag_that_changes_nothing_writes_nothing():
    user = PlatformUserFactory(current_risk_score=100, risk_rating=RiskRating.HIGH, is_potential_pep=True)
    change = user_risk_flag(user_id=user.pk, points=30, potential_pep=True, reason="again")
    assert change.applied == 0 and not change.changed
    assert not AuditLog.objects.filter(action="user.risk").exists()
