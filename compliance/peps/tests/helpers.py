"""Helpers and fixtures of the tests in compliance/peps/tests: import helpers from here, never from conftest."""

import lxml.html
import pytest

from backoffice.choices import StaffRole
from compliance.peps.services import pep as pep_services
from kyc.services import user_name_index
from kyc.tests.factories import PlatformUserFactory

BASE = "/api/v1/admin/aml/pep"


@pytest.fixture
def officer(staff_client):
    """(client, staff) of a compliance officer."""
    return staff_client(StaffRole.COMPLIANCE_OFFICER)


@pytest.fixture
def officer_api(officer):
    return officer[0]


def make_user(first: str, last: str, **fields):
    """A user whose name is indexed, as registration leaves it (the factory alone writes no name keys)."""
    user = PlatformUserFactory(first_name=first, last_name=last, **fields)
    user_name_index(user=user)
    return user


@pytest.fixture
def person():
    return make_user


def add_pep(name: str, actor=None, **fields):
    return pep_services.pep_create(actor=actor, name=name, **fields)


def pep_body(name: str, **fields) -> dict:
    body = {"name": name, "category": "Government Official", "position": "Minister", "country": "Eswatini"}
    body.update(fields)
    return body


def inline_management(page) -> dict:
    """The PEP form's inline formsets' management fields, as a browser posts them back."""
    form = lxml.html.fromstring(page.content).xpath("//form[@id='pep_form']")[0]
    return {name: value for name, value in form.form_values() if "FORMS" in name}
