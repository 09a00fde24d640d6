"""Releasing a held transaction above HELD_RELEASE_FOUR_EYES_ABOVE needs a second person (issue 29): through the
API, the admin page (forged posts included) and the service itself; the approval releases it once."""

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.errors import FourEyesRequired, InvalidTransition
from backoffice.models import ApprovalRequest
from backoffice.services.approvals import approval_approve
from backoffice.tests.factories import StaffFactory
from compliance.aml.tests.transactions.helpers import HELD, INTAKE, body, make_rule
from kyc.models import PlatformUser, Transaction
from kyc.services.ledger import held_transaction_reject, held_transaction_release

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def four_eyes_above(settings):
    settings.HELD_RELEASE_FOUR_EYES_ABOVE = Decimal("50000")
    make_rule("threshold", action="hold", thresholdAmount=500)


def held(key_client, post, user, amount):
    r = post(key_client, INTAKE, body(user, amount))
    assert r.json()["data"]["status"] == "HELD", r.content
    return r.json()["data"]["transactionId"]


def test_at_or_below_the_setting_one_person_releases_as_today(key_client, post, user, staff_client):
    tx = held(key_client, post, user, "50000")
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    r = client.post(f"{HELD}/{tx}/release", {"note": "Known salary"}, format="json")
    assert r.status_code == 200 and r.json()["data"]["status"] == "COMPLETED"


def test_above_it_the_api_answers_202_and_the_money_waits_for_a_second_person(key_client, post, user, staff_client):
    tx = held(key_client, post, user, "75000")
    client, maker = staff_client(StaffRole.COMPLIANCE_OFFICER)
    r = client.post(f"{HELD}/{tx}/release", {"note": "Looks fine"}, format="json")
    assert r.status_code == 202, r.json()
    payload = r.json()
    assert payload["message"] == "Release awaiting approval"
    request = payload["data"]["approvalRequest"]
    assert (request["kind"], request["targetId"], request["status"], request["amount"]) == (
        "kyc.held_release",
        tx,
        "PENDING",
        75000.0,
    )
    assert Transaction.objects.get(pk=tx).status == "HELD"
    # asking again while it waits: 409, still one request
    again = client.post(f"{HELD}/{tx}/release", {"note": "Looks fine"}, format="json")
    assert again.status_code == 409 and ApprovalRequest.objects.count() == 1

    approval = ApprovalRequest.objects.get()
    with pytest.raises(FourEyesRequired):
        approval_approve(request=approval, actor=maker, reason="me")
    before = PlatformUser.objects.get(pk=user.pk).balance
    checker = StaffFactory(role=StaffRole.MLRO)
    approval_approve(request=approval, actor=checker, reason="Salary confirmed with the employer")
    row = Transaction.objects.get(pk=tx)
    assert (row.status, row.reviewed_by_id) == ("COMPLETED", checker.pk)
    assert PlatformUser.objects.get(pk=user.pk).balance == before + Decimal("75000")
    approval.refresh_from_db()
    assert approval.status == ApprovalStatus.APPLIED
    with pytest.raises(InvalidTransition):
        approval_approve(request=approval, actor=StaffFactory(role=StaffRole.ADMIN), reason="again")
    assert PlatformUser.objects.get(pk=user.pk).balance == before + Decimal("75000")


def test_the_service_refuses_a_release_above_the_setting_without_an_approved_request(key_client, post, user):
    tx = held(key_client, post, user, "75000")
    with pytest.raises(FourEyesRequired):
        held_transaction_release(transaction_id=tx, actor=StaffFactory(role=StaffRole.ADMIN), note="alone")
    assert Transaction.objects.get(pk=tx).status == "HELD"


def test_the_admin_page_asks_for_the_release_and_a_forged_post_by_the_requester_in_the_queue_is_refused(
    key_client, post, user
):
    tx = held(key_client, post, user, "75000")
    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    web = Client()
    web.force_login(officer)
    page = web.post(
        reverse("admin:compliance_heldtransaction_decide", args=[tx]), {"op": "release", "note": "ok"}, follow=True
    )
    assert "waits for a second person" in page.content.decode()
    assert Transaction.objects.get(pk=tx).status == "HELD"
    approval = ApprovalRequest.objects.get(kind="kyc.held_release")
    held_page = web.get(reverse("admin:compliance_heldtransaction_change", args=[tx])).content.decode()
    assert 'data-testid="release-waiting"' in held_page and str(approval.pk) in held_page
    approve_url = reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]).replace(
        "/change/", "/approve/"
    )
    refused = web.post(approve_url, {"reason": "approving my own"}, follow=True)
    assert "different person" in refused.content.decode()
    assert Transaction.objects.get(pk=tx).status == "HELD"

    # support may not decide it, even with a forged post
    support = Client()
    support.force_login(StaffFactory(role=StaffRole.SUPPORT))
    assert support.post(approve_url, {"reason": "x"}).status_code in (302, 403, 404)
    assert Transaction.objects.get(pk=tx).status == "HELD"

    checker = Client()
    checker.force_login(StaffFactory(role=StaffRole.MLRO))
    checker.post(approve_url, {"reason": "Checked the source of funds"})
    assert Transaction.objects.get(pk=tx).status == "COMPLETED"


def test_rejecting_the_held_transaction_lapses_a_waiting_release(key_client, post, user, staff_client):
    tx = held(key_client, post, user, "75000")
    client, maker = staff_client(StaffRole.COMPLIANCE_OFFICER)
    client.post(f"{HELD}/{tx}/release", {"note": "Looks fine"}, format="json")
    held_transaction_reject(transaction_id=tx, actor=maker, note="Second thoughts: mule pattern")
    assert ApprovalRequest.objects.get().status == ApprovalStatus.EXPIRED
