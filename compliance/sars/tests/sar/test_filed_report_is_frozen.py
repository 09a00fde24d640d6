"""What was filed is frozen: the exports are stored at SUBMITTED with their sha256, answered byte for byte after,
and evidence added later (files, comments for the report, on the SAR or its alerts) shows on the SAR's page as added
after filing without changing the filed report."""

import hashlib

import pytest
from django.urls import reverse

from compliance.casework.services.casework import attachment_add, comment_add
from compliance.casework.tests.casework.helpers import pdf_upload
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, SARFiledExport
from compliance.sars.services.sar_drafts import sar_update
from compliance.sars.tests.sar.helpers import client_for, file_sar, move

pytestmark = pytest.mark.django_db
FORMATS = ("html", "text", "goaml")


def export(client, sar, fmt) -> bytes:
    response = client.get(f"/api/v1/admin/aml/sars/{sar.pk}/export", {"format": fmt})
    assert response.status_code == 200
    return response.content


def filed(subject, crew, *alerts):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[a.pk for a in alerts])
    comment_add(actor=crew["filer"], text="Before filing: the agent confirmed the deposits.", for_report=True, sar=sar)
    for target, who in [
        (SARStatus.PENDING_REVIEW, "filer"),
        (SARStatus.PENDING_APPROVAL, "reviewer"),
        (SARStatus.SUBMITTED, "approver"),
    ]:
        move(sar, crew[who], target)
    return SAR.objects.get(pk=sar.pk)


def add_later_evidence(sar, alert, crew):
    # a note "for the report" is refused once filed (test_filed_report_refuses_report_notes); internal ones are kept
    comment_add(actor=crew["reviewer"], text="LATER-SAR-COMMENT internal", sar=sar)
    comment_add(actor=crew["reviewer"], text="LATER-ALERT-COMMENT internal", alert=alert)
    attachment_add(actor=crew["reviewer"], file=pdf_upload("later-statement.pdf"), sar=sar)


def test_the_exports_are_stored_at_submission_with_their_sha256(media, subject, crew, subject_alert):
    sar = filed(subject, crew, subject_alert)
    stored = {row.format: row for row in SARFiledExport.objects.filter(sar=sar)}
    assert set(stored) == set(FORMATS)
    for row in stored.values():
        assert row.sha256 == hashlib.sha256(bytes(row.content)).hexdigest()
    assert sar.filed_sha256 == stored["goaml"].sha256
    client = client_for(crew["approver"])
    for fmt in FORMATS:
        assert export(client, sar, fmt) == bytes(stored[fmt].content)


def test_evidence_added_after_filing_never_changes_the_filed_exports(media, subject, crew, subject_alert):
    sar = filed(subject, crew, subject_alert)
    client = client_for(crew["approver"])
    before = {fmt: export(client, sar, fmt) for fmt in FORMATS}
    assert b"Before filing: the agent confirmed the deposits." in before["text"]
    add_later_evidence(sar, subject_alert, crew)
    move(sar, crew["approver"], SARStatus.ACKNOWLEDGED, fiu_reference="FIU-2026-0042")
    after = {fmt: export(client, sar, fmt) for fmt in FORMATS}
    assert after == before
    for body in after.values():
        assert b"LATER-" not in body and b"later-statement" not in body
    assert hashlib.sha256(after["goaml"]).hexdigest() == SAR.objects.get(pk=sar.pk).filed_sha256


def test_the_admin_export_is_the_filed_copy_and_the_page_marks_later_evidence(
    media, client, subject, crew, subject_alert
):
    sar = filed(subject, crew, subject_alert)
    add_later_evidence(sar, subject_alert, crew)
    client.force_login(crew["approver"])
    for fmt in FORMATS:
        body = client.get(reverse("admin:compliance_sar_export", args=[sar.pk, fmt])).content
        assert body == bytes(SARFiledExport.objects.get(sar=sar, format=fmt).content)
    page = client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()
    assert page.count('data-testid="after-filing"') == 2  # the later comment and the later file, not the earlier one
    assert 'data-testid="filed-note"' in page and sar.filed_sha256 in page


def test_a_draft_still_exports_what_it_says_now(media, subject, crew):
    sar = file_sar(subject, crew["filer"])
    client = client_for(crew["filer"])
    first = export(client, sar, "text")
    sar_update(sar=sar, actor=crew["filer"], activity_description="A rewritten narrative.")
    assert b"A rewritten narrative." in export(client, sar, "text") and first != export(client, sar, "text")
    assert not SARFiledExport.objects.filter(sar=sar).exists()


def test_a_report_filed_before_copies_were_kept_exports_only_the_evidence_it_had(media, subject, crew, subject_alert):
    sar = filed(subject, crew, subject_alert)
    SARFiledExport.objects.filter(sar=sar).delete()
    add_later_evidence(sar, subject_alert, crew)
    text = export(client_for(crew["approver"]), sar, "text")
    assert b"Before filing: the agent confirmed the deposits." in text and b"LATER-" not in text
