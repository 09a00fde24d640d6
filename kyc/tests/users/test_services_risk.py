"""The one way a user's risk is written: the flag set, the score recomputed by the one risk function (the
``risk_scores`` hook), capped at 0..100, the rating from the score, every change audited with its reason."""

import pytest

from backoffice.models import AuditLog
from kyc import hooks
from kyc.choices import RiskRating
from kyc.services import risk_rating_for, user_risk_refresh, user_risk_refresh_many
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "score,rating", [(0, "LOW"), (39, "LOW"), (40, "MEDIUM"), (69, "MEDIUM"), (70, "HIGH"), (100, "HIGH")]
)
def test_rating_bands(score, rating):
    assert risk_rating_for(score) == rating


@pytest.fixture
def facts(monkeypatch):
    """The risk function answering what the test says (compliance's own is tested in compliance)."""
    answers: dict = {}
    seen: list = []

    def scores(*, users):
        seen.append({u.pk: u.is_potential_pep for u in users})
        return {u.pk: answers[u.pk] for u in users if u.pk in answers}

    monkeypatch.setattr(hooks.risk_scores, "_functions", [scores])
    return answers, seen


def test_the_score_is_what_the_facts_say_capped_and_the_rating_follows(facts):
    answers, _ = facts
    user = PlatformUserFactory(current_risk_score=90, risk_rating=RiskRating.HIGH)
    answers[user.pk] = 130
    change = user_risk_refresh(user_id=user.pk, reason="PEP match")
    user.refresh_from_db()
    assert (user.current_risk_score, user.risk_rating) == (100, "HIGH")
    assert change.applied == 10 and change.changed
    answers[user.pk] = 12
    user_risk_refresh(user_id=user.pk, reason="alert closed")
    user.refresh_from_db()
    assert (user.current_risk_score, user.risk_rating) == (12, "LOW")


def test_the_flag_is_written_before_the_score_is_computed(facts):
    answers, seen = facts
    user = PlatformUserFactory(is_potential_pep=False)
    answers[user.pk] = 40
    user_risk_refresh(user_id=user.pk, potential_pep=True, reason="PEP match")
    assert seen == [{user.pk: True}]
    user.refresh_from_db()
    assert user.is_potential_pep and (user.current_risk_score, user.risk_rating) == (40, "MEDIUM")


def test_many_users_one_audit_entry_each_with_the_reason(facts):
    answers, _ = facts
    a, b, same = PlatformUserFactory(), PlatformUserFactory(current_risk_score=80), PlatformUserFactory()
    answers.update({a.pk: 60, b.pk: 20, same.pk: same.current_risk_score})
    changes = user_risk_refresh_many(user_ids=[a.pk, b.pk, same.pk, a.pk], reason="Alert raised")
    assert changes[a.pk].applied == 60 - a.current_risk_score and changes[b.pk].applied == -60
    assert not changes[same.pk].changed
    entries = AuditLog.objects.filter(action="user.risk")
    assert entries.count() == 2
    assert entries.get(object_id=str(b.pk)).changes["current_risk_score"] == {"from": 80, "to": 20}
    assert entries.get(object_id=str(b.pk)).changes["reason"] == "Alert raised"


def test_without_a_risk_function_only_the_flag_changes(monkeypatch):
    monkeypatch.setattr(hooks.risk_scores, "_functions", [])
    user = PlatformUserFactory(current_risk_score=43, risk_rating=RiskRating.MEDIUM)
    user_risk_refresh(user_id=user.pk, potential_pep=True, reason="PEP match")
    user.refresh_from_db()
    assert user.is_potential_pep and (user.current_risk_score, user.risk_rating) == (43, "MEDIUM")


def test_a_gone_user_is_skipped(facts):
    import uuid

    assert user_risk_refresh(user_id=uuid.uuid4(), reason="x") is None
