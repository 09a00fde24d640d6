"""The admin queue "Waiting for my approval": only what the signed-in person may decide, never their own; the change
in words; approve and reject with a reason, each form submitted (forged posts included)."""

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from backoffice import dual_control
from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.models import ApprovalRequest
from backoffice.services import approvals
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

QUEUE = "admin:backoffice_approvalrequest_changelist"
APPLIED: list[str] = []


@pytest.fixture(autouse=True)
def test_kind():
    APPLIED.clear()
    dual_control.register(
        dual_control.SensitiveAction(
            kind="test.limit",
            label="Raise a limit",
            request_capability="users.credit",
            approve_capability="users.credit",
            apply=lambda *, payload, actor, request: APPLIED.append(payload["to"]),
            describe=lambda request: [f"Daily limit: {request.payload['from']} → {request.payload['to']}"],
            context=lambda request: ["Raised twice this month"],
        )
    )
    yield
    dual_control._POLICY.pop("test.limit", None)


def web(staff):
    client = Client()
    client.force_login(staff)
    return client


def ask(maker, target="w-1"):
    return approvals.approval_request(
        kind="test.limit",
        actor=maker,
        summary=f"Raise the limit of {target}",
        payload={"from": "SZL 5,000.00", "to": "SZL 50,000.00"},
        reason="merchant growth",
        target_type="wallet",
        target_id=target,
        amount=Decimal("50000"),
    ).request


def url(request, what):
    return reverse("admin:backoffice_approvalrequest_change", args=[request.pk]).replace("/change/", f"/{what}/")


def test_the_queue_lists_what_i_may_decide_and_never_my_own():
    maker, checker = StaffFactory(role=StaffRole.FINANCE), StaffFactory(role=StaffRole.ADMIN)
    theirs = ask(maker)
    mine = ask(checker, target="w-2")
    page = web(checker).get(reverse(QUEUE))
    assert page.status_code == 200
    shown = [row.pk for row in page.context["cl"].result_list]
    assert shown == [theirs.pk] and mine.pk not in shown
    # a role the policy does not name sees no queue at all
    assert web(StaffFactory(role=StaffRole.SUPPORT)).get(reverse(QUEUE)).status_code == 403
    # what I asked for, on request
    asked = web(checker).get(reverse(QUEUE), {"queue": "asked"})
    assert [row.pk for row in asked.context["cl"].result_list] == [mine.pk]


def test_the_request_page_shows_the_change_in_words_and_what_to_weigh():
    request = ask(StaffFactory(role=StaffRole.FINANCE))
    checker = web(StaffFactory(role=StaffRole.FINANCE))
    page = checker.get(reverse("admin:backoffice_approvalrequest_change", args=[request.pk])).content.decode()
    assert "Daily limit: SZL 5,000.00 → SZL 50,000.00" in page and "Raised twice this month" in page
    form = checker.get(url(request, "approve"))
    assert form.status_code == 200 and "Daily limit: SZL 5,000.00 → SZL 50,000.00" in form.content.decode()


def test_approve_with_a_reason_applies_once():
    request = ask(StaffFactory(role=StaffRole.FINANCE))
    checker_staff = StaffFactory(role=StaffRole.FINANCE)
    checker = web(checker_staff)
    # no reason: the form asks again, nothing applied
    empty = checker.post(url(request, "approve"), {"reason": ""})
    assert empty.status_code == 200 and empty.context["form"].errors and APPLIED == []
    done = checker.post(url(request, "approve"), {"reason": "contract seen"}, follow=True)
    assert "Approved and applied" in done.content.decode()
    request.refresh_from_db()
    assert (request.status, request.decided_by, request.decision_reason) == (
        ApprovalStatus.APPLIED,
        checker_staff,
        "contract seen",
    )
    # the same form posted again (a double click): refused, applied once
    again = checker.post(url(request, "approve"), {"reason": "contract seen"}, follow=True)
    assert "already applied" in again.content.decode()
    assert APPLIED == ["SZL 50,000.00"]


def test_reject_with_a_reason():
    request = ask(StaffFactory(role=StaffRole.FINANCE))
    checker = web(StaffFactory(role=StaffRole.ADMIN))
    assert checker.get(url(request, "reject")).status_code == 200
    checker.post(url(request, "reject"), {"reason": "no contract"})
    request.refresh_from_db()
    assert request.status == ApprovalStatus.REJECTED and APPLIED == []


def test_forged_posts_by_the_requester_or_another_role_change_nothing():
    maker = StaffFactory(role=StaffRole.FINANCE)
    request = ask(maker)
    own = web(maker)
    page = own.get(url(request, "approve"))
    assert "a second person must decide it" in page.content.decode()
    refused = own.post(url(request, "approve"), {"reason": "my own"}, follow=True)
    assert "different person" in refused.content.decode()
    own.post(url(request, "reject"), {"reason": "withdrawn"})
    # a compliance officer may not decide this kind: they cannot even read it
    officer = web(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    assert officer.post(url(request, "approve"), {"reason": "x"}).status_code in (403, 404)
    assert officer.get(url(request, "approve")).status_code in (403, 404)
    request.refresh_from_db()
    assert request.status == ApprovalStatus.PENDING and APPLIED == []
    assert ApprovalRequest.objects.count() == 1


def test_the_dashboard_counts_what_waits_for_me():
    ask(StaffFactory(role=StaffRole.FINANCE))
    page = web(StaffFactory(role=StaffRole.ADMIN)).get(reverse("admin:index")).content.decode()
    assert "Waiting for my approval" in page


def test_the_decision_buttons_are_shown_only_while_the_request_waits_for_this_person():
    maker, checker = StaffFactory(role=StaffRole.FINANCE), StaffFactory(role=StaffRole.FINANCE)
    request = ask(maker)
    page = reverse("admin:backoffice_approvalrequest_change", args=[request.pk])
    waiting = web(checker).get(page).content.decode()
    assert url(request, "approve") in waiting and url(request, "reject") in waiting
    own = web(maker).get(page).content.decode()
    assert url(request, "approve") not in own and url(request, "reject") not in own
    approvals.approval_approve(request=request, actor=checker, reason="seen the contract")
    decided = web(checker).get(page)
    assert decided.status_code == 200
    assert (
        url(request, "approve") not in decided.content.decode()
        and url(request, "reject") not in decided.content.decode()
    )
