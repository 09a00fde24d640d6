"""Every rule type's declaration (``RULE_TYPE`` of ``engine/<type>.py``), and what is built from them.

One module per ``RuleType`` value; the tables the engine, the prefilter, the evidence and the catalogue
read are built here, so none of them lists the types again.
"""

from importlib import import_module

from compliance.aml.choices import RuleType
from compliance.aml.engine.declaration import RuleTypeSpec


def _declared(rule_type: str) -> RuleTypeSpec:
    spec = import_module(f"compliance.aml.engine.{rule_type}").RULE_TYPE
    if spec.name != rule_type:
        raise ValueError(f"compliance/aml/engine/{rule_type}.py declares rule type {spec.name}")
    return spec


RULE_TYPES: dict[str, RuleTypeSpec] = {rule_type: _declared(rule_type) for rule_type in RuleType.values}

PARAMETERS = {name: spec.parameters for name, spec in RULE_TYPES.items()}
EVALUATORS = {name: spec.evaluate for name, spec in RULE_TYPES.items()}
CHECKS = {name: spec.could_hit for name, spec in RULE_TYPES.items()}
ACTIVITY_PLANS = {name: spec.activity_plan for name, spec in RULE_TYPES.items() if spec.activity_plan is not None}
SENTENCES = {name: spec.finding for name, spec in RULE_TYPES.items()}
# the shipped rules, type by type in ``RuleType`` order
CATALOGUE: list[dict] = [entry for spec in RULE_TYPES.values() for entry in spec.catalogue]
