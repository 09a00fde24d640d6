"""In production a SAR cannot be submitted while GOAML_RENTITY_ID is unset: its goAML report would carry an
empty reporting-entity id, which the FIU refuses (409 GOAML_INVALID, nothing changes)."""

import pytest

from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SARTransition
from compliance.sars.tests.goaml.helpers import ready_for_approval, submit

pytestmark = pytest.mark.django_db


def test_without_a_reporting_entity_id_a_sar_is_not_submitted(clients, crew, subject, settings):
    settings.GOAML_RENTITY_ID = None  # what production has while GOAML_RENTITY_ID is unset
    settings.GOAML_SCHEMA_PATH = None  # refused even with no schema to validate against
    sar = ready_for_approval(subject, crew)
    moves = SARTransition.objects.filter(sar=sar).count()
    r = submit(clients, crew, sar)
    assert r.status_code == 409, r.content
    error = r.json()["error"]
    assert error["code"] == "GOAML_INVALID" and "GOAML_RENTITY_ID" in error["message"]
    sar.refresh_from_db()
    assert sar.status == SARStatus.PENDING_APPROVAL and sar.submitted_at is None
    assert SARTransition.objects.filter(sar=sar).count() == moves


def test_with_a_reporting_entity_id_it_is(clients, crew, subject, settings):
    settings.GOAML_RENTITY_ID = 1001
    settings.GOAML_SCHEMA_PATH = None
    assert submit(clients, crew, ready_for_approval(subject, crew)).status_code == 200
