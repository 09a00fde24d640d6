"""The sub-domains' factories make rows their services would have made."""

import pytest

from compliance.aml.tests.factories import AlertFactory, AMLRuleFactory
from compliance.casework.tests.factories import CaseCommentFactory
from compliance.peps.models import PEPMatch
from compliance.peps.tests.factories import PEPFactory
from compliance.peps.tests.helpers import make_user
from compliance.sars.choices import SARStatus
from compliance.sars.tests.factories import SARFactory

pytestmark = pytest.mark.django_db


def test_a_rule_alert_carries_its_rules_version_and_a_unique_dedup_key():
    rule = AMLRuleFactory(version=4)
    first, second = AlertFactory(rule=rule), AlertFactory(rule=rule)
    assert first.rule_version == 4 and first.dedup_key != second.dedup_key
    assert AlertFactory(alert_type="PEP_MATCH").rule is None


def test_a_pep_from_the_factory_is_screened_like_one_from_the_api():
    user = make_user("Bakotimu", "Dafiloza")
    pep = PEPFactory(name="Bakotimu Dafiloza")
    assert pep.name_key and pep.content_hash
    assert PEPMatch.objects.filter(pep=pep, user=user).exists()


def test_a_sar_from_the_factory_is_a_draft_with_its_filer_and_a_comment_can_join_an_alert():
    sar = SARFactory()
    assert sar.status == SARStatus.DRAFT and sar.filed_by.role == "compliance_officer"
    comment = CaseCommentFactory(alert=AlertFactory())
    assert comment.alert.comments.get() == comment
