"""The admin site's match queue: the page shows both sides, the confirm and dismiss forms are submitted."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.services.screening import screen_user
from compliance.sanctions.tests.screening.helpers import make_entry
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def _client(role):
    client = Client()
    client.force_login(StaffFactory(role=role, is_active=True))
    return client


@pytest.fixture
def matches():
    make_entry("Amina Dlamini Yusuf", aliases=["Umm Yusuf"], dates_of_birth=["1980"])
    users = [PlatformUserFactory(first_name="Amina", last_name="Dlamini") for _ in range(2)]
    for user in users:
        screen_user(user_id=user.pk)
    return list(SanctionsMatch.objects.order_by("created_at"))


def test_the_queue_and_a_match_show_both_sides_and_support_is_refused(matches):
    officer = _client(StaffRole.COMPLIANCE_OFFICER)
    queue = officer.get(reverse("admin:compliance_sanctionsmatch_changelist"))
    assert queue.status_code == 200 and "Amina Dlamini Yusuf" in queue.content.decode()
    page = officer.get(reverse("admin:compliance_sanctionsmatch_change", args=[matches[0].pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "Umm Yusuf" in text and "Listed entry" in text and "AQ" in text
    support = _client(StaffRole.SUPPORT)
    assert support.get(reverse("admin:compliance_sanctionsmatch_changelist")).status_code == 403


def test_confirm_and_dismiss_forms_are_submitted_with_a_note(matches):
    officer = _client(StaffRole.COMPLIANCE_OFFICER)
    confirm = reverse("admin:compliance_sanctionsmatch_confirm_match", args=[matches[0].pk])
    assert officer.get(confirm).status_code == 200
    empty = officer.post(confirm, {"note": ""})
    assert empty.status_code == 200 and SanctionsMatch.objects.get(pk=matches[0].pk).status == "POTENTIAL"
    assert officer.post(confirm, {"note": "Same date of birth and alias"}).status_code == 302
    first = SanctionsMatch.objects.select_related("user").get(pk=matches[0].pk)
    assert first.status == "CONFIRMED" and first.user.is_frozen
    dismiss = reverse("admin:compliance_sanctionsmatch_dismiss_match", args=[matches[1].pk])
    assert officer.post(dismiss, {"note": "Born 2001, ID seen"}).status_code == 302
    second = SanctionsMatch.objects.select_related("user").get(pk=matches[1].pk)
    assert second.status == "DISMISSED" and not second.user.is_frozen


def test_support_sees_the_wallet_frozen_never_why_and_a_second_person_lifts_it(matches):
    officer = _client(StaffRole.COMPLIANCE_OFFICER)
    confirm = reverse("admin:compliance_sanctionsmatch_confirm_match", args=[matches[0].pk])
    officer.post(confirm, {"note": "Same date of birth and alias"})
    user_page = reverse("admin:kyc_platformuser_change", args=[matches[0].user_id])
    page = _client(StaffRole.SUPPORT).get(user_page).content.decode()
    assert "Frozen" in page and "Amina Dlamini Yusuf" not in page and "anction" not in page
    unfreeze = reverse("admin:kyc_platformuser_unfreeze_wallet", args=[matches[0].user_id])
    assert officer.post(unfreeze, {"reason": "mine"}).status_code == 403
    mlro = _client(StaffRole.MLRO)
    assert mlro.get(unfreeze).status_code == 200
    assert mlro.post(unfreeze, {"reason": ""}).status_code == 200
    assert mlro.post(unfreeze, {"reason": "Listing revoked by the committee"}).status_code == 302
    assert not SanctionsMatch.objects.select_related("user").get(pk=matches[0].pk).user.is_frozen


def test_a_held_payments_sanctions_hit_shows_to_officers_not_to_support():
    from decimal import Decimal

    from kyc.services.ledger import transaction_intake

    entry = make_entry("Global Shipping Trust", entry_type="ENTITY")
    payer = PlatformUserFactory(balance=Decimal("100"))
    tx = transaction_intake(
        external_id="held-1",
        user_id=payer.pk,
        type="TRANSFER_OUT",
        amount=Decimal("10"),
        counterparty_name="Global Shipping Trust",
    ).transaction
    page = reverse("admin:kyc_transaction_change", args=[tx.pk])
    officer_view = _client(StaffRole.COMPLIANCE_OFFICER).get(page).content.decode()
    assert f"SANCTIONS (CRITICAL): HOLD UN {entry.reference}" in officer_view
    support_view = _client(StaffRole.SUPPORT).get(page)
    assert support_view.status_code == 200 and "SANCTIONS" not in support_view.content.decode()
