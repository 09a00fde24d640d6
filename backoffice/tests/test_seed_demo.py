import io

import pytest
from django.core.management import call_command

from backoffice.models import Staff

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def counts():
    from django.apps import apps

    return {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label in {"backoffice", "kyc", "vendors", "compliance", "verification"}
        and m._meta.label != "backoffice.AuditLog"
    }


def test_seed_demo_creates_every_role_and_changes_nothing_the_second_time(media):
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    first = counts()
    assert set(Staff.objects.values_list("role", flat=True)) == {
        "support",
        "compliance_officer",
        "mlro",
        "finance",
        "admin",
    }
    assert "admin@vikela.demo" in out.getvalue()
    call_command("seed_demo", stdout=io.StringIO())
    assert counts() == first
