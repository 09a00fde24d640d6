"""Issue 31: after filing, a comment ticked "For the report (goes to the FIU with the SAR)" was accepted and never
reached the FIU. It is refused with a message saying why (API 409, the admin's message), on the SAR and on its
alerts; an internal comment is still kept; the SAR page offers no such tick once filed."""

import pytest
from django.urls import reverse

from compliance.casework.models.casework import CaseComment
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.tests.sar.helpers import client_for, file_sar, move

pytestmark = pytest.mark.django_db


def filed(subject, crew, alert):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[alert.pk])
    for target, who in [
        (SARStatus.PENDING_REVIEW, "filer"),
        (SARStatus.PENDING_APPROVAL, "reviewer"),
        (SARStatus.SUBMITTED, "approver"),
    ]:
        move(sar, crew[who], target)
    return SAR.objects.get(pk=sar.pk)


def test_the_api_refuses_a_note_for_a_filed_report(subject, crew, subject_alert):
    sar = filed(subject, crew, subject_alert)
    api = client_for(crew["reviewer"])
    for url in (f"/api/v1/admin/aml/sars/{sar.pk}/comments", f"/api/v1/admin/aml/alerts/{subject_alert.pk}/comments"):
        r = api.post(url, {"text": "The customer called back", "forReport": True}, format="json")
        assert r.status_code == 409, r.json()
        assert r.json()["error"]["code"] == "REPORT_ALREADY_FILED"
        assert "can no longer reach" in r.json()["error"]["message"]
    assert not CaseComment.objects.filter(text="The customer called back").exists()
    kept = api.post(f"/api/v1/admin/aml/sars/{sar.pk}/comments", {"text": "Internal follow-up"}, format="json")
    assert kept.status_code == 201 and kept.json()["data"]["forReport"] is False


def test_before_filing_a_note_for_the_report_is_kept(subject, crew, subject_alert):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    r = client_for(crew["reviewer"]).post(
        f"/api/v1/admin/aml/sars/{sar.pk}/comments", {"text": "For the FIU", "forReport": True}, format="json"
    )
    assert r.status_code == 201 and r.json()["data"]["forReport"] is True


def test_the_admin_form_offers_no_tick_once_filed_and_refuses_a_forged_one(client, subject, crew, subject_alert):
    sar = filed(subject, crew, subject_alert)
    client.force_login(crew["reviewer"])
    page = client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()
    assert 'name="for_report"' not in page and 'data-testid="report-notes-closed"' in page
    response = client.post(
        reverse("admin:compliance_sar_casework_comment", args=[sar.pk]),
        {"text": "Forged tick", "for_report": "on"},
        follow=True,
    )
    assert "can no longer reach" in response.content.decode()
    assert not CaseComment.objects.filter(text="Forged tick").exists()
