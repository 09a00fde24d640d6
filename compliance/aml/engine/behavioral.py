"""behavioral: a transaction of at least ``thresholdAmount`` by a user whose declared occupation
is one of ``occupations`` (compared case-insensitively, surrounding spaces ignored)."""

from django.db.models.functions import Lower, Trim

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped
from compliance.aml.engine.words import Finding, listed, money, tx_label
from compliance.aml.models.parameters import AMOUNT, STRINGS


def evaluate(rule, scope: Scope):
    c = rule.conditions
    occupations = sorted({o.strip().lower() for o in c["occupations"]})
    qs = at_least(scoped(scope), c["thresholdAmount"]).annotate(occ=Lower(Trim("user__occupation")))
    qs = qs.filter(occ__in=occupations)
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]), occupations=occupations)


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return (
        bounds.at_least(tx, rule.conditions["thresholdAmount"])
        and bounds.types_ok(rule, tx)
        and bounds.text_rule(tx.user.occupation, rule.conditions["occupations"])
    )


def finding(d, c, ctx) -> Finding:
    occupation = ctx.get("occupation") or "one the rule watches"
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])} by a customer whose occupation is "
        f"{occupation}.",
        f"Rule: at least {money(c['thresholdAmount'])} by a customer working as {listed(c['occupations'])}.",
    )


PARAMETERS = {"thresholdAmount": AMOUNT, "occupations": STRINGS}

CATALOGUE = (
    shipped_rule(
        "AML-BEH-001",
        "behavioral",
        "Student moving large sums",
        "A student's wallet takes in or sends E15,000 or more in one transaction.",
        "MEDIUM",
        60,
        "Customer profile",
        thresholdAmount=15000,
        occupations=["student", "learner", "scholar"],
    ),
    shipped_rule(
        "AML-BEH-002",
        "behavioral",
        "Unemployed customer moving large sums",
        "A customer who declared no employment moves E10,000 or more in one transaction.",
        "MEDIUM",
        60,
        "Customer profile",
        thresholdAmount=10000,
        occupations=["unemployed", "none", "job seeker"],
    ),
    shipped_rule(
        "AML-BEH-003",
        "behavioral",
        "Pensioner or grant recipient moving large sums",
        "A pensioner or social-grant recipient moves E20,000 or more in one transaction.",
        "LOW",
        80,
        "Customer profile",
        thresholdAmount=20000,
        occupations=["pensioner", "retired", "grant recipient"],
    ),
    shipped_rule(
        "AML-BEH-004",
        "behavioral",
        "Informal or domestic worker moving large sums",
        "A domestic worker, farm labourer or informal trader moves E30,000 or more in one transaction.",
        "LOW",
        80,
        "Customer profile",
        thresholdAmount=30000,
        occupations=["domestic worker", "farm worker", "informal trader", "vendor", "hawker"],
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.BEHAVIORAL, PARAMETERS, evaluate, could_hit, finding, CATALOGUE)
