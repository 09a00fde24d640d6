"""The foundation's admin pages (staff, audit log) cost the same number of queries however many rows they show."""

import pytest
from django.urls import reverse

from backoffice.models import AuditLog, ServiceKey, Staff
from backoffice.services import audit_record
from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

COVERED = {"staff", "auditlog", "servicekey", "webhookendpoint", "webhookdelivery", "approvalrequest"}


def test_every_admin_page_of_the_app_is_covered():
    assert registered_models("backoffice") == COVERED


def _audit(n):
    actor = StaffFactory()
    for i in range(n):
        audit_record(actor=actor, action="test.write", object_type="row", object_id=i)


def test_staff_pages():
    client = admin_browser()
    assert_flat(client, reverse("admin:backoffice_staff_changelist"), lambda n: StaffFactory.create_batch(n))
    staff = Staff.objects.first()
    assert_flat(client, reverse("admin:backoffice_staff_change", args=[staff.pk]), _audit)


def test_audit_log_pages():
    client = admin_browser()
    _audit(1)
    assert_flat(client, reverse("admin:backoffice_auditlog_changelist"), _audit)
    entry = AuditLog.objects.first()
    assert_flat(client, reverse("admin:backoffice_auditlog_change", args=[entry.pk]), _audit)


def test_service_key_pages():
    from backoffice.services.service_keys import service_key_create

    client = admin_browser()
    staff = StaffFactory()
    service_key_create(name="first", actor=staff)
    count = iter(range(1000))
    grow = lambda n: [service_key_create(name=f"key-{next(count)}", actor=StaffFactory()) for _ in range(n)]  # noqa: E731
    assert_flat(client, reverse("admin:backoffice_servicekey_changelist"), grow)
    key = ServiceKey.objects.first()
    assert_flat(client, reverse("admin:backoffice_servicekey_change", args=[key.pk]), grow)


def _webhooks(n, *, endpoint=None):
    """``n`` endpoints, or ``n`` deliveries to ``endpoint`` (each with its event)."""
    from django.db import transaction

    from backoffice.services.webhooks import webhook_emit

    if endpoint is None:
        return [_endpoint() for _ in range(n)]
    for _ in range(n):
        with transaction.atomic():
            webhook_emit(event_type="user.frozen", data={"userId": "u", "isFrozen": True})


_numbers = iter(range(100000))


def _endpoint():
    from backoffice.services.webhooks import webhook_endpoint_create

    endpoint, _secret = webhook_endpoint_create(
        actor=StaffFactory(), url=f"https://p{next(_numbers)}.example/hooks", event_types=["user.frozen"]
    )
    return endpoint


def test_webhook_pages():
    from backoffice.models import WebhookDelivery

    client = admin_browser()
    endpoint = _endpoint()
    assert_flat(client, reverse("admin:backoffice_webhookendpoint_changelist"), _webhooks)
    grow = lambda n: _webhooks(n, endpoint=endpoint)  # noqa: E731
    assert_flat(client, reverse("admin:backoffice_webhookendpoint_change", args=[endpoint.pk]), grow)
    assert_flat(client, reverse("admin:backoffice_webhookdelivery_changelist"), grow)
    delivery = WebhookDelivery.objects.first()
    assert_flat(client, reverse("admin:backoffice_webhookdelivery_change", args=[delivery.pk]), grow)


def test_approval_pages():
    from decimal import Decimal

    from backoffice import dual_control
    from backoffice.models import ApprovalRequest
    from backoffice.services.approvals import approval_open

    dual_control.register(
        dual_control.SensitiveAction(
            kind="test.queries",
            label="Counted",
            request_capability="users.credit",
            approve_capability="users.credit",
            apply=lambda **_: None,
            describe=lambda request: [f"Limit → {request.payload['to']}"],
        )
    )
    numbers = iter(range(1000))

    def ask(n):
        for _ in range(n):
            approval_open(
                kind="test.queries",
                actor=StaffFactory(role="finance"),
                summary="Raise a limit",
                payload={"to": "SZL 50,000.00"},
                target_type="wallet",
                target_id=f"w-{next(numbers)}",
                amount=Decimal("50000"),
            )

    try:
        client = admin_browser()
        ask(1)
        assert_flat(client, reverse("admin:backoffice_approvalrequest_changelist"), ask)
        request = ApprovalRequest.objects.first()
        assert_flat(client, reverse("admin:backoffice_approvalrequest_change", args=[request.pk]), ask)
    finally:
        dual_control._POLICY.pop("test.queries", None)
