"""Migration 0024 (issue 31): PEP-confirmed alerts stored as false positives become true positives, and pending
proposals their rule moved on from are superseded, each with a history row."""

import hashlib
import importlib

import pytest
from django.apps import apps as django_apps

from compliance.aml.models.alerts import Alert
from compliance.aml.models.governance import RuleProposal, RuleProposalEvent
from compliance.aml.models.rules import AMLRule
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db
MIGRATION = importlib.import_module("compliance.migrations.0024_true_positive_outcome_and_superseded_proposals")


def test_the_migration_corrects_confirmed_alerts_and_closes_stale_proposals():
    user = PlatformUserFactory()

    def alert(key, reason):
        made = Alert.objects.create(user=user, dedup_key=hashlib.sha256(key.encode()).hexdigest(), details={})
        Alert.objects.filter(pk=made.pk).update(status="CLOSED_FALSE_POSITIVE", close_reason_code=reason)
        return made.pk

    confirmed, dismissed = alert("a", "PEP_MATCH_CONFIRMED"), alert("b", "PEP_MATCH_DISMISSED")
    rule = AMLRule.objects.create(
        rule_id="T-1", name="t", rule_type="threshold", conditions={"ruleType": "threshold", "thresholdAmount": 5}
    )
    AMLRule.objects.filter(pk=rule.pk).update(version=3)
    stale = RuleProposal.objects.create(rule=rule, base_version=2, changes={"severity": "HIGH"})
    current = RuleProposal.objects.create(rule=rule, base_version=3, changes={"severity": "LOW"})

    MIGRATION.forwards(django_apps, None)

    assert Alert.objects.get(pk=confirmed).status == "CLOSED_TRUE_POSITIVE"
    assert Alert.objects.get(pk=dismissed).status == "CLOSED_FALSE_POSITIVE"
    stale.refresh_from_db()
    assert stale.status == "REJECTED" and stale.superseded and "version 3" in stale.decision_reason
    assert RuleProposalEvent.objects.filter(proposal=stale, to_status="REJECTED").count() == 1
    assert RuleProposal.objects.get(pk=current.pk).status == "PENDING"
    MIGRATION.backwards(django_apps, None)
    assert Alert.objects.get(pk=confirmed).status == "CLOSED_FALSE_POSITIVE"
