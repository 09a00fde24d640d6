"""The review loop in the admin site: who acts next, return with a reason, and the confirmation before approval."""

import pytest
from django.urls import reverse

from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.tests.sar.helpers import sar_in


def signed_in(client, staff):
    client.force_login(staff)
    return client


def page_of(client, sar) -> str:
    return client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()


@pytest.mark.parametrize(
    "state, words",
    [
        (SARStatus.DRAFT, "Waiting for the draft to be completed and submitted for review"),
        (SARStatus.PENDING_REVIEW, "Waiting for review by a compliance officer other than the filer"),
        (SARStatus.PENDING_APPROVAL, "Waiting for approval by an MLRO who neither filed"),
        (SARStatus.SUBMITTED, "Waiting for the FIU to acknowledge the report"),
        (SARStatus.CLOSED, "Nobody: the case is closed."),
    ],
)
def test_every_sar_page_says_who_must_act_next(client, crew, subject, state, words):
    sar = sar_in(state, subject, crew)
    page = page_of(signed_in(client, crew["admin"]), sar)
    assert words in page
    if state == SARStatus.PENDING_REVIEW:
        assert crew["filer"].full_name in page


def test_the_list_says_what_each_report_waits_for(client, crew, subject):
    sar_in(SARStatus.PENDING_APPROVAL, subject, crew)
    page = signed_in(client, crew["filer"]).get(reverse("admin:compliance_sar_changelist")).content.decode()
    assert "Waiting for" in page and "MLRO approval" in page


def test_the_reviewer_returns_the_sar_with_a_reason_and_the_filer_sees_it(client, crew, subject):
    sar = sar_in(SARStatus.PENDING_REVIEW, subject, crew)
    signed_in(client, crew["filer"])
    assert "Return to DRAFT" not in page_of(client, sar)  # never the filer
    signed_in(client, crew["reviewer"])
    assert 'data-testid="sar-return"' in page_of(client, sar)
    url = reverse("admin:compliance_sar_return", args=[sar.pk])
    r = client.post(url, {"reason": ""}, follow=True)
    assert "A reason is required" in r.content.decode()
    client.post(url, {"reason": "Give the dates of the deposits."})
    sar.refresh_from_db()
    assert sar.status == SARStatus.DRAFT
    page = page_of(signed_in(client, crew["filer"]), sar)
    assert "Give the dates of the deposits." in page and "Edit the draft" in page


def test_approving_asks_for_confirmation_first(client, crew, subject):
    sar = sar_in(SARStatus.PENDING_APPROVAL, subject, crew)
    signed_in(client, crew["approver"])
    confirm = reverse("admin:compliance_sar_confirm_submit", args=[sar.pk])
    assert confirm in page_of(client, sar)
    transition = reverse("admin:compliance_sar_transition", args=[sar.pk])
    r = client.post(transition, {"status": "SUBMITTED"})  # without the confirmation: to the confirmation page
    assert r.status_code == 302 and r["Location"] == confirm
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.PENDING_APPROVAL
    page = client.get(confirm).content.decode()
    assert "cannot be undone" in page and sar.activity_description in page
    client.post(transition, {"status": "SUBMITTED", "confirmed": "yes", "note": "Filed."})
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.SUBMITTED


def test_the_confirmation_page_is_only_for_who_may_approve(client, crew, subject):
    sar = sar_in(SARStatus.PENDING_APPROVAL, subject, crew)
    r = signed_in(client, crew["reviewer"]).get(reverse("admin:compliance_sar_confirm_submit", args=[sar.pk]))
    assert r.status_code == 302
