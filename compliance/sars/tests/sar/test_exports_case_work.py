"""The HTML and text exports: marked DRAFT until approved, the notes for the report, the evidence files."""

import pytest

from compliance.casework.services.casework import attachment_add, comment_add
from compliance.casework.tests.casework.helpers import pdf_upload
from compliance.sars.choices import SARStatus
from compliance.sars.export import render_sar
from compliance.sars.tests.sar.helpers import sar_in

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["html", "text"])
@pytest.mark.parametrize(
    "state, marked",
    [
        (SARStatus.DRAFT, True),
        (SARStatus.PENDING_REVIEW, True),
        (SARStatus.PENDING_APPROVAL, True),
        (SARStatus.SUBMITTED, False),
        (SARStatus.CLOSED, False),
    ],
)
def test_a_report_not_yet_approved_is_marked_draft(subject, crew, fmt, state, marked):
    body = render_sar(sar_in(state, subject, crew), fmt).decode()
    assert ("NOT APPROVED BY THE MLRO" in body) is marked


@pytest.mark.parametrize("fmt", ["html", "text", "goaml"])
def test_notes_for_the_report_and_files_are_in_every_export_the_internal_thread_in_none(
    subject, crew, subject_alert, media, fmt
):
    sar = sar_in(SARStatus.DRAFT, subject, crew)
    sar.related_alerts.add(subject_alert)
    comment_add(actor=crew["filer"], sar=sar, text="For the FIU: the agent confirmed the deposits.", for_report=True)
    comment_add(actor=crew["filer"], sar=sar, text="Between us: check the agent too.")
    comment_add(actor=crew["reviewer"], alert=subject_alert, text="Alert note for the FIU.", for_report=True)
    attachment_add(actor=crew["filer"], sar=sar, file=pdf_upload("agent statement.pdf"))
    attachment_add(actor=crew["filer"], alert=subject_alert, file=pdf_upload("alert evidence.pdf"))
    body = render_sar(sar, fmt).decode()  # a SAR not loaded for a report is loaded so by the renderer
    assert "the agent confirmed the deposits" in body and "Alert note for the FIU." in body
    assert "Between us" not in body
    assert "agent_statement.pdf" in body and "alert_evidence.pdf" in body
