"""Compliance admin pages (SARs, alerts, rules) cost the same number of queries however much history they show."""

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from backoffice.tests.factories import StaffFactory
from compliance.aml.choices import AlertStatus
from compliance.aml.models.alerts import AlertEvent
from compliance.aml.services.alerts import alert_assign
from compliance.aml.services.rules import rule_update
from compliance.aml.tests.alerts.conftest import make_alert, rule  # noqa: F401 - fixtures
from compliance.casework.services.casework import attachment_add, comment_add
from compliance.casework.tests.casework.conftest import pdf_upload
from compliance.sars.choices import SARStatus
from compliance.sars.services.sar_drafts import sar_update
from compliance.sars.tests.sar.conftest import crew, make_sar, subject  # noqa: F401 - fixtures
from kyc.tests.factories import TransactionFactory

pytestmark = pytest.mark.django_db

# PEP pages: compliance/peps/tests/test_admin_query_counts.py
COVERED = {"sar", "alert", "amlrule", "pep", "pepmatch", "screeningrun", "namescreening"}


def test_every_admin_page_of_the_app_is_covered():
    assert registered_models("compliance") == COVERED


def test_sar_list_and_sar_page(make_sar, subject, crew):  # noqa: F811
    client = admin_browser()
    sar = make_sar(SARStatus.UNDER_INVESTIGATION)
    assert_flat(
        client, reverse("admin:compliance_sar_changelist"), lambda n: [make_sar(SARStatus.DRAFT) for _ in range(n)]
    )

    def more_evidence(n):
        sar.related_transactions.add(*TransactionFactory.create_batch(n, user=subject))

    page = reverse("admin:compliance_sar_change", args=[sar.pk])
    assert_flat(client, page, more_evidence)


def test_the_sar_page_costs_the_same_however_much_case_work_it_shows(make_sar, subject, crew, make_alert, media):  # noqa: F811
    client = admin_browser()
    draft = make_sar(SARStatus.DRAFT)
    alert = make_alert(user=subject)
    sar_update(sar=draft, actor=crew["filer"], related_alert_ids=[alert.pk])

    def more_case_work(n):
        for i in range(n):
            comment_add(actor=crew["reviewer"], sar=draft, text=f"note {i}", for_report=bool(i % 2))
            comment_add(actor=crew["reviewer"], alert=alert, text=f"alert note {i}", for_report=True)
            attachment_add(actor=crew["filer"], sar=draft, file=pdf_upload(f"file{i}.pdf"))
            attachment_add(actor=crew["filer"], alert=alert, file=pdf_upload(f"alert{i}.pdf"))
            sar_update(sar=draft, actor=crew["filer"], activity_description=f"version {i}")
        draft.related_transactions.add(*TransactionFactory.create_batch(n, user=subject))

    assert_flat(client, reverse("admin:compliance_sar_change", args=[draft.pk]), more_case_work, by=3)


def test_the_sar_writing_pages_cost_the_same_however_long_the_ledger(make_sar, subject, crew, make_alert):  # noqa: F811
    client = admin_browser()
    draft = make_sar(SARStatus.DRAFT)

    def more_ledger(n):
        rows = TransactionFactory.create_batch(n, user=subject)
        draft.related_transactions.add(*rows[:2])
        for _ in range(n):
            make_alert(user=subject)

    new = reverse("admin:compliance_sar_new")
    assert_flat(client, f"{new}?q=a", lambda n: [make_sar() for _ in range(n)])
    assert_flat(client, f"{new}?subject={subject.pk}", more_ledger)
    assert_flat(client, reverse("admin:compliance_sar_edit", args=[draft.pk]), more_ledger)


def test_the_confirmation_page_costs_the_same_however_much_it_summarises(make_sar, subject, crew):  # noqa: F811
    client = admin_browser()
    sar = make_sar(SARStatus.PENDING_APPROVAL)

    def more(n):
        sar.related_transactions.add(*TransactionFactory.create_batch(n, user=subject))
        for i in range(n):
            comment_add(actor=crew["reviewer"], sar=sar, text=f"for the FIU {i}", for_report=True)

    assert_flat(client, reverse("admin:compliance_sar_confirm_submit", args=[sar.pk]), more)


def test_alert_queue_and_alert_page(make_alert):  # noqa: F811
    client = admin_browser()
    alert = make_alert(transactions=1)
    assert_flat(client, reverse("admin:compliance_alert_changelist"), lambda n: [make_alert() for _ in range(n)])

    officers = [StaffFactory(role="compliance_officer") for _ in range(5)]
    alert_assign(alert=alert, actor=officers[4], assignee=officers[4])  # the page shows an assignee from the start

    def more_history(n):
        for officer in officers[:n]:
            alert_assign(alert=alert, actor=officer, assignee=officer)
        alert.related_transactions.add(*TransactionFactory.create_batch(n, user=alert.user))

    assert_flat(client, reverse("admin:compliance_alert_change", args=[alert.pk]), more_history)
    assert AlertEvent.objects.filter(alert=alert).count() >= 4 and alert.status == AlertStatus.OPEN


def test_the_alert_page_costs_the_same_however_long_its_thread(make_alert, make_sar, crew, media):  # noqa: F811
    client = admin_browser()
    alert = make_alert(transactions=1)

    def more_case_work(n):
        for i in range(n):
            comment_add(actor=crew["reviewer"], alert=alert, text=f"note {i}")
            attachment_add(actor=crew["reviewer"], alert=alert, file=pdf_upload(f"evidence{i}.pdf"))
            sar = make_sar()
            sar.related_alerts.add(alert)

    assert_flat(client, reverse("admin:compliance_alert_change", args=[alert.pk]), more_case_work)


def test_rule_list_and_rule_page(rule):  # noqa: F811
    client = admin_browser()
    assert_flat(client, reverse("admin:compliance_amlrule_changelist"), lambda n: None, by=0)
    editors = [StaffFactory(role="mlro") for _ in range(4)]

    def more_versions(n):
        for i, editor in enumerate(editors[:n]):
            rule_update(rule=rule, actor=editor, changes={"priority": 200 + i})

    assert_flat(client, reverse("admin:compliance_amlrule_change", args=[rule.pk]), more_versions)
