"""The PEP form of the admin site: add, edit and deactivate a PEP, each saved through the services (was a 500)."""

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.peps.models.pep import PEP
from compliance.peps.tests.helpers import add_pep, inline_management

pytestmark = pytest.mark.django_db

BASE = {"category": "Government Official", "position": "Minister", "country": "Eswatini", "source": "gazette"}


def signed_in(role: str) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(StaffFactory(role=role))
    return client


@pytest.mark.parametrize("role", [StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN])
def test_add_edit_and_deactivate_a_pep(role):
    form = dict(BASE)
    client = signed_in(role)
    add = reverse("admin:compliance_pep_add")
    added = client.post(
        add,
        {
            **form,
            **inline_management(client.get(add)),
            "name": "Lomakhosi Vilakati",
            "aliases": "Lomakhosi V.\nL. Vilakati",
            "is_active": "on",
            "_save": "1",
        },
    )
    assert added.status_code == 302, added.status_code
    pep = PEP.objects.get(name="Lomakhosi Vilakati")
    assert pep.aliases == ["Lomakhosi V.", "L. Vilakati"] and pep.is_active

    change = reverse("admin:compliance_pep_change", args=[pep.pk])
    form.update(inline_management(client.get(change)))
    edited = client.post(
        change, {**form, "name": pep.name, "position": "Deputy Minister", "is_active": "on", "_save": "1"}
    )
    assert edited.status_code == 302, edited.status_code
    pep.refresh_from_db()
    assert pep.position == "Deputy Minister" and pep.version == 2

    deactivated = client.post(change, {**form, "name": pep.name, "position": "Deputy Minister", "_save": "1"})
    assert deactivated.status_code == 302, deactivated.status_code
    pep.refresh_from_db()
    assert pep.is_active is False


def test_a_pep_with_matches_is_saved_with_its_read_only_matches(person):
    user = person("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza", category="Government Official").pep
    assert pep.matches.filter(user=user).exists()
    client = signed_in(StaffRole.COMPLIANCE_OFFICER)
    page = client.get(reverse("admin:compliance_pep_change", args=[pep.pk]))
    assert b"Matched users" in page.content
    response = client.post(
        reverse("admin:compliance_pep_change", args=[pep.pk]),
        {**BASE, "name": pep.name, "is_active": "on", "_save": "1", **inline_management(page)},
    )
    assert response.status_code == 302, response.status_code
    assert pep.matches.filter(user=user).count() == 1
