"""high_risk_transaction (our design): one transaction of a risky kind.

Parameters: thresholdAmount (number), transactionTypes (string[], required:
the risky ledger types), channels (string[], optional: only these channels),
foreignOnly (boolean, optional: only transactions made outside Eswatini).
"""

from compliance.aml.choices import RuleType
from compliance.aml.engine import bounds
from compliance.aml.engine.base import Scope, money_json
from compliance.aml.engine.catalogue import shipped_rule
from compliance.aml.engine.declaration import RuleTypeSpec
from compliance.aml.engine.single import at_least, per_transaction_hits, scoped
from compliance.aml.engine.words import Finding, listed, money, tx_label
from compliance.aml.models.parameters import AMOUNT, Param
from kyc.choices import Channel, TransactionType


def evaluate(rule, scope: Scope):
    c = rule.conditions
    qs = at_least(scoped(scope), c["thresholdAmount"]).filter(type__in=c["transactionTypes"])
    if c.get("channels"):
        qs = qs.filter(channel__in=c["channels"])
    if c.get("foreignOnly"):
        qs = qs.exclude(country="SZ")
    return per_transaction_hits(qs, threshold_amount=money_json(c["thresholdAmount"]))


# ------------------------------------------------------------ declared once: prefilter, evidence, parameters, catalogue


def could_hit(rule, tx) -> bool:
    return (
        bounds.at_least(tx, rule.conditions["thresholdAmount"])
        and tx.type in rule.conditions["transactionTypes"]
        and (not rule.conditions.get("channels") or tx.channel in rule.conditions["channels"])
        and (not rule.conditions.get("foreignOnly") or tx.country != "SZ")
    )


def finding(d, c, ctx) -> Finding:
    where = []
    if ctx.get("channel"):
        where.append(f"by {ctx['channel'].lower()}")
    if ctx.get("country") and ctx["country"] != "SZ":
        where.append(f"made in {ctx['country']}")
    channels = f" by {listed(ch.replace('_', ' ').lower() for ch in c['channels'])}" if c.get("channels") else ""
    abroad = " made outside Eswatini" if c.get("foreignOnly") else ""
    return Finding(
        f"A {tx_label(d.get('transaction_type'))} of {money(d['amount'])}{' ' + ' '.join(where) if where else ''}.",
        f"Rule: a {listed(tx_label(t) for t in c['transactionTypes'])} of at least "
        f"{money(c['thresholdAmount'])}{channels}{abroad}.",
    )


PARAMETERS = {
    "thresholdAmount": AMOUNT,
    "transactionTypes": Param.choosing(TransactionType),
    "channels": Param.choosing(Channel, required=False),
    "foreignOnly": Param("boolean", required=False),
}

CATALOGUE = (
    shipped_rule(
        "AML-HRT-001",
        "high_risk_transaction",
        "Large cash withdrawal",
        "A cash withdrawal of E15,000 or more at an agent or ATM.",
        "MEDIUM",
        40,
        "High-risk transactions",
        thresholdAmount=15000,
        transactionTypes=["WITHDRAWAL"],
    ),
    shipped_rule(
        "AML-HRT-002",
        "high_risk_transaction",
        "Large manual admin credit",
        "A staff member credited E10,000 or more to a wallet by hand: insider-risk control.",
        "HIGH",
        20,
        "High-risk transactions",
        thresholdAmount=10000,
        transactionTypes=["ADMIN_CREDIT"],
    ),
    shipped_rule(
        "AML-HRT-003",
        "high_risk_transaction",
        "Cross-border transfer",
        "A transfer of E5,000 or more made outside Eswatini.",
        "MEDIUM",
        40,
        "High-risk transactions",
        thresholdAmount=5000,
        transactionTypes=["TRANSFER_IN", "TRANSFER_OUT"],
        foreignOnly=True,
    ),
    shipped_rule(
        "AML-HRT-004",
        "high_risk_transaction",
        "Large card payment",
        "An NFC or card payment of E20,000 or more.",
        "LOW",
        70,
        "High-risk transactions",
        thresholdAmount=20000,
        transactionTypes=["CARD_PAYMENT"],
    ),
    shipped_rule(
        "AML-HRT-005",
        "high_risk_transaction",
        "Large bank top-up",
        "A top-up of E40,000 or more from a bank account: check the source of funds.",
        "MEDIUM",
        50,
        "High-risk transactions",
        thresholdAmount=40000,
        transactionTypes=["TOP_UP"],
        channels=["BANK"],
    ),
)

RULE_TYPE = RuleTypeSpec(RuleType.HIGH_RISK_TRANSACTION, PARAMETERS, evaluate, could_hit, finding, CATALOGUE)
