"""pep_related: a transaction of at least ``thresholdAmount`` by a user flagged as a potential PEP."""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped
from compliance.aml.engine.words import Finding, money, tx_label, types_of
from compliance.aml.models.parameters import AMOUNT


def evaluate(rule, scope: Scope):
    c = rule.conditions
    qs = at_least(scoped(scope), c["thresholdAmount"]).filter(user__is_potential_pep=True)
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]), potential_pep=True)


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return (
        bounds.at_least(tx, rule.conditions["thresholdAmount"])
        and bounds.types_ok(rule, tx)
        and tx.user.is_potential_pep
    )


def finding(d, c, ctx) -> Finding:
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])} by a customer flagged as a potential PEP.",
        f"Rule: a transaction{types_of(c)} of at least {money(c['thresholdAmount'])} by a potential PEP.",
    )


PARAMETERS = {"thresholdAmount": AMOUNT}

CATALOGUE = (
    shipped_rule(
        "AML-PEP-001",
        "pep_related",
        "PEP transaction above E10,000",
        "A potential politically exposed person moves E10,000 or more: enhanced due diligence applies.",
        "HIGH",
        20,
        "Politically exposed persons",
        thresholdAmount=10000,
    ),
    shipped_rule(
        "AML-PEP-002",
        "pep_related",
        "PEP transaction above E50,000",
        "A potential politically exposed person moves E50,000 or more: escalate to the MLRO.",
        "CRITICAL",
        10,
        "Politically exposed persons",
        thresholdAmount=50000,
    ),
    shipped_rule(
        "AML-PEP-003",
        "pep_related",
        "Incoming funds to a PEP",
        "A potential PEP receives a transfer of E5,000 or more from another wallet (possible kickback).",
        "MEDIUM",
        40,
        "Politically exposed persons",
        thresholdAmount=5000,
        transactionTypes=["TRANSFER_IN"],
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.PEP_RELATED, PARAMETERS, evaluate, could_hit, finding, CATALOGUE)
