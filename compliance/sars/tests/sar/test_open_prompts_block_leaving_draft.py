"""A narrative with template prompts left (``[...]``) is unfinished: the SAR cannot leave DRAFT, nor be reviewed or
approved, and the refusal names the prompts left."""

import pytest
from django.urls import reverse

from compliance.sars import narratives
from compliance.sars.choices import SARStatus
from compliance.sars.errors import SARIncomplete
from compliance.sars.models.sar import SAR
from compliance.sars.services.sar_drafts import sar_update
from compliance.sars.tests.sar.helpers import client_for, file_sar, move

pytestmark = pytest.mark.django_db

HALF_DONE = narratives.template("structuring", {"who": "Thabo Maseko, customer since 2021.", "what": "Nine deposits."})


def test_a_draft_with_prompts_left_cannot_be_submitted_for_review(subject, crew):
    sar = file_sar(subject, crew["filer"], activity_description=HALF_DONE)
    left = narratives.open_prompts(HALF_DONE)
    assert left == 4
    with pytest.raises(SARIncomplete) as refused:
        move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    assert f"{left} unanswered template prompt" in refused.value.message
    assert "[the dates and times, first to last, and the period they cover]" in refused.value.message
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.DRAFT
    sar_update(sar=sar, actor=crew["filer"], activity_description="WHO: Thabo. WHAT: nine deposits. WHEN: May.")
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)


def test_a_report_already_under_review_with_prompts_is_neither_reviewed_nor_approved(subject, crew):
    sar = file_sar(subject, crew["filer"])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    SAR.objects.filter(pk=sar.pk).update(activity_description=HALF_DONE)  # as a report filed before this rule
    with pytest.raises(SARIncomplete):
        move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    SAR.objects.filter(pk=sar.pk).update(activity_description="Complete.")
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    SAR.objects.filter(pk=sar.pk).update(activity_description=HALF_DONE)
    with pytest.raises(SARIncomplete):
        move(sar, crew["approver"], SARStatus.SUBMITTED)


def test_the_api_answers_409_naming_the_prompts(subject, crew):
    sar = file_sar(subject, crew["filer"], activity_description=HALF_DONE)
    response = client_for(crew["filer"]).put(
        f"/api/v1/admin/aml/sars/{sar.pk}/status", {"status": "PENDING_REVIEW"}, format="json"
    )
    assert response.status_code == 409, response.json()
    body = response.json()
    assert body["error"]["code"] == "SAR_INCOMPLETE"
    assert "4 unanswered template prompt(s)" in body["message"]
    assert len(body["error"]["details"]["activity_description"]) == 4


def test_the_admin_button_reports_the_prompts_left(client, subject, crew):
    sar = file_sar(subject, crew["filer"], activity_description=HALF_DONE)
    client.force_login(crew["filer"])
    answer = client.post(
        reverse("admin:compliance_sar_transition", args=[sar.pk]), {"status": "PENDING_REVIEW"}, follow=True
    )
    assert "unanswered template prompt" in answer.content.decode()
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.DRAFT
