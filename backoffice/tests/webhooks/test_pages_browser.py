"""The webhook pages in chromium as an admin: add an endpoint (the secret shown once), see a failed delivery with
its answer, send it again and see it delivered."""

import re

import pytest
from django.db import transaction

from backoffice.choices import StaffRole
from backoffice.models import WebhookEndpoint
from backoffice.services import webhooks
from backoffice.tests.browser import sign_in
from backoffice.tests.factories import StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_adds_an_endpoint_and_resends_a_delivery(page, live_server, receiver, settings, tmp_path):
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    admin = StaffFactory(role=StaffRole.ADMIN)
    sign_in(page, live_server, admin.email)
    page.goto(live_server.url + "/admin/backoffice/webhookendpoint/add/")
    page.fill("input[name=url]", receiver.url)
    page.get_by_label("A customer was frozen").check()
    page.fill("[name=description]", "Ledger service")
    page.click("button[name=_save]")
    page.wait_for_selector("text=Copy its signing secret now")
    shown = re.search(r"whsec_[A-Za-z0-9+/=]+", page.content()).group(0)
    assert webhooks.signing_secret(WebhookEndpoint.objects.get()) == shown
    page.screenshot(path=str(tmp_path / "webhook-added.png"), full_page=True)

    with transaction.atomic():
        webhooks.webhook_emit(event_type="user.frozen", data={"user_id": "u-1", "is_frozen": True})
    receiver.answers = [503]
    webhooks.webhook_sweep()
    page.goto(live_server.url + "/admin/backoffice/webhookdelivery/")
    page.wait_for_selector("text=HTTP 503")
    page.get_by_role("link", name=re.compile("A customer was frozen")).first.click()
    page.get_by_role("button", name="Send it again now").click()
    page.wait_for_selector("text=Sent again: Delivered")
    page.screenshot(path=str(tmp_path / "webhook-resent.png"), full_page=True)
    assert len(receiver.received) == 2
