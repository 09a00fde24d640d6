"""threshold: one transaction of at least ``thresholdAmount`` (all ledger types unless transactionTypes)."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.catalogue import CASH_OUT, shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped
from compliance.aml.engine.words import Finding, money, tx_label, types_of
from compliance.aml.models.parameters import AMOUNT


def evaluate(rule, scope: Scope):
    c = rule.conditions
    qs = at_least(scoped(scope), c["thresholdAmount"])
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]))


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return bounds.at_least(tx, rule.conditions["thresholdAmount"]) and bounds.types_ok(rule, tx)


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"One {tx_label(d.get('transaction_type'))} of {money(d['amount'])}.",
        f"Rule: a single transaction{types_of(c)} of at least {money(c['thresholdAmount'])}.",
    )


PARAMETERS = {"thresholdAmount": AMOUNT}

CATALOGUE = (
    shipped_rule(
        "AML-THR-001",
        "threshold",
        "Large single transaction",
        "One wallet transaction of E50,000 or more: far above what a personal wallet moves.",
        "HIGH",
        20,
        "Large transactions",
        thresholdAmount=50000,
    ),
    shipped_rule(
        "AML-THR-002",
        "threshold",
        "Very large single transaction",
        "One transaction of E150,000 or more, beyond the highest wallet tier; review at once.",
        "CRITICAL",
        10,
        "Large transactions",
        thresholdAmount=150000,
    ),
    shipped_rule(
        "AML-THR-003",
        "threshold",
        "Large cash-out",
        "A withdrawal or outgoing transfer of E20,000 or more leaving the platform in one go.",
        "MEDIUM",
        40,
        "Large transactions",
        thresholdAmount=20000,
        transactionTypes=CASH_OUT,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.THRESHOLD, PARAMETERS, evaluate, could_hit, finding, CATALOGUE)
