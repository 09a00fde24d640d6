"""With GOAML_SCHEMA_PATH set, a SAR whose report fails the unit's schema cannot be submitted (409 GOAML_INVALID)."""

import pytest
from django.test import Client
from django.urls import reverse

from compliance.aml.choices import AlertStatus
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SARTransition
from compliance.sars.tests.goaml.helpers import SUBSET_XSD, ready_for_approval, submit

pytestmark = pytest.mark.django_db


def test_a_report_that_validates_is_submitted(clients, crew, subject, settings):
    settings.GOAML_SCHEMA_PATH = SUBSET_XSD
    sar = ready_for_approval(subject, crew)
    r = submit(clients, crew, sar)
    assert r.status_code == 200 and r.json()["data"]["status"] == "SUBMITTED"


def test_a_report_that_fails_is_409_with_the_schema_errors_and_nothing_changes(
    clients, crew, subject, subject_alert, settings
):
    settings.GOAML_SCHEMA_PATH = SUBSET_XSD
    settings.GOAML_INDICATORS = {"structuring": "NOT-IN-THE-UNITS-LIST"}
    sar = ready_for_approval(subject, crew, related_alert_ids=[subject_alert.pk])
    moves = SARTransition.objects.filter(sar=sar).count()

    r = submit(clients, crew, sar)
    assert r.status_code == 409, r.content
    error = r.json()["error"]
    assert error["code"] == "GOAML_INVALID"
    report = error["details"]["report"]
    assert report and all(line.startswith("line ") for line in report)
    assert any("indicator" in line and "NOT-IN-THE-UNITS-LIST" in line for line in report)

    sar.refresh_from_db()
    subject_alert.refresh_from_db()
    assert sar.status == SARStatus.PENDING_APPROVAL and sar.approved_by is None and sar.submitted_at is None
    assert SARTransition.objects.filter(sar=sar).count() == moves
    assert subject_alert.status == AlertStatus.ESCALATED


def test_without_a_schema_nothing_is_validated(clients, crew, subject, settings):
    settings.GOAML_SCHEMA_PATH = None
    settings.GOAML_INDICATORS = {"structuring": "NOT-IN-THE-UNITS-LIST"}
    assert submit(clients, crew, ready_for_approval(subject, crew)).status_code == 200


def test_the_sar_page_shows_the_validation_result(crew, subject, settings):
    browser = Client()
    browser.force_login(crew["approver"])
    sar = ready_for_approval(subject, crew)
    page = reverse("admin:compliance_sar_change", args=[sar.pk])

    settings.GOAML_SCHEMA_PATH = None
    assert "no FIU schema configured" in browser.get(page).content.decode()
    settings.GOAML_SCHEMA_PATH = SUBSET_XSD
    assert "the export validates against goaml_5_0_2_subset.xsd" in browser.get(page).content.decode()
    settings.GOAML_INDICATORS = {"structuring": "BAD"}
    html = browser.get(page).content.decode()
    assert "does not validate against goaml_5_0_2_subset.xsd" in html and "BAD" in html

    r = browser.post(
        reverse("admin:compliance_sar_transition", args=[sar.pk]), {"status": "SUBMITTED", "confirmed": "yes"}
    )
    assert r.status_code == 302
    sar.refresh_from_db()
    assert sar.status == SARStatus.PENDING_APPROVAL
