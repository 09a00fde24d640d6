"""The role matrix of fields, surface by surface (backoffice.visibility): every role opens the same user and the
same rejected payment, and sees exactly what its row of the policy says.

Support and finance see that the payment was rejected, never its rule hits, reviewer or note; a risk score
and rating without the points a SAR adds (the number a customer's record had before the report), in the API,
its filters and order, and the admin pages. Compliance roles see all of it.
"""

import datetime as dt
import hashlib
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.sars.services.sar import sar_create
from compliance.sars.tests.sar.helpers import client_for
from compliance.tests.visibility.helpers import verified_customer_with_an_alert
from kyc.choices import Decision, TransactionStatus, VerificationStatus
from kyc.models import PlatformUser
from kyc.selectors.users import users_seen_by
from kyc.services import user_risk_refresh
from kyc.services.ledger import held_transaction_reject
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = pytest.mark.django_db

S, C, M, F, A = "support", "compliance_officer", "mlro", "finance", "admin"
NOTE = "Structured deposits from three agents, rejecting and escalating to the MLRO"
SEES_WHY = {C, M, A}


@pytest.fixture
def subject():
    """A verified customer with a SAR on file (30 points) and an open HIGH alert (12): stored 42, MEDIUM."""
    user, rule = verified_customer_with_an_alert("Visibility")
    sar_create(
        actor=StaffFactory(role=StaffRole.COMPLIANCE_OFFICER),
        entity_user_id=user.pk,
        suspicious_activity_type="structuring",
        activity_description="Transfers just below the threshold",
        date_of_suspicious_activity=dt.date.today(),
        amount_involved=Decimal("6500"),
    )
    user.refresh_from_db()
    assert (user.current_risk_score, user.risk_rating) == (42, "MEDIUM")
    return user


@pytest.fixture
def rejected(subject):
    held = TransactionFactory(
        user=subject,
        amount=Decimal("75000.00"),
        status=TransactionStatus.HELD,
        decision=Decision.REVIEW,
        hits=[{"rule_id": "AML-THR-001", "rule_version": 1, "severity": "HIGH", "action": "HOLD"}],
    )
    return held_transaction_reject(transaction_id=held.pk, actor=StaffFactory(role=StaffRole.MLRO), note=NOTE)


# role -> (currentRiskScore, riskRating) the API and the pages show for the subject
RISK = {S: (12, "LOW"), F: (12, "LOW"), C: (42, "MEDIUM"), M: (42, "MEDIUM"), A: (42, "MEDIUM")}


@pytest.mark.parametrize("role", StaffRole.values)
def test_the_user_api_shows_each_role_its_risk(subject, role):
    client = client_for(StaffFactory(role=role))
    score, rating = RISK[role]
    detail = client.get(f"/api/v1/admin/users/{subject.pk}").json()["data"]
    assert (detail["currentRiskScore"], detail["riskRating"]) == (score, rating)
    history = client.get(f"/api/v1/admin/users/{subject.pk}/history").json()["data"]
    assert (history["profile"]["currentRiskScore"], history["profile"]["riskRating"]) == (score, rating)
    listed = client.get("/api/v1/admin/users?limit=100").json()["data"]
    assert [(u["currentRiskScore"], u["riskRating"]) for u in listed if u["id"] == str(subject.pk)] == [(score, rating)]
    found = client.get("/api/v1/admin/users/search?q=Visibility").json()["data"]
    assert [(u["currentRiskScore"], u["riskRating"]) for u in found] == [(score, rating)]
    # the filter agrees with the rating shown: a SAR never moves a user into another band for support
    for band in ("LOW", "MEDIUM", "HIGH"):
        ids = [u["id"] for u in client.get(f"/api/v1/admin/users?riskRating={band}&limit=100").json()["data"]]
        assert (str(subject.pk) in ids) == (band == rating), (role, band)


@pytest.mark.parametrize("role", [S, F])
def test_support_and_finance_order_by_the_score_they_see(subject, role):
    PlatformUserFactory(last_name="Between", verification_status=VerificationStatus.VERIFIED, current_risk_score=30)
    client = client_for(StaffFactory(role=role))
    rows = client.get("/api/v1/admin/users?sortBy=currentRiskScore&sortOrder=desc").json()["data"]
    scores = [u["currentRiskScore"] for u in rows]
    assert scores == sorted(scores, reverse=True) and 12 in scores and 30 in scores


def test_a_capped_score_shows_what_it_would_be_without_the_sar(subject):
    # PEP 30 + SAR 30 + HIGH alert 12 + rejected identity 20 = 92; two more CRITICAL alerts: 132, stored 100
    rule = AMLRule.objects.get(rule_id="AML-THR-001")
    for n in range(2):
        key = hashlib.sha256(bytes([n])).hexdigest()
        Alert.objects.create(rule=rule, rule_version=1, user=subject, severity="CRITICAL", dedup_key=key)
    PlatformUser.objects.filter(pk=subject.pk).update(verification_status=VerificationStatus.REJECTED)
    user_risk_refresh(user_id=subject.pk, reason="test", potential_pep=True)
    subject.refresh_from_db()
    assert subject.current_risk_score == 100
    support, mlro = StaffFactory(role=S), StaffFactory(role=M)
    (seen,) = users_seen_by([subject], viewer=support)
    assert (seen.seen_risk_score, seen.seen_risk_rating) == (100, "HIGH")  # 102 without the SAR: capped still
    PlatformUser.objects.filter(pk=subject.pk).update(verification_status=VerificationStatus.VERIFIED)
    user_risk_refresh(user_id=subject.pk, reason="test")
    subject.refresh_from_db()
    assert subject.current_risk_score == 100  # 112 in all
    (seen,) = users_seen_by([subject], viewer=support)
    assert (seen.seen_risk_score, seen.seen_risk_rating) == (82, "HIGH")
    (seen,) = users_seen_by([subject], viewer=mlro)
    assert (seen.seen_risk_score, seen.seen_risk_rating) == (100, "HIGH")


def _page(role, url) -> str:
    client = Client()
    client.force_login(StaffFactory(role=role))
    response = client.get(url)
    assert response.status_code == 200, (role, url, response.status_code)
    return response.content.decode()


@pytest.mark.parametrize("role", StaffRole.values)
def test_the_transaction_page_shows_why_only_to_compliance_roles(rejected, role):
    page = _page(role, reverse("admin:kyc_transaction_change", args=[rejected.pk]))
    assert "Rejected after review" in page and "Hold for review" in page  # that it was held and rejected: everyone
    why = {
        "rule hits": "Rule hits at record time" in page and "AML-THR-001" in page,
        "review note": NOTE in page and "Review note" in page,
        "reviewer": "Reviewed by" in page,
        "decision history": "History (the decision on a held row)" in page,
    }
    assert why == dict.fromkeys(why, role in SEES_WHY), (role, why)


@pytest.mark.parametrize("role", StaffRole.values)
def test_the_user_page_shows_each_role_its_risk_and_the_note_only_to_compliance_roles(rejected, subject, role):
    page = _page(role, reverse("admin:kyc_platformuser_change", args=[subject.pk]))
    score, rating = RISK[role]
    assert f">{score}<" in page.replace(" ", "").replace("\n", "")
    assert (NOTE in page) == (role in SEES_WHY), role
    assert ("suspicious activity report" in page.lower()) == (role in SEES_WHY), role
    listing = _page(role, reverse("admin:kyc_platformuser_changelist") + "?q=Visibility&risk=" + rating)
    assert "Visibility" in listing, (role, rating)
