"""Compliance admin pages (SARs, alerts, rules) cost the same number of queries however much history they show."""

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat, registered_models
from backoffice.tests.factories import StaffFactory
from compliance.choices import AlertStatus, SARStatus
from compliance.models import AlertEvent
from compliance.services import alert_assign, rule_update
from compliance.tests.alerts.conftest import make_alert, rule  # noqa: F401 - fixtures
from compliance.tests.sar.conftest import crew, make_sar, subject  # noqa: F401 - fixtures
from kyc.tests.factories import TransactionFactory

pytestmark = pytest.mark.django_db

# PEP pages: compliance/tests/pep/test_admin_query_counts.py
COVERED = {"sar", "alert", "amlrule", "pep", "pepmatch", "screeningrun"}


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


def test_rule_list_and_rule_page(rule):  # noqa: F811
    client = admin_browser()
    assert_flat(client, reverse("admin:compliance_amlrule_changelist"), lambda n: None, by=0)
    editors = [StaffFactory(role="mlro") for _ in range(4)]

    def more_versions(n):
        for i, editor in enumerate(editors[:n]):
            rule_update(rule=rule, actor=editor, changes={"priority": 200 + i})

    assert_flat(client, reverse("admin:compliance_amlrule_change", args=[rule.pk]), more_versions)
