"""Four eyes on the content: whoever changed a SAR (filed it, wrote a narrative version, edited the draft's amount,
date, type or evidence) is not an independent reviewer or approver, in the services, the API and the admin."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.errors import FourEyesRequired
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, SARDraftEdit
from compliance.sars.services.sar import sar_return
from compliance.sars.services.sar_drafts import sar_update
from compliance.sars.tests.sar.helpers import client_for, file_sar, move

pytestmark = pytest.mark.django_db

EDITS = {
    "narrative": {"activity_description": "Nine deposits of SZL 4,900 in two days, then a transfer abroad."},
    "amount": {"amount_involved": Decimal("50000.00")},
    "type": {"suspicious_activity_type": "money_laundering"},
}


@pytest.fixture
def editor():
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_an_editor_of_the_draft_cannot_review_it(subject, crew, editor, edit):
    sar = file_sar(subject, crew["filer"])
    sar_update(sar=sar, actor=editor, **EDITS[edit])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    with pytest.raises(FourEyesRequired, match="edited the SAR"):
        move(sar, editor, SARStatus.PENDING_APPROVAL)
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.PENDING_REVIEW
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)  # someone who never touched it may


def test_an_editor_of_the_cited_evidence_cannot_review_it(subject, crew, editor, subject_transactions):
    sar = file_sar(subject, crew["filer"])
    sar_update(sar=sar, actor=editor, related_transaction_ids=[t.pk for t in subject_transactions])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    with pytest.raises(FourEyesRequired):
        move(sar, editor, SARStatus.PENDING_APPROVAL)


def test_an_mlro_who_edited_the_draft_cannot_approve_it(subject, crew):
    mlro = StaffFactory(role=StaffRole.MLRO)
    sar = file_sar(subject, crew["filer"])
    sar_update(sar=sar, actor=mlro, amount_involved=Decimal("1.00"))
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    with pytest.raises(FourEyesRequired, match="approver cannot be someone who edited"):
        move(sar, mlro, SARStatus.SUBMITTED)
    move(sar, crew["approver"], SARStatus.SUBMITTED)


def test_a_reviewer_who_returned_and_then_edited_it_cannot_review_it_again(subject, crew):
    sar = file_sar(subject, crew["filer"])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    sar_return(sar=sar, actor=crew["reviewer"], reason="Say where the cash came from")
    sar_update(sar=sar, actor=crew["reviewer"], activity_description="Cash from agent 12, Manzini.")
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    with pytest.raises(FourEyesRequired):
        move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)


def test_an_edit_that_changes_nothing_is_no_authorship(subject, crew):
    sar = file_sar(subject, crew["filer"])
    sar_update(sar=sar, actor=crew["reviewer"], amount_involved=sar.amount_involved)
    assert not SARDraftEdit.objects.filter(sar=sar).exists()
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)


def test_the_api_answers_403_four_eyes_required_to_an_editor(subject, crew, editor):
    sar = file_sar(subject, crew["filer"])
    response = client_for(editor).patch(f"/api/v1/admin/aml/sars/{sar.pk}", {"amountInvolved": 12345.67}, format="json")
    assert response.status_code == 200, response.json()
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    response = client_for(editor).put(
        f"/api/v1/admin/aml/sars/{sar.pk}/status",
        {"status": "PENDING_APPROVAL", "reviewedBy": str(editor.pk)},
        format="json",
    )
    assert response.status_code == 403, response.json()
    assert response.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.PENDING_REVIEW


def test_the_admin_offers_an_editor_no_review_button_and_refuses_the_post(client, subject, crew, editor):
    sar = file_sar(subject, crew["filer"])
    sar_update(sar=sar, actor=editor, activity_description="Rewritten by a second officer.")
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    client.force_login(editor)
    page = client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()
    assert re.findall(r'data-move="([A-Z_]+)"', page) == []
    answer = client.post(
        reverse("admin:compliance_sar_transition", args=[sar.pk]), {"status": "PENDING_APPROVAL"}, follow=True
    )
    assert "cannot be someone who edited the SAR" in answer.content.decode()
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.PENDING_REVIEW


def test_my_work_does_not_offer_an_editor_the_review_or_approval(subject, crew, editor):
    from compliance.sars.admin.mywork import waiting_for

    mlro = StaffFactory(role=StaffRole.MLRO)
    edited = file_sar(subject, crew["filer"])
    sar_update(sar=edited, actor=editor, amount_involved=Decimal("10.00"))
    sar_update(sar=edited, actor=mlro, activity_description="Rewritten by the MLRO.")
    move(edited, crew["filer"], SARStatus.PENDING_REVIEW)
    untouched = file_sar(subject, crew["filer"])
    move(untouched, crew["filer"], SARStatus.PENDING_REVIEW)

    def mine(staff):
        return set(SAR.objects.filter(waiting_for(staff)).values_list("pk", flat=True))

    assert mine(editor) == {untouched.pk}
    assert mine(crew["reviewer"]) == {edited.pk, untouched.pk}
    move(edited, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    assert edited.pk not in mine(mlro) and edited.pk in mine(crew["approver"])
