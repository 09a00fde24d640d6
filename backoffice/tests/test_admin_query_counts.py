"""The foundation's admin pages (staff, audit log) cost the same number of queries however many rows they show."""

import pytest
from django.urls import reverse

from backoffice.models import AuditLog, ServiceKey, Staff
from backoffice.services import audit_record
from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

COVERED = {"staff", "auditlog", "servicekey"}


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
