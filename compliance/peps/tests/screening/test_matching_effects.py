"""The matching rules over time: one alert per (user, PEP name) ever, dismissals respected until the PEP's
matching content changes, the risk score capped, only changed entries screened again."""

import pytest

from compliance.aml.models.alerts import Alert
from compliance.peps.choices import PEPMatchStatus
from compliance.peps.models.pep import PEPMatch, ScreeningRun
from compliance.peps.services import pep as services
from compliance.peps.services.pep_matches import pep_match_review
from compliance.peps.tests.helpers import add_pep, make_user
from compliance.risk import risk_picture
from kyc.choices import RiskRating

pytestmark = pytest.mark.django_db
# what the facts of a freshly matched user add up to: the PEP flag 30, one open HIGH alert 12, identity not
# verified 10 (compliance/risk.py)
MATCHED = 30 + 12 + 10


def pep_alerts(user) -> int:
    return Alert.objects.filter(user=user, alert_type="PEP_MATCH").count()


def test_screening_the_same_name_again_never_duplicates_the_alert(db):
    user = make_user("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza").pep
    services.pep_update(pep=pep, actor=None, changes={"country": "Eswatini"})  # content changed: screened again
    services.pep_delete(pep=pep, actor=None)
    again = add_pep("BAKOTIMU  DAFILOZA")
    assert again.matching.alerts_created == 0 and again.matching.users_updated == set()
    assert pep_alerts(user) == 1
    match = PEPMatch.objects.get(user=user)
    assert match.pep == again.pep and match.status == PEPMatchStatus.POTENTIAL
    user.refresh_from_db()
    assert user.current_risk_score == MATCHED == risk_picture(user).indicated_score  # one alert, not one per run


def test_a_dismissal_survives_delete_and_unchanged_re_add(db, django_user_model):
    user = make_user("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza", country="Eswatini").pep
    match = PEPMatch.objects.get(user=user)
    pep_match_review(match=match, actor=None, status=PEPMatchStatus.DISMISSED, note="Not the same person")
    services.pep_delete(pep=pep, actor=None)
    result = add_pep("Bakotimu Dafiloza", country="Eswatini")
    match.refresh_from_db()
    assert match.status == PEPMatchStatus.DISMISSED and match.pep == result.pep
    assert result.matching.alerts_created == 0 and pep_alerts(user) == 1
    user.refresh_from_db()
    assert user.is_potential_pep is False


def test_a_dismissed_pair_reopens_once_when_the_pep_content_changes_and_still_matches(db):
    user = make_user("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza").pep
    match = PEPMatch.objects.get(user=user)
    pep_match_review(match=match, actor=None, status=PEPMatchStatus.DISMISSED, note="No")
    services.pep_update(pep=pep, actor=None, changes={"position": "Ambassador"})  # not matching content
    match.refresh_from_db()
    assert match.status == PEPMatchStatus.DISMISSED and pep_alerts(user) == 1
    result = services.pep_update(pep=pep, actor=None, changes={"aliases": ["B. Dafiloza"]})
    match.refresh_from_db()
    assert match.status == PEPMatchStatus.POTENTIAL and result.matching.alerts_created == 1
    assert pep_alerts(user) == 2 and match.alert.details["reason"] == "PEP record changed after a dismissal"
    user.refresh_from_db()
    assert user.is_potential_pep is True and user.current_risk_score == MATCHED  # the first alert closed
    # the same content once more (delete and re-add it): no third alert
    services.pep_delete(pep=pep, actor=None)
    add_pep("Bakotimu Dafiloza", aliases=["B. Dafiloza"])
    assert pep_alerts(user) == 2


def test_a_dismissed_pair_whose_pep_changed_but_no_longer_matches_stays_dismissed(db):
    user = make_user("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza").pep
    pep_match_review(match=PEPMatch.objects.get(user=user), actor=None, status=PEPMatchStatus.DISMISSED, note="No")
    services.pep_update(pep=pep, actor=None, changes={"name": "Bakotimu Oravendi"})
    assert PEPMatch.objects.get(user=user).status == PEPMatchStatus.DISMISSED
    assert pep_alerts(user) == 1


def test_the_risk_score_is_capped_at_100_and_the_rating_recomputed(db):
    from compliance.aml.services.alerts import NewAlert, alert_raise_many, dedup_key

    user = make_user("Bakotimu", "Dafiloza", current_risk_score=5, risk_rating=RiskRating.LOW)
    alert_raise_many(
        alerts=[
            NewAlert(user_id=user.pk, dedup_key=dedup_key("c", i), severity="CRITICAL", details={}) for i in range(3)
        ]
    )
    user.refresh_from_db()
    assert (user.current_risk_score, user.risk_rating) == (60 + 10, RiskRating.HIGH)
    add_pep("Bakotimu Dafiloza")
    user.refresh_from_db()
    assert user.current_risk_score == 100 and user.risk_rating == RiskRating.HIGH  # the facts say 112
    assert PEPMatch.objects.get(user=user).risk_points == 30  # what the match took the score up by
    low = make_user("Lumeko", "Sarafine", current_risk_score=85, risk_rating=RiskRating.HIGH)
    add_pep("Lumeko Sarafine")
    low.refresh_from_db()
    assert low.current_risk_score == MATCHED and low.risk_rating == RiskRating.MEDIUM  # the facts, not 85 + 30


def test_only_new_or_changed_entries_are_screened(db):
    add_pep("Kesuvo Lomari")
    pep = add_pep("Torulo Pabeni").pep
    before = ScreeningRun.objects.count()
    services.pep_update(pep=pep, actor=None, changes={"category": "Judge", "position": "Judge"})
    assert ScreeningRun.objects.count() == before
    services.pep_update(pep=pep, actor=None, changes={"date_of_birth": "1970"})
    run = ScreeningRun.objects.order_by("-id").first()
    assert ScreeningRun.objects.count() == before + 1 and run.peps_screened == 1 and run.trigger == "PEP_UPDATED"


def test_an_inactive_pep_is_not_matched_until_it_is_active_again(db):
    user = make_user("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza", is_active=False).pep
    assert not PEPMatch.objects.exists()
    result = services.pep_update(pep=pep, actor=None, changes={"is_active": True})
    assert result.matching.alerts_created == 1 and PEPMatch.objects.get().user == user


def test_each_run_is_recorded(db):
    make_user("Bakotimu", "Dafiloza")
    add_pep("Bakotimu Dafiloza")
    run = ScreeningRun.objects.get()
    assert run.status == "COMPLETED" and run.trigger == "PEP_CREATED" and run.peps_screened == 1
    assert run.matches == 1 and run.alerts_created == 1 and run.users_updated == 1 and run.candidates >= 1
    assert run.finished_at >= run.started_at and run.matcher_version
