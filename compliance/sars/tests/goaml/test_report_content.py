"""What a goAML report carries beyond the facts: the DRAFT marker, notes for the report, files, PEPs, codes."""

from decimal import Decimal

import pytest

from compliance.casework.services.casework import attachment_add, comment_add
from compliance.casework.tests.casework.helpers import pdf_upload
from compliance.sars.choices import SARStatus
from compliance.sars.export import render_sar
from compliance.sars.goaml import DRAFT_MARKER
from compliance.sars.selectors.sar import sar_for_report
from compliance.sars.services.sar import sar_return
from compliance.sars.tests.goaml.helpers import errors_of, goaml_of, report_of
from compliance.sars.tests.sar.helpers import file_sar, move, sar_in
from kyc.tests.factories import TransactionFactory

pytestmark = pytest.mark.django_db


def infos(report) -> dict[str, list]:
    found: dict[str, list] = {}
    for info in report.iter("additional_info"):
        found.setdefault(info.findtext("info_subject"), []).append(info)
    return found


@pytest.mark.parametrize("state", [SARStatus.DRAFT, SARStatus.PENDING_REVIEW, SARStatus.PENDING_APPROVAL])
def test_a_report_not_yet_approved_is_marked_draft(state, subject, crew):
    sar = sar_in(state, subject, crew)
    raw = goaml_of(sar)
    assert f"<!-- {DRAFT_MARKER}".encode() in raw
    marker = infos(report_of(sar))[DRAFT_MARKER][0]
    assert marker.findtext("info_boolean") == "true" and sar.sar_id in marker.findtext("info_text")
    assert list(report_of(sar).iter("additional_info"))[0] is not None and errors_of(sar) == []


@pytest.mark.parametrize("state", [SARStatus.SUBMITTED, SARStatus.ACKNOWLEDGED, SARStatus.CLOSED])
def test_an_approved_report_is_not_marked(state, subject, crew):
    sar = sar_in(state, subject, crew)
    assert DRAFT_MARKER.encode() not in goaml_of(sar)


def test_only_comments_for_the_report_reach_it_the_sars_and_its_alerts(subject, crew, subject_alert, media):
    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    comment_add(actor=crew["filer"], sar=sar, text="Internal: the reviewer should check the vendor.")
    comment_add(actor=crew["filer"], sar=sar, text="Customer admitted splitting the deposits.", for_report=True)
    comment_add(actor=crew["reviewer"], alert=subject_alert, text="Alert note for the FIU.", for_report=True)
    comment_add(actor=crew["reviewer"], alert=subject_alert, text="Alert internal chatter.")
    attachment_add(actor=crew["filer"], sar=sar, file=pdf_upload("statement.pdf"))

    raw = goaml_of(sar).decode()
    assert "Customer admitted splitting the deposits." in raw and "Alert note for the FIU." in raw
    assert "Internal" not in raw and "chatter" not in raw
    files = infos(report_of(sar))["Attachment statement.pdf"]
    assert "application/pdf" in files[0].findtext("info_text") and "sha256" in files[0].findtext("info_text")
    assert errors_of(sar) == []


def test_the_internal_workflow_and_return_reasons_never_reach_the_fiu(subject, crew):
    sar = sar_in(SARStatus.PENDING_REVIEW, subject, crew)
    sar_return(sar=sar, actor=crew["reviewer"], reason="Internal: the filer forgot the dates again.")
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    raw = goaml_of(sar).decode()
    assert "forgot the dates" not in raw and "Workflow" not in raw
    assert not [s for s in infos(report_of(sar)) if "Workflow" in s or "->" in s]
    assert errors_of(sar) == []
    # the institution's own exports keep the history, returns with their reasons (contract: SAR return)
    assert "forgot the dates" in render_sar(sar_for_report(sar=sar), "txt").decode()


def test_a_subject_with_a_confirmed_pep_match_carries_peps(subject, crew, django_capture_on_commit_callbacks):
    from compliance.peps.models.pep import PEPMatch
    from compliance.peps.services.pep import pep_create
    from compliance.peps.services.pep_matches import pep_match_review
    from kyc.services import user_name_index

    user_name_index(user=subject)
    with django_capture_on_commit_callbacks(execute=True):
        pep_create(actor=crew["filer"], name="Hon. Thabo Maseko", position="Member of Parliament", country="Eswatini")
    match = PEPMatch.objects.get(user=subject)
    sar = file_sar(subject, crew["filer"], related_transaction_ids=[TransactionFactory(user=subject).pk])
    assert report_of(sar).find("transaction/t_to/to_person/peps") is None  # a potential match tells the FIU nothing

    pep_match_review(match=match, actor=crew["reviewer"], status="CONFIRMED", note="Same person: ID checked")
    person = report_of(sar).find("transaction/t_to/to_person")
    assert [c.tag for c in person][-1] == "peps"
    assert person.findtext("peps/pep/pep_country") == "SZ"
    assert person.findtext("peps/pep/function_name") == "Member of Parliament"
    assert errors_of(sar) == []


def test_code_lists_come_from_the_settings_and_a_code_outside_the_units_list_fails_its_schema(subject, crew, settings):
    settings.GOAML_INDICATORS = {"structuring": "SMURF"}
    settings.GOAML_FUNDS_CODES = {"WALLET": "K"}
    tx = TransactionFactory(user=subject, amount=Decimal("10"))
    sar = file_sar(subject, crew["filer"], related_transaction_ids=[tx.pk])
    report = report_of(sar)
    assert report.findtext("report_indicators/indicator") == "SMURF"
    assert report.findtext("transaction/t_from/from_funds_code") == "K"
    errors = errors_of(sar)
    assert any("SMURF" in e for e in errors) and all(e.startswith("line ") for e in errors)


def test_a_narrative_longer_than_goaml_carries_is_cut_with_a_marker_and_validates(subject, crew):
    sar = file_sar(subject, crew["filer"], activity_description="x" * 4001)
    reason = report_of(sar).findtext("reason")
    assert len(reason) == 4000 and reason.startswith("x" * 3000) and reason.endswith("institution's records]")
    assert errors_of(sar) == []
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
