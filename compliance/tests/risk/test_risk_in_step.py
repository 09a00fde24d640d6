"""The stored risk score and rating follow the facts that feed them (PEP flag, SARs, open alerts, verification):
each service that changes a fact recomputes them with the one risk function, and the customer's history says
what changed and why."""

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.aml.choices import AlertStatus, AlertType
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alerts import NewAlert, alert_raise_many, alert_transition, dedup_key
from compliance.peps.choices import PEPMatchStatus
from compliance.peps.models.pep import PEPMatch
from compliance.peps.services.pep_matches import pep_match_review
from compliance.peps.tests.helpers import add_pep, make_user
from compliance.risk import risk_picture
from compliance.sars.tests.sar.helpers import file_sar
from kyc.choices import RiskRating, VerificationStatus
from kyc.selectors.history import user_history, user_timeline
from kyc.services import risk_rating_for
from kyc.services.verification import user_verification_close

pytestmark = pytest.mark.django_db


def in_step(user) -> int:
    user.refresh_from_db()
    picture = risk_picture(user)
    assert picture.score == picture.indicated_score, [f.reason for f in picture.factors]
    assert user.risk_rating == risk_rating_for(picture.score)
    return picture.score


@pytest.fixture
def customer():
    # onboarding gave 43; the records say otherwise
    return make_user(
        "Lindiwe", "Gamedze", current_risk_score=43, risk_rating=RiskRating.MEDIUM,
        verification_status=VerificationStatus.PENDING,
    )  # fmt: skip


def raise_alert(user, severity="HIGH") -> Alert:
    return alert_raise_many(
        alerts=[NewAlert(user_id=user.pk, dedup_key=dedup_key("t", user.pk, severity), severity=severity, details={})]
    )[0]


def test_an_alert_raised_and_closed_moves_the_stored_score_with_it(customer):
    alert = raise_alert(customer, "HIGH")
    assert in_step(customer) == 10 + 12  # identity not verified, one open high alert
    alert_transition(
        alert=alert, actor=None, to_status=AlertStatus.CLOSED_FALSE_POSITIVE, note="ok", reason_code="OTHER"
    )
    assert in_step(customer) == 10
    assert customer.risk_rating == RiskRating.LOW


def test_a_sar_on_file_counts_at_once(customer):
    file_sar(customer, StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    assert in_step(customer) == 10 + 30


def test_a_pep_match_and_its_review_keep_the_score_in_step():
    user = make_user("Bakotimu", "Dafiloza")
    add_pep("Bakotimu Dafiloza", category="Judge")
    match = PEPMatch.objects.get(user=user)
    score = in_step(user)
    assert user.is_potential_pep and score >= 30 + 10 + 6
    pep_match_review(match=match, actor=None, status=PEPMatchStatus.DISMISSED, note="Another person")
    assert in_step(user) == 10  # no flag, the alert closed
    assert not user.is_potential_pep


def test_the_verification_outcome_counts(customer):
    user_verification_close(user=customer, record=None, status=VerificationStatus.REJECTED, notes="forged")
    assert in_step(customer) == 20
    user_verification_close(user=customer, record=None, status=VerificationStatus.VERIFIED, notes="ok")
    assert in_step(customer) == 0


def test_each_change_and_its_reason_is_in_the_customers_history(customer):
    raise_alert(customer, "CRITICAL")
    customer.refresh_from_db()
    entry = AuditLog.objects.get(action="user.risk", object_id=str(customer.pk))
    assert entry.changes["current_risk_score"] == {"from": 43, "to": 30}
    assert "alert" in entry.changes["reason"].lower()
    assert not [e for e in user_timeline(user=customer) if e.type == "RISK_CHANGED"]  # support, finance: nothing
    events = [e for e in user_timeline(user=customer, risk_reasons=True) if e.type == "RISK_CHANGED"]
    assert len(events) == 1
    assert "43" in events[0].description and "30" in events[0].description
    assert "alert" in events[0].description.lower()
    assert [e.type for e in user_history(user=customer, risk_reasons=True).timeline].count("RISK_CHANGED") == 1
    assert [e.type for e in user_history(user=customer).timeline].count("RISK_CHANGED") == 0


def test_a_bulk_alert_run_refreshes_each_user_once(customer):
    other = make_user("Sipho", "Nxumalo", current_risk_score=80, risk_rating=RiskRating.HIGH)
    alert_raise_many(
        alerts=[
            NewAlert(user_id=u.pk, dedup_key=dedup_key("bulk", u.pk, i), severity="LOW", details={})
            for u in (customer, other)
            for i in range(3)
        ]
    )
    assert in_step(customer) == 10 + 9 and in_step(other) == 10 + 9
    assert AuditLog.objects.filter(action="user.risk").count() == 2
    assert Alert.objects.filter(alert_type=AlertType.RULE).count() == 6


@pytest.mark.parametrize(("role", "sees"), [(StaffRole.COMPLIANCE_OFFICER, True), (StaffRole.SUPPORT, False)])
def test_the_user_page_shows_the_reasons_to_investigators_only(customer, role, sees):
    from django.test import Client
    from django.urls import reverse

    raise_alert(customer, "HIGH")
    client = Client()
    client.force_login(StaffFactory(role=role))
    page = client.get(reverse("admin:kyc_platformuser_change", args=[customer.pk])).content.decode()
    assert ("Risk score 43 → 22" in page) is sees and ("Alert raised" in page) is sees
