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


def test_seed_demo_creates_every_role_and_changes_nothing_the_second_time(demo_data):
    # the demo as seed_demo left it (seeded once for the tests that read it: backoffice.tests.demo_data)
    first = counts()
    assert set(Staff.objects.values_list("role", flat=True)) == {
        "support",
        "compliance_officer",
        "mlro",
        "finance",
        "admin",
    }
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert counts() == first
    # every run names the staff accounts to sign in with
    assert "admin@vikela.demo" in out.getvalue() and "Demo data ready." in out.getvalue()
