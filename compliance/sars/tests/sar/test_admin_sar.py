"""The SAR pages of the admin site: who sees them, which buttons appear, what the buttons do."""

import re

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, SARTransition


def change_url(sar):
    return reverse("admin:compliance_sar_change", args=[sar.pk])


def moves_on_page(client, sar):
    html = client.get(change_url(sar)).content.decode()
    return sorted(re.findall(r'data-move="([A-Z_]+)"', html))


def signed_in(client, staff):
    client.force_login(staff)
    return client


def test_the_changelist_lists_sars_with_status_filter_and_search(client, crew, make_sar):
    draft, pending = make_sar(), make_sar(SARStatus.PENDING_REVIEW)
    signed_in(client, crew["filer"])
    url = reverse("admin:compliance_sar_changelist")
    page = client.get(url).content.decode()
    assert draft.sar_id in page and pending.sar_id in page
    filtered = client.get(url, {"status__exact": "PENDING_REVIEW"}).content.decode()
    assert pending.sar_id in filtered and draft.sar_id not in filtered
    assert draft.sar_id in client.get(url, {"q": draft.sar_id}).content.decode()
    assert draft.sar_id in client.get(url, {"q": "Maseko"}).content.decode()


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_never_see_sar_pages(client, make_sar, role):
    sar = make_sar()
    signed_in(client, StaffFactory(role=role))
    assert client.get(reverse("admin:compliance_sar_changelist")).status_code == 403
    assert client.get(change_url(sar)).status_code == 403
    assert sar.sar_id not in client.get(reverse("admin:index")).content.decode()


def test_the_sar_page_shows_subject_evidence_and_history(client, crew, make_sar):
    sar = make_sar(SARStatus.PENDING_APPROVAL)
    page = signed_in(client, crew["approver"]).get(change_url(sar)).content.decode()
    assert "Thabo Maseko" in page and "9001015800087" in page
    assert "Transition history" in page and "Pending review" in page and crew["reviewer"].email in page
    assert reverse("admin:compliance_sar_export", args=[sar.pk, "goaml"]) in page


def test_the_workflow_box_names_the_status_once_in_words_and_gives_the_api_code(client, crew, make_sar):
    sar = make_sar(SARStatus.PENDING_APPROVAL)
    page = signed_in(client, crew["approver"]).get(change_url(sar)).content.decode()
    box = page[page.index('id="sar-workflow"') : page.index('data-testid="sar-next-step"')]
    assert box.count("Pending approval") == 1
    assert "(PENDING_APPROVAL)" in box


@pytest.mark.parametrize(
    "state,who,expected",
    [
        (SARStatus.DRAFT, "filer", ["PENDING_REVIEW"]),
        (SARStatus.PENDING_REVIEW, "filer", []),  # four eyes: not their own report
        (SARStatus.PENDING_REVIEW, "reviewer", ["PENDING_APPROVAL"]),
        (SARStatus.PENDING_APPROVAL, "reviewer", []),  # role: only the MLRO approves
        (SARStatus.PENDING_APPROVAL, "approver", ["SUBMITTED"]),
        (SARStatus.SUBMITTED, "approver", ["ACKNOWLEDGED"]),
        (SARStatus.ACKNOWLEDGED, "approver", ["CLOSED", "UNDER_INVESTIGATION"]),
        (SARStatus.ACKNOWLEDGED, "reviewer", []),
        (SARStatus.CLOSED, "admin", []),
    ],
)
def test_buttons_are_exactly_the_moves_the_staff_member_may_take_now(client, crew, make_sar, state, who, expected):
    sar = make_sar(state)
    assert moves_on_page(signed_in(client, crew[who]), sar) == expected


def test_a_button_moves_the_sar_through_the_service(client, crew, make_sar):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    signed_in(client, crew["reviewer"])
    url = reverse("admin:compliance_sar_transition", args=[sar.pk])
    r = client.post(url, {"status": "PENDING_APPROVAL", "note": "looks right"}, follow=True)
    assert r.status_code == 200
    sar = SAR.objects.get(pk=sar.pk)
    assert sar.status == SARStatus.PENDING_APPROVAL and sar.reviewed_by == crew["reviewer"]
    assert SARTransition.objects.filter(sar=sar).last().note == "looks right"
    assert "moved to Pending approval" in r.content.decode()


def test_a_refused_move_is_reported_and_changes_nothing(client, crew, make_sar):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    signed_in(client, crew["filer"])
    url = reverse("admin:compliance_sar_transition", args=[sar.pk])
    r = client.post(url, {"status": "PENDING_APPROVAL"}, follow=True)
    assert "reviewer cannot be the person who filed" in r.content.decode()
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.PENDING_REVIEW


def test_the_transition_url_refuses_get(client, crew, make_sar):
    sar = make_sar()
    signed_in(client, crew["filer"])
    assert client.get(reverse("admin:compliance_sar_transition", args=[sar.pk])).status_code == 405


@pytest.mark.parametrize(
    "fmt,content_type", [("html", "text/html"), ("text", "text/plain"), ("goaml", "application/xml")]
)
def test_export_links_download_the_report(client, crew, make_sar, fmt, content_type):
    sar = make_sar()
    r = signed_in(client, crew["filer"]).get(reverse("admin:compliance_sar_export", args=[sar.pk, fmt]))
    assert r.status_code == 200 and r["Content-Type"].startswith(content_type)
    assert sar.sar_id.encode() in r.content


def test_the_dashboard_and_sidebar_show_sars_to_compliance_only(client, crew, make_sar):
    make_sar(SARStatus.PENDING_REVIEW)
    changelist = reverse("admin:compliance_sar_changelist")
    page = signed_in(client, crew["filer"]).get(reverse("admin:index")).content.decode()
    assert "SARs awaiting review" in page and f'href="{changelist}"' in page
    client.logout()
    page = signed_in(client, StaffFactory(role=StaffRole.SUPPORT)).get(reverse("admin:index")).content.decode()
    assert "SARs awaiting review" not in page and changelist not in page


def test_support_cannot_reach_the_transition_or_export_urls(client, make_sar):
    sar = make_sar()
    signed_in(client, StaffFactory(role=StaffRole.SUPPORT))
    transition = reverse("admin:compliance_sar_transition", args=[sar.pk])
    assert client.post(transition, {"status": "PENDING_REVIEW"}).status_code == 403
    assert client.get(reverse("admin:compliance_sar_export", args=[sar.pk, "html"])).status_code == 403
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.DRAFT


def test_the_sar_page_lists_related_alerts(client, crew, subject, subject_alert):
    from compliance.sars.tests.sar.helpers import file_sar

    sar = file_sar(subject, crew["filer"], related_alert_ids=[subject_alert.pk])
    page = signed_in(client, crew["reviewer"]).get(change_url(sar)).content.decode()
    assert "Rule hit" in page and "High" in page
