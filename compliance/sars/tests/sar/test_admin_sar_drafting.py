"""Writing a SAR in the admin site: from scratch (subject, then evidence), and editing a DRAFT."""

import datetime as dt

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.choices import AlertStatus
from compliance.sars import narratives
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.tests.sar.helpers import draft_form, sar_in, signed_in
from kyc.tests.factories import TransactionFactory

NEW = "admin:compliance_sar_new"


def test_the_list_offers_a_new_sar_and_add_leads_to_the_subject_search(client, crew, subject):
    signed_in(client, crew["filer"])
    changelist = client.get(reverse("admin:compliance_sar_changelist")).content.decode()
    assert reverse("admin:compliance_sar_add") in changelist
    r = client.get(reverse("admin:compliance_sar_add"))
    assert r.status_code == 302 and r["Location"] == reverse(NEW)
    page = client.get(reverse(NEW), {"q": "thabo mas"}).content.decode()
    assert "Thabo Maseko" in page and f"?subject={subject.pk}" in page


def test_a_sar_is_written_from_scratch_with_evidence_from_the_subjects_ledger_and_alerts(
    client, crew, subject, subject_alert
):
    txs = TransactionFactory.create_batch(3, user=subject)
    signed_in(client, crew["filer"])
    page = client.get(reverse(NEW), {"subject": subject.pk}).content.decode()
    assert all(t.reference in page for t in txs) and str(subject_alert.pk) in page
    assert "The narrative must answer" in page

    data = draft_form(
        subject=str(subject.pk),
        related_transactions=[str(t.pk) for t in txs[:2]],
        related_alerts=[str(subject_alert.pk)],
    )
    r = client.post(reverse(NEW), data)
    sar = SAR.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("admin:compliance_sar_change", args=[sar.pk])
    assert sar.status == SARStatus.DRAFT and sar.filed_by == crew["filer"] and sar.entity_user == subject
    assert set(sar.related_transactions.all()) == set(txs[:2])
    subject_alert.refresh_from_db()
    assert subject_alert.status == AlertStatus.ESCALATED
    assert sar.narrative_versions.get().text == data["activity_description"]


def test_the_template_button_puts_the_activity_types_questions_in_the_narrative(client, crew, subject):
    signed_in(client, crew["filer"])
    r = client.post(
        reverse(NEW),
        draft_form(subject=str(subject.pk), activity_description="", _template="1", suspicious_activity_type="fraud"),
    )
    page = r.content.decode()
    assert r.status_code == 200 and not SAR.objects.exists()
    for question in ("WHO:", "WHAT:", "WHEN:", "WHERE:", "WHY:", "HOW:"):
        assert question in page
    assert "account takeover" in page  # fraud's own prompt for HOW


def test_every_activity_type_has_a_template_asking_the_six_questions():
    for kind, template in narratives.templates().items():
        assert [p.split(":")[0] for p in template.split("\n\n")] == ["WHO", "WHAT", "WHEN", "WHERE", "WHY", "HOW"]
        assert narratives.open_prompts(template) == 6, kind


def test_refusals_come_back_as_form_errors(client, crew, subject):
    signed_in(client, crew["filer"])
    future = (dt.date.today() + dt.timedelta(days=3)).isoformat()
    r = client.post(reverse(NEW), draft_form(subject=str(subject.pk), date_of_suspicious_activity=future))
    assert r.status_code == 200 and "cannot be in the future" in r.content.decode() and not SAR.objects.exists()
    other = TransactionFactory()
    r = client.post(reverse(NEW), draft_form(subject=str(subject.pk), related_transactions=[str(other.pk)]))
    assert "Not a transaction of this user" in r.content.decode() and not SAR.objects.exists()


def test_a_draft_is_edited_and_the_previous_narrative_kept(client, crew, make_sar, subject):
    sar = make_sar()
    tx = TransactionFactory(user=subject)
    signed_in(client, crew["reviewer"])
    edit = reverse("admin:compliance_sar_edit", args=[sar.pk])
    page = client.get(edit).content.decode()
    assert sar.activity_description in page and "Edit draft" in page
    r = client.post(edit, draft_form(activity_description="Rewritten.", related_transactions=[str(tx.pk)]))
    assert r.status_code == 302
    sar.refresh_from_db()
    assert sar.activity_description == "Rewritten." and list(sar.related_transactions.all()) == [tx]
    assert [v.text for v in sar.narrative_versions.order_by("number")][-1] == "Rewritten."
    page = client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()
    assert "Version 2" in page and "Version 1" in page


def test_only_a_draft_is_edited(client, crew, subject):
    sar = sar_in(SARStatus.PENDING_REVIEW, subject, crew)
    signed_in(client, crew["reviewer"])
    edit = reverse("admin:compliance_sar_edit", args=[sar.pk])
    assert client.get(edit).status_code == 302
    client.post(edit, draft_form(activity_description="sneaky"))
    sar.refresh_from_db()
    assert sar.activity_description != "sneaky"
    assert "Edit the draft" not in client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_cannot_write_sars(client, make_sar, subject, role):
    sar = make_sar()
    signed_in(client, StaffFactory(role=role))
    assert client.get(reverse(NEW)).status_code == 403
    assert client.post(reverse(NEW), draft_form(subject=str(subject.pk))).status_code == 403
    assert client.get(reverse("admin:compliance_sar_edit", args=[sar.pk])).status_code == 403
    assert SAR.objects.count() == 1
