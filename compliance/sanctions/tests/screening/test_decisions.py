"""Sanctions in the decision before the money moves: the customer's state and the counterparty's name."""

import pytest

from compliance.aml.models.alerts import Alert
from compliance.aml.tests.transactions.helpers import DRY_RUN, INTAKE, body
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.services.review import sanctions_match_review
from compliance.sanctions.services.screening import screen_user
from compliance.sanctions.tests.screening.helpers import change_entry, make_entry
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def _sanctions(hits):
    return [h for h in hits if h["ruleId"] == "SANCTIONS"]


def test_a_listed_counterparty_holds_the_payment_and_opens_one_match_the_dry_run_opens_nothing(
    key_client, customer, post
):
    entry = make_entry("Global Shipping Trust", entry_type="ENTITY", code="OFAC")
    dry = post(key_client, DRY_RUN, body(customer, "50", type="TRANSFER_OUT", counterpartyName="GLOBAL SHIPPING TRUST"))
    assert dry.status_code == 200, dry.content
    assert dry.json()["data"]["decision"] == "REVIEW" and not SanctionsMatch.objects.exists()
    assert not Alert.objects.exists()
    r = post(key_client, INTAKE, body(customer, "50", type="TRANSFER_OUT", counterpartyName="Global Shipping Trust"))
    data = r.json()["data"]
    assert data["status"] == "HELD" and data["decision"] == "REVIEW"
    match = SanctionsMatch.objects.get()
    assert (match.party, match.status, match.entry_id) == ("COUNTERPARTY", "POTENTIAL", entry.pk)
    [hit] = _sanctions(data["hits"])
    assert hit == {
        "ruleId": "SANCTIONS",
        "severity": "CRITICAL",
        "action": "HOLD",
        "matchId": str(match.pk),
        "list": "OFAC",
        "reference": entry.reference,
        "score": match.score,
    }
    other = PlatformUserFactory()
    post(key_client, INTAKE, body(other, "50", type="TRANSFER_OUT", counterpartyName="Global Shipping Trust"))
    assert SanctionsMatch.objects.count() == 1 and Alert.objects.filter(alert_type="SANCTIONS_MATCH").count() == 1


def test_a_dismissed_pair_passes_for_every_customer_until_the_entry_changes(key_client, customer, officer, post):
    entry = make_entry("Ali Hassan Omar")
    post(key_client, INTAKE, body(customer, "20", type="TRANSFER_OUT", counterpartyName="Ali Hassan Omar"))
    match = SanctionsMatch.objects.get()
    sanctions_match_review(match=match, actor=officer, status="DISMISSED", note="A local trader, ID checked")
    other = PlatformUserFactory(balance=500)
    r = post(key_client, INTAKE, body(other, "20", type="TRANSFER_OUT", counterpartyName="ali hassan omar"))
    assert r.json()["data"]["decision"] == "ALLOW" and not _sanctions(r.json()["data"]["hits"])
    change_entry(entry, aliases=[{"name": "Abu Omar", "quality": "GOOD"}])
    r = post(key_client, INTAKE, body(other, "20", type="TRANSFER_OUT", counterpartyName="Ali Hassan Omar"))
    assert r.json()["data"]["decision"] == "REVIEW"
    match.refresh_from_db()
    assert match.status == "POTENTIAL" and Alert.objects.filter(alert_type="SANCTIONS_MATCH").count() == 2


def test_a_confirmed_counterparty_pair_blocks(key_client, customer, mlro, post):
    make_entry("Ali Hassan Omar")
    post(key_client, INTAKE, body(customer, "20", type="TRANSFER_OUT", counterpartyName="Ali Hassan Omar"))
    sanctions_match_review(match=SanctionsMatch.objects.get(), actor=mlro, status="CONFIRMED", note="Known alias")
    r = post(key_client, INTAKE, body(customer, "20", type="TRANSFER_OUT", counterpartyName="Ali Hassan Omar"))
    assert r.json()["data"]["status"] == "BLOCKED" and _sanctions(r.json()["data"]["hits"])[0]["action"] == "BLOCK"


def test_a_potential_customer_is_held_a_frozen_one_and_transfers_to_them_blocked(key_client, customer, mlro, post):
    make_entry("Amina Dlamini Yusuf")
    screen_user(user_id=customer.pk)
    r = post(key_client, INTAKE, body(customer, "10"))
    assert r.json()["data"]["status"] == "HELD" and _sanctions(r.json()["data"]["hits"])[0]["action"] == "HOLD"
    sanctions_match_review(match=SanctionsMatch.objects.get(), actor=mlro, status="CONFIRMED", note="Same person")
    r = post(key_client, INTAKE, body(customer, "10"))
    assert r.json()["data"]["status"] == "BLOCKED"
    payer = PlatformUserFactory(balance=500)
    r = post(key_client, INTAKE, body(payer, "10", type="TRANSFER_OUT", counterpartyUserId=str(customer.pk)))
    assert r.json()["data"]["status"] == "BLOCKED"
