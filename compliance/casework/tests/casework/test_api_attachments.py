"""POST|GET .../attachments: evidence files through the shared upload checks, served back byte for byte."""

import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.casework.models.casework import CaseAttachment
from compliance.casework.tests.casework.helpers import handmade_pdf, javascript_action, jpeg, pikepdf_pdf, png
from compliance.sars.tests.sar.helpers import client_for

ATTACHMENT_KEYS = {"id", "filename", "size", "contentType", "url", "uploadedBy", "createdAt"}


@pytest.fixture
def cases(make_sar, subject_alert):
    sar = make_sar()
    return {"alert": f"/api/v1/admin/aml/alerts/{subject_alert.pk}", "sar": f"/api/v1/admin/aml/sars/{sar.pk}"}


def upload(client, url, name, data, content_type="application/octet-stream"):
    return client.post(f"{url}/attachments", {"file": SimpleUploadedFile(name, data, content_type)}, format="multipart")


@pytest.mark.parametrize("kind", ["alert", "sar"])
@pytest.mark.parametrize(
    "name, data, content_type",
    [
        ("Bank statement (March).PDF", pikepdf_pdf(pages=2), "application/pdf"),
        ("till-slip.jpg", jpeg(), "image/jpeg"),
        ("screenshot.png", png(), "image/png"),
    ],
)
def test_a_file_is_stored_and_its_url_serves_the_same_bytes(clients, crew, cases, kind, name, data, content_type):
    r = upload(clients["filer"], cases[kind], name, data)
    assert r.status_code == 201, r.content
    created = r.json()["data"]
    assert set(created) == ATTACHMENT_KEYS
    assert created["contentType"] == content_type and created["size"] == len(data)
    assert created["filename"] == {"application/pdf": "Bank_statement_March.pdf"}.get(content_type, name)
    assert created["uploadedBy"]["id"] == str(crew["filer"].pk)

    listed = clients["reviewer"].get(f"{cases[kind]}/attachments").json()["data"]
    assert [a["id"] for a in listed] == [created["id"]]
    served = clients["reviewer"].get(listed[0]["url"])
    assert served.status_code == 200 and served["Content-Type"] == content_type
    body = b"".join(served.streaming_content)
    assert body == data  # stored unchanged: an image is not re-encoded, metadata and all
    record = CaseAttachment.objects.get()
    assert record.sha256 == hashlib.sha256(data).hexdigest()
    assert AuditLog.objects.filter(action="case.attachment", changes__attachment_id=created["id"]).exists()


@pytest.mark.parametrize(
    "name, data, code",
    [
        ("evidence.pdf", png(), "VALIDATION_ERROR"),  # the bytes are a PNG
        ("evidence.exe", pikepdf_pdf(), "VALIDATION_ERROR"),
        ("evidence", pikepdf_pdf(), "VALIDATION_ERROR"),
        ("notes.txt", b"just text", "VALIDATION_ERROR"),
        ("empty.pdf", b"", "VALIDATION_ERROR"),
        ("page.pdf", b"<html>" + pikepdf_pdf(), "VALIDATION_ERROR"),
        (
            "script.pdf",
            pikepdf_pdf(build=lambda pdf: pdf.Root.__setitem__("/OpenAction", javascript_action(pdf))),
            "UNSAFE_CONTENT",
        ),
    ],
)
def test_a_file_the_checks_refuse_is_400_and_nothing_is_stored(clients, cases, media, name, data, code):
    r = upload(clients["filer"], cases["sar"], name, data)
    assert r.status_code == 400, r.content
    assert r.json()["error"]["code"] == code
    assert not CaseAttachment.objects.exists()
    assert not [p for p in media.rglob("*") if p.is_file()]


def test_a_file_over_20_mb_is_400(clients, cases, media):
    big = handmade_pdf(
        objects=(b"<< /Length %d >>\nstream\n" % (20 * 1024 * 1024) + b"0" * (20 * 1024 * 1024) + b"\nendstream",)
    )
    r = upload(clients["filer"], cases["alert"], "big.pdf", big)
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"
    assert r.json()["message"] == "File size exceeds limit"
    assert not CaseAttachment.objects.exists()


def test_no_file_is_400(clients, cases):
    r = clients["filer"].post(f"{cases['sar']}/attachments", {}, format="multipart")
    assert r.status_code == 400 and "file" in r.json()["error"]["details"]


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_get_403(cases, role):
    client = client_for(StaffFactory(role=role))
    for url in cases.values():
        assert client.get(f"{url}/attachments").status_code == 403
        assert upload(client, url, "a.png", png()).status_code == 403
    assert not CaseAttachment.objects.exists()
