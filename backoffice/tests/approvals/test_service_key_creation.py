"""A service key's creation in the admin site (issue 29): at least one scope, none ticked to start with, and with
SERVICE_KEY_FOUR_EYES a second administrator approves it and is shown the key once."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import ApprovalStatus, StaffRole
from backoffice.errors import ValidationFailed
from backoffice.models import ApprovalRequest, ServiceKey
from backoffice.services.service_keys import service_key_ask, service_key_create
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

ADD = reverse("admin:backoffice_servicekey_add")


def web(staff):
    client = Client()
    client.force_login(staff)
    return client


def test_the_form_starts_with_no_scope_ticked_and_refuses_none():
    client = web(StaffFactory(role=StaffRole.ADMIN))
    form = client.get(ADD).context["adminform"].form
    assert not form["scopes"].value()
    page = client.post(ADD, {"name": "cards"})
    assert page.status_code == 200 and "Tick at least one scope" in page.content.decode()
    assert not ServiceKey.objects.exists()


def test_a_key_with_one_scope_opens_only_that_scope():
    client = web(StaffFactory(role=StaffRole.ADMIN))
    page = client.post(ADD, {"name": "screening", "scopes": ["transactions.screen"]}, follow=True)
    assert "Copy it now" in page.content.decode()
    assert ServiceKey.objects.get().scopes == ["transactions.screen"]


def test_the_service_refuses_an_empty_or_unknown_scope_list():
    for scopes in ([], ["users.purge"]):
        with pytest.raises(ValidationFailed):
            service_key_create(name="x", scopes=scopes)
        with pytest.raises(ValidationFailed):
            service_key_ask(name="x", scopes=scopes, actor=StaffFactory(role=StaffRole.ADMIN))


def test_with_four_eyes_a_second_administrator_approves_and_sees_the_key_once(settings):
    settings.SERVICE_KEY_FOUR_EYES = True
    maker = StaffFactory(role=StaffRole.ADMIN)
    own = web(maker)
    page = own.post(ADD, {"name": "cards", "scopes": ["transactions.record"]}, follow=True)
    assert "Another administrator approves it" in page.content.decode()
    assert not ServiceKey.objects.exists()
    approval = ApprovalRequest.objects.get(kind="backoffice.service_key")
    approve = reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]).replace("/change/", "/approve/")
    # the requester's forged approval makes no key
    own.post(approve, {"reason": "mine"})
    assert not ServiceKey.objects.exists()
    done = web(StaffFactory(role=StaffRole.ADMIN)).post(approve, {"reason": "Cards service go-live"}, follow=True)
    text = done.content.decode()
    assert "Copy the key now, it is not shown again: vk_" in text
    key = ServiceKey.objects.get()
    assert key.name == "cards" and key.scopes == ["transactions.record"]
    approval.refresh_from_db()
    assert approval.status == ApprovalStatus.APPLIED
    # the secret is not kept anywhere the request can show again
    assert "vk_" not in str(approval.payload)
