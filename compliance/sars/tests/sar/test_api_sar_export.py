"""GET /api/v1/admin/aml/sars/:sarId/export: HTML, text and goAML files with the contract's headers."""

import uuid

import pytest

from backoffice.models import AuditLog
from compliance.sars.choices import SARStatus
from compliance.sars.tests.sar.helpers import file_sar, move


def url(ref):
    return f"/api/v1/admin/aml/sars/{ref}/export"


@pytest.mark.parametrize(
    "fmt,content_type,ext",
    [
        (None, "text/html", "html"),
        ("html", "text/html", "html"),
        ("text", "text/plain", "txt"),
        ("goaml", "application/xml", "xml"),
    ],
)
def test_each_format_has_its_content_type_and_filename(clients, make_sar, fmt, content_type, ext):
    sar = make_sar()
    r = clients["filer"].get(url(sar.pk), {"format": fmt} if fmt else {})
    assert r.status_code == 200, r.content
    assert r["Content-Type"].startswith(content_type)
    assert r["Content-Disposition"] == f'attachment; filename="SAR-{sar.pk}.{ext}"'
    assert AuditLog.objects.filter(action="sar.export", object_id=str(sar.pk)).exists()


def test_the_filename_uses_the_path_parameter_as_given(clients, make_sar):
    sar = make_sar()
    r = clients["filer"].get(url(sar.sar_id), {"format": "text"})
    assert r["Content-Disposition"] == f'attachment; filename="SAR-{sar.sar_id}.txt"'


def test_any_other_format_is_400_with_the_interface_message(clients, make_sar):
    r = clients["filer"].get(url(make_sar().pk), {"format": "pdf"})
    assert r.status_code == 400
    assert r.json()["message"] == "Invalid format. Use html or text"


@pytest.mark.parametrize("ref", [str(uuid.uuid4()), "SAR-0000000000000-ZZZZZZ", "not-a-sar"])
def test_an_unknown_sar_is_404(clients, ref):
    r = clients["filer"].get(url(ref))
    assert r.status_code == 404 and r.json()["message"] == "SAR not found"


def test_html_is_a_styled_printable_report_with_history(clients, subject, crew, subject_transactions):
    sar = file_sar(subject, crew["filer"], related_transaction_ids=[t.pk for t in subject_transactions])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW, note="ready for review")
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    html = clients["filer"].get(url(sar.pk)).content.decode()
    assert "<style>" in html and "@media print" in html
    assert sar.sar_id in html and "Thabo Maseko" in html.replace("</dd>", "")
    assert "DRAFT</td><td>PENDING_REVIEW" in html.replace("\n", "").replace("  ", "").replace("</td> <td>", "</td><td>")
    assert "ready for review" in html
    assert crew["reviewer"].email in html
    for tx in subject_transactions:
        assert tx.reference in html


def test_html_escapes_what_staff_typed(clients, subject, crew):
    sar = file_sar(subject, crew["filer"], activity_description="<script>alert('x')</script> & more")
    html = clients["filer"].get(url(sar.pk)).content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; more" in html


def test_text_export_lists_every_transition_up_to_the_filing(clients, make_sar, crew):
    # the export of a filed report is the report as filed: its history ends with the filing; the FIU's answers
    # recorded later are on the SAR's page, not in what was filed
    sar = make_sar(SARStatus.CLOSED)
    text = clients["approver"].get(url(sar.pk), {"format": "text"}).content.decode()
    assert text.startswith(f"SUSPICIOUS ACTIVITY REPORT {sar.sar_id}")
    for source, target in [
        ("DRAFT", "PENDING_REVIEW"),
        ("PENDING_REVIEW", "PENDING_APPROVAL"),
        ("PENDING_APPROVAL", "SUBMITTED"),
    ]:
        assert f"{source} -> {target}" in text
    for source, target in [
        ("SUBMITTED", "ACKNOWLEDGED"),
        ("ACKNOWLEDGED", "UNDER_INVESTIGATION"),
        ("UNDER_INVESTIGATION", "CLOSED"),
    ]:
        assert f"{source} -> {target}" not in text
    assert "&lt;" not in text and crew["approver"].email in text


def test_html_lists_the_related_alerts(clients, subject, crew, subject_alert):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    html = clients["filer"].get(url(sar.pk)).content.decode()
    assert "Related alerts (1)" in html and "High" in html
