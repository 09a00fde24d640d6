"""``object_action`` and ``each_object``: the one shape of the admin's action views and bulk actions."""

import pytest
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.test import RequestFactory

from backoffice.admin.actions import Done, each_object, error_with_reasons, object_action
from backoffice.errors import DomainError, ValidationFailed
from backoffice.models import Staff
from backoffice.tests.factories import StaffFactory

BACK = "/admin/back/"


class FakeAdmin:
    """What the helpers use of a ModelAdmin: its model, its view permission, its messages."""

    model = Staff

    def __init__(self, *, may_view=True):
        self.may_view = may_view
        self.said = []

    def has_view_permission(self, request, obj=None):
        return self.may_view

    def message_user(self, request, message, level):
        self.said.append((level, message))


def _post(data=None):
    return RequestFactory().post("/x/", data or {})


def test_anything_but_post_is_refused_before_the_service_runs():
    ran = []
    response = object_action(FakeAdmin(), RequestFactory().get("/x/"), 1, ran.append, back=BACK)
    assert response.status_code == 405 and response["Allow"] == "POST" and ran == []


def test_without_the_permission_the_view_is_forbidden_and_nothing_is_read():
    looked = []
    with pytest.raises(PermissionDenied):
        object_action(FakeAdmin(may_view=False), _post(), 1, str, back=BACK, lookup=lambda: looked.append(1))
    assert looked == []


def test_a_refusal_message_sends_the_officer_back_with_it():
    admin = FakeAdmin()
    response = object_action(admin, _post(), 1, str, back=BACK, allowed=lambda r: False, refused="Not your role.")
    assert response.status_code == 302 and response["Location"] == BACK
    assert admin.said == [(messages.ERROR, "Not your role.")]


@pytest.mark.django_db
def test_the_object_is_found_by_its_key_and_a_missing_one_is_404():
    staff = StaffFactory()
    admin = FakeAdmin()
    response = object_action(admin, _post(), staff.pk, lambda obj: f"done for {obj.email}", back=BACK)
    assert response["Location"] == BACK and admin.said == [(messages.SUCCESS, f"done for {staff.email}")]
    with pytest.raises(Http404):
        object_action(admin, _post(), 10**9, str, back=BACK)


def test_a_domain_error_is_a_message_and_the_way_back_after_on_error():
    admin, kept = FakeAdmin(), []

    def refuse(obj):
        raise ValidationFailed("Not now.", details={"note": ["Required."], "other": ["Too long."]})

    response = object_action(
        admin, _post(), 1, refuse, back=BACK, lookup=lambda: "obj", error=error_with_reasons, on_error=kept.append
    )
    assert response["Location"] == BACK and len(kept) == 1
    assert admin.said == [(messages.ERROR, "Not now. Required. Too long.")]


def test_done_names_where_to_go_and_how_loud_and_a_response_is_sent_as_it_is():
    admin = FakeAdmin()
    done = Done("Look there.", url="/elsewhere/", level=messages.WARNING)
    response = object_action(admin, _post(), 1, lambda obj: done, back=BACK, lookup=lambda: "obj")
    assert response["Location"] == "/elsewhere/" and admin.said == [(messages.WARNING, "Look there.")]
    page = HttpResponse("confirm first")
    assert object_action(admin, _post(), 1, lambda obj: page, back=BACK, lookup=lambda: "obj") is page


def test_an_error_other_than_a_domain_error_is_not_hidden():
    def broken(obj):
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError):
        object_action(FakeAdmin(), _post(), 1, broken, back=BACK, lookup=lambda: "obj")


def test_error_with_reasons_takes_one_key_and_a_limit():
    exc = DomainError("Invalid.", details={"report": ["a", "b", "c"], "x": ["y"]})
    assert error_with_reasons(exc, key="report", limit=2) == "Invalid. a b"
    assert error_with_reasons(DomainError("Plain.")) == "Plain."


def test_each_object_reports_each_refusal_by_its_object_and_goes_on():
    admin = FakeAdmin()

    def act(n):
        if n == 2:
            raise DomainError("refused")
        return n * 10

    done = each_object(admin, _post(), [1, 2, 3], act, label=lambda n: f"#{n}", done=lambda n, r: f"#{n}: {r}")
    assert done == [(1, 10), (3, 30)]
    assert admin.said == [(messages.SUCCESS, "#1: 10"), (messages.ERROR, "#2: refused"), (messages.SUCCESS, "#3: 30")]
