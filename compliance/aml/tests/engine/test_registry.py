"""Each rule type is declared once, in its engine/<type>.py; every per-type table is built from those declarations."""

import importlib

import pytest

from compliance.aml.choices import AlertType, RuleType
from compliance.aml.engine import registry
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.words import Finding
from compliance.aml.evidence import OTHER_FINDINGS
from compliance.aml.models.parameters import PARAMETERS


@pytest.mark.parametrize("rule_type", RuleType.values)
def test_each_rule_type_is_the_declaration_of_its_own_file(rule_type):
    spec = importlib.import_module(f"compliance.aml.engine.{rule_type}").RULE_TYPE
    assert spec is registry.RULE_TYPES[rule_type] and spec.name == rule_type
    # the tables the models, engine, prefilter and evidence read hold this file's own functions
    assert PARAMETERS[rule_type] is spec.parameters
    assert registry.EVALUATORS[rule_type] is spec.evaluate
    assert registry.CHECKS[rule_type] is spec.could_hit
    assert registry.SENTENCES[rule_type] is spec.finding
    assert registry.ACTIVITY_PLANS.get(rule_type) is spec.activity_plan
    assert [e for e in registry.CATALOGUE if e["conditions"]["ruleType"] == rule_type] == list(spec.catalogue)


def test_a_declaration_refuses_a_catalogue_rule_of_another_type():
    threshold = registry.RULE_TYPES[RuleType.THRESHOLD]
    with pytest.raises(ValueError, match="another type"):
        RuleTypeSpec(
            name=RuleType.VELOCITY,
            parameters={},
            evaluate=threshold.evaluate,
            could_hit=threshold.could_hit,
            finding=threshold.finding,
            catalogue=threshold.catalogue,
        )


def test_the_pep_match_sentence_is_the_one_compliance_peps_registers():
    from compliance.peps.evidence import pep_match_finding

    assert OTHER_FINDINGS[AlertType.PEP_MATCH] is pep_match_finding
    assert isinstance(pep_match_finding({"pep_name": "A. Person", "score": 0.9}), Finding)
