"""The dashboard opens on "my work": my alerts, SARs waiting for me (four eyes respected), overdue items."""

import datetime as dt

from django.test import Client
from django.utils import timezone

from compliance.aml.models.alerts import Alert
from compliance.sars.admin.mywork import waiting_for
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.tests.sar.helpers import crew, make_sar, subject  # noqa: F401 - fixtures


def cards_of(staff) -> dict[str, str]:
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/")
    context = response.context
    return {card["title"]: card for card in context["my_work"]}


def test_sars_waiting_for_me_follow_the_four_eyes_rule(make_sar, crew):  # noqa: F811
    draft = make_sar(SARStatus.DRAFT)
    review = make_sar(SARStatus.PENDING_REVIEW)
    approval = make_sar(SARStatus.PENDING_APPROVAL)
    mine = {
        name: set(SAR.objects.filter(waiting_for(staff)).values_list("pk", flat=True)) for name, staff in crew.items()
    }
    assert mine["filer"] == {draft.pk}  # their own draft to hand over; never their own review or approval
    assert mine["reviewer"] == {review.pk}  # reviewed the one in approval: may not approve it (and may not anyway)
    assert mine["approver"] == {review.pk, approval.pk}
    assert cards_of(crew["approver"])["SARs waiting for me"]["value"] == 2
    assert cards_of(crew["filer"])["SARs waiting for me"]["link"].endswith("?mine=waiting")


def test_overdue_alerts_and_sars_are_counted_and_linked(make_sar, crew, subject, settings):  # noqa: F811
    settings.SAR_FILING_DAYS = 1
    sar = make_sar(SARStatus.PENDING_REVIEW)
    SAR.objects.filter(pk=sar.pk).update(created_at=timezone.now() - dt.timedelta(days=5))
    alert = Alert.objects.create(user=subject, severity="CRITICAL", dedup_key="late", assigned_to=crew["reviewer"])
    Alert.objects.filter(pk=alert.pk).update(created_at=timezone.now() - dt.timedelta(days=2))
    cards = cards_of(crew["reviewer"])
    assert cards["SARs overdue for filing"]["value"] == 1 and cards["SARs overdue for filing"]["tone"] == "danger"
    assert cards["Overdue alerts"]["value"] == 1 and cards["Alerts assigned to me"]["hint"] == "1 overdue"
    client = Client()
    client.force_login(crew["reviewer"])
    overdue_list = client.get(cards["Overdue alerts"]["link"]).content.decode()
    assert str(alert.pk) in overdue_list
    assert sar.sar_id in client.get(cards["SARs overdue for filing"]["link"]).content.decode()
