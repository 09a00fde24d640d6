"""The case work section on the alert and SAR pages: thread, files, and the reports citing an alert."""

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.casework.models.casework import CaseAttachment, CaseComment
from compliance.casework.tests.casework.helpers import pdf_upload, png
from compliance.sars.tests.sar.helpers import file_sar


def signed_in(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture
def pages(make_sar, subject_alert):
    sar = make_sar()
    return {
        "sar": (sar, reverse("admin:compliance_sar_change", args=[sar.pk])),
        "alert": (subject_alert, reverse("admin:compliance_alert_change", args=[subject_alert.pk])),
    }


@pytest.mark.parametrize("kind", ["sar", "alert"])
def test_a_comment_and_a_file_added_on_the_page_show_in_the_section(client, crew, pages, kind):
    case, page = pages[kind]
    signed_in(client, crew["reviewer"])
    assert 'data-testid="comment-form"' in client.get(page).content.decode()
    r = client.post(
        reverse(f"admin:compliance_{kind}_casework_comment", args=[case.pk]),
        {"text": "Seen <b>it</b>", "for_report": "on"},
    )
    assert r.status_code == 302 and r["Location"].endswith("#casework")
    client.post(
        reverse(f"admin:compliance_{kind}_casework_attachment", args=[case.pk]),
        {"file": pdf_upload("ledger export.pdf")},
    )
    html = client.get(page).content.decode()
    assert "Seen &lt;b&gt;it&lt;/b&gt;" in html and "For the report" in html  # escaped, and flagged
    assert "ledger_export.pdf" in html and "/api/v1/files/" in html
    comment = CaseComment.objects.get()
    assert comment.for_report and comment.author == crew["reviewer"] and getattr(comment, kind) == case
    assert CaseAttachment.objects.get().uploaded_by == crew["reviewer"]


def test_a_refused_file_is_reported_on_the_page(client, crew, pages):
    case, page = pages["sar"]
    signed_in(client, crew["filer"])
    url = reverse("admin:compliance_sar_casework_attachment", args=[case.pk])
    from django.core.files.uploadedfile import SimpleUploadedFile

    r = client.post(url, {"file": SimpleUploadedFile("photo.pdf", png())}, follow=True)
    assert "Invalid file type" in r.content.decode() and not CaseAttachment.objects.exists()


def test_the_alert_page_names_the_sar_in_progress_that_cites_it(client, crew, subject, subject_alert):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    html = (
        signed_in(client, crew["reviewer"])
        .get(reverse("admin:compliance_alert_change", args=[subject_alert.pk]))
        .content.decode()
    )
    assert sar.sar_id in html and "SAR in progress" in html


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_cannot_post_to_a_case(client, pages, role):
    signed_in(client, StaffFactory(role=role))
    for kind, (case, _page) in pages.items():
        assert (
            client.post(reverse(f"admin:compliance_{kind}_casework_comment", args=[case.pk]), {"text": "x"}).status_code
            == 403
        )
    assert not CaseComment.objects.exists()
