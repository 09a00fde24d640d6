"""``governance.rule_change_to``: an edit form's whole set of values; only what differs is the change."""

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.governance import rule_change_to
from compliance.aml.tests.factories import AMLRuleFactory


def _values(rule: AMLRule, **changed) -> dict:
    return {**{name: getattr(rule, name) for name in AMLRule.UPDATABLE}, **changed}


def test_only_the_fields_that_differ_are_proposed(db, settings):
    settings.RULE_FOUR_EYES = True
    rule = AMLRuleFactory()
    mlro = StaffFactory(role=StaffRole.MLRO)
    outcome = rule_change_to(rule_pk=rule.pk, actor=mlro, values=_values(rule, severity="HIGH"), reason="louder")
    assert outcome.proposal is not None and outcome.proposal.changes == {"severity": "HIGH"}
    rule.refresh_from_db()
    assert rule.severity == "MEDIUM"  # a proposal changes nothing until approved


def test_an_edit_that_applies_at_once_changes_only_those_fields(db):
    rule = AMLRuleFactory(is_active=False)
    mlro = StaffFactory(role=StaffRole.MLRO)
    outcome = rule_change_to(rule_pk=rule.pk, actor=mlro, values=_values(rule, name="Renamed"), reason="clearer")
    rule.refresh_from_db()
    assert outcome.proposal is None and rule.name == "Renamed" and rule.version == 2
    assert rule.severity == "MEDIUM" and rule.conditions["thresholdAmount"] == 10
