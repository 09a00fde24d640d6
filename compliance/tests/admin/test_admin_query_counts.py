"""Compliance admin pages (SARs, alerts, rules) cost the same number of queries however much history they show."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from backoffice.tests.factories import StaffFactory
from compliance.aml.choices import AlertStatus
from compliance.aml.models.alerts import Alert, AlertEvent
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.alerts import alert_assign
from compliance.aml.services.governance import rule_propose, rule_snooze
from compliance.aml.services.rules import rule_update
from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
from compliance.casework.services.casework import attachment_add, comment_add
from compliance.casework.tests.casework.helpers import pdf_upload
from compliance.sars.choices import SARStatus
from compliance.sars.services.sar_drafts import sar_update
from compliance.sars.tests.sar.helpers import crew, make_sar, subject  # noqa: F401 - fixtures
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = pytest.mark.django_db

# PEP pages: compliance/peps/tests/admin/test_admin_query_counts.py; threshold reports: compliance/reporting/tests;
# sanctions matches: compliance/sanctions/tests/screening/test_admin_query_counts.py; the lists, versions, entries,
# their history and uploads: compliance/sanctions/tests/lists/test_admin_query_counts.py
COVERED = {
    "sanctionsmatch",
    "sanctionslist",
    "listversion",
    "sanctionsentry",
    "sanctionsentrychange",
    "sanctionsimport",
    "sar",
    "alert",
    "amlrule",
    "pep",
    "pepmatch",
    "screeningrun",
    "thresholdreport",
    "thresholdreportbatch",
    "ruleproposal",
    "rulesnooze",
    "heldtransaction",
    "namescreening",
}


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


def _more_rules(n):
    for i in range(n):
        extra = AMLRule.objects.create(
            rule_id=f"T-MORE-{AMLRule.objects.count()}-{i}",
            name="More",
            rule_type="threshold",
            conditions={"ruleType": "threshold", "thresholdAmount": 10},
            is_active=True,
        )
        Alert.objects.create(rule=extra, user=PlatformUserFactory(), dedup_key=f"more-{extra.pk}")


def test_rule_list_and_rule_page(rule, make_alert):  # noqa: F811
    client = admin_browser()
    make_alert(status="CLOSED_FALSE_POSITIVE")
    assert_flat(client, reverse("admin:compliance_amlrule_changelist"), _more_rules)
    editors = [StaffFactory(role="mlro") for _ in range(4)]
    rule_propose(rule=rule, actor=editors[0], changes={"severity": "HIGH"}, reason="first")

    def more_versions_proposals_and_alerts(n):
        for i, editor in enumerate(editors[:n]):
            rule_update(rule=rule, actor=editor, changes={"priority": 200 + i}, reason=f"step {i}")
            rule_propose(rule=rule, actor=editor, changes={"severity": "CRITICAL"}, reason="worse")
            make_alert(status="CLOSED_SAR_FILED")

    assert_flat(client, reverse("admin:compliance_amlrule_change", args=[rule.pk]), more_versions_proposals_and_alerts)


def test_proposal_and_snooze_lists(rule):  # noqa: F811
    client = admin_browser()
    editors = [StaffFactory(role="mlro") for _ in range(4)]
    rule_propose(rule=rule, actor=editors[0], changes={"severity": "HIGH"}, reason="first")

    def more_proposals(n):
        for i, editor in enumerate(editors[:n]):
            rule_propose(rule=_one_more_rule(i), actor=editor, changes={"severity": "HIGH"}, reason="r")

    assert_flat(client, reverse("admin:compliance_ruleproposal_changelist"), more_proposals)

    def more_snoozes(n):
        for i in range(n):
            rule_snooze(
                rule=_one_more_rule(10 + i),
                user=PlatformUserFactory(),
                actor=editors[0],
                expires_at=timezone.now() + dt.timedelta(days=3),
                reason="known pattern",
            )

    assert_flat(client, reverse("admin:compliance_rulesnooze_changelist"), more_snoozes)


def _one_more_rule(i):
    return AMLRule.objects.create(
        rule_id=f"T-EXTRA-{i}-{AMLRule.objects.count()}",
        name="Extra",
        rule_type="threshold",
        conditions={"ruleType": "threshold", "thresholdAmount": 10},
        is_active=True,
    )


def test_the_held_queue_and_a_held_transaction_page(db):
    from decimal import Decimal

    from compliance.aml.tests.transactions.helpers import make_rule
    from kyc.services import transaction_record
    from kyc.tests.factories import PlatformUserFactory

    client = admin_browser()
    make_rule("threshold", action="hold", thresholdAmount=10)
    customer = PlatformUserFactory(balance=Decimal("5000"))

    def hold(n):
        for _ in range(n):
            transaction_record(user=PlatformUserFactory(), type="TOP_UP", amount=Decimal("20"))
            transaction_record(user=customer, type="TOP_UP", amount=Decimal("30"))

    hold(1)
    assert_flat(client, reverse("admin:compliance_heldtransaction_changelist"), hold)
    held = customer.transactions.filter(status="HELD").first()
    assert_flat(client, reverse("admin:compliance_heldtransaction_change", args=[held.pk]), hold)
