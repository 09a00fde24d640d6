"""regional_risk: a transaction made in one of ``regions`` (the ledger row's region, compared
case-insensitively), of at least the optional ``thresholdAmount`` (default 0)."""

from django.db.models.functions import Lower, Trim

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, money_json, tx_types
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped
from compliance.aml.engine.words import Finding, listed, money, tx_label
from compliance.aml.models.parameters import AMOUNT, STRINGS, optional


def evaluate(rule, scope: Scope):
    c = rule.conditions
    regions = sorted({r.strip().lower() for r in c["regions"]})
    threshold = c.get("thresholdAmount", 0)
    qs = at_least(scoped(scope), threshold).annotate(reg=Lower(Trim("region"))).filter(reg__in=regions)
    if types := tx_types(rule, None):
        qs = qs.filter(type__in=types)
    return per_transaction_hits(qs, regions=regions, threshold_amount=money_json(threshold))


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return (
        bounds.at_least(tx, rule.conditions.get("thresholdAmount", 0))
        and bounds.types_ok(rule, tx)
        and bounds.text_rule(tx.region, rule.conditions["regions"])
    )


def finding(d, c, ctx) -> Finding:
    region = ctx.get("region") or listed(d.get("regions") or c["regions"])
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])} made in {region}.",
        f"Rule: at least {money(c.get('thresholdAmount', 0))} in {listed(c['regions'])}.",
    )


PARAMETERS = {"regions": STRINGS, "thresholdAmount": optional(AMOUNT)}

CATALOGUE = (
    shipped_rule(
        "AML-REG-001",
        "regional_risk",
        "Border-post cash activity",
        "Transactions of E5,000 or more made at Eswatini's border posts (cross-border smuggling corridors).",
        "LOW",
        70,
        "Regional risk",
        regions=["Ngwenya", "Oshoek", "Lavumisa", "Mahamba", "Lomahasha", "Mhlumeni"],
        thresholdAmount=5000,
    ),
    shipped_rule(
        "AML-REG-002",
        "regional_risk",
        "Mozambique corridor activity",
        "Transactions of E2,000 or more in the Maputo corridor towns.",
        "MEDIUM",
        60,
        "Regional risk",
        regions=["Maputo", "Matola", "Ressano Garcia", "Namaacha", "Boane"],
        thresholdAmount=2000,
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.REGIONAL_RISK, PARAMETERS, evaluate, could_hit, finding, CATALOGUE)
