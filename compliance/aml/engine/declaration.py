"""What one rule type is, declared once in its ``engine/<type>.py``:
``RULE_TYPE = RuleTypeSpec(RuleType.X, PARAMETERS, evaluate, could_hit, finding, CATALOGUE[, activity_plan])``.

``engine.registry`` gathers the declarations; everything that differs per rule type is built from them:
the parameters ``conditions`` accept (``models.parameters``, registered in the app's ``ready()``), the
evaluator ``engine.runner.evaluate`` dispatches to, the record-time prefilter (``engine.prefilter``), the
finding an alert shows (``evidence.finding``) and the shipped catalogue (``services.catalogue``). A new
rule type is one file here, its ``RuleType`` choice and the migration that records the choice.
"""

from collections.abc import Callable
from dataclasses import dataclass

from compliance.aml.engine.base import Hit
from compliance.aml.engine.bounds import Sums
from compliance.aml.engine.words import Finding
from compliance.aml.models.parameters import Param

# (earliest epoch the wallet's hourly activity is read from, check(row) -> could the rule still hit)
ActivityPlan = tuple[int, Callable[[list], bool]]


@dataclass(frozen=True)
class RuleTypeSpec:
    """One rule type: its parameters, evaluation, prefilter facts, evidence sentence and shipped rules."""

    # the ``RuleType`` value, and the name of its ``engine/<type>.py``
    name: str
    # the parameters of ``conditions`` (``transactionTypes`` is common to all unless redefined here)
    parameters: dict[str, Param]
    # evaluate(rule, scope) -> hits: one set-based query over the scope (reads only)
    evaluate: Callable[..., list[Hit]]
    # could_hit(rule, tx) -> False only when the row cannot be in any hit (its query is then skipped)
    could_hit: Callable[..., bool]
    # finding(details, conditions, context) -> the alert's finding in words
    finding: Callable[[dict, dict, dict], Finding]
    # the rules of this type the product ships (``engine.catalogue.shipped_rule``)
    catalogue: tuple[dict, ...] = ()
    # activity_plan(rule, sums) -> an ActivityPlan when the wallet's hourly activity can bound the rule, else None
    activity_plan: Callable[[object, Sums], ActivityPlan | None] | None = None

    def __post_init__(self):
        if any(entry["conditions"]["ruleType"] != self.name for entry in self.catalogue):
            raise ValueError(f"rule type {self.name}: a catalogue rule of another type")
