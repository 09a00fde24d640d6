"""The AML rule catalogue that ships with the product: 43 rules in 16 types, each type's in its
``engine/<type>.py`` (``RULE_TYPE.catalogue``), gathered in ``engine.registry.CATALOGUE``; this module is
how one rule is written down and what its hits decide.

Amounts are Emalangeni (SZL, at par with the rand). They are sized for a
mobile-money and wallet platform in Eswatini, where most wallets move a few
hundred to a few thousand emalangeni a month and the FIU's large-cash
reporting threshold is E25,000. ``python manage.py load_aml_rules`` loads
them (see ``compliance.aml.services.catalogue.rule_catalogue_load``); docs/aml-rules.md
explains every type's parameters.
"""

# What a hit decides before the money moves (docs/aml-rules.md, "Decisions"). The interface's severities:
# HIGH "block and alert", CRITICAL "block and escalate". CRITICAL rules block outright; HIGH rules hold the
# transaction (the money is stopped until an officer releases or rejects it, and the alert is raised), except
# the two HIGH rules where stopping the transaction would be wrong: AML-RPT-001 is a reporting duty (a large
# but lawful cash day must go through and be reported) and AML-HRT-002 watches staff's own credits, which
# maker-checker decides. MEDIUM and LOW rules only alert.
HOLD_RULES = {
    "AML-THR-001",
    "AML-STR-001",
    "AML-VEL-002",
    "AML-PEP-001",
    "AML-NET-001",
    "AML-ACC-001",
    "AML-DW-001",
    "AML-MM-002",
    "AML-VEN-001",
    "AML-CFT-002",
}
BLOCK_RULES = {"AML-THR-002", "AML-PEP-002", "AML-CFT-001"}
ALERT_ONLY_HIGH = {"AML-RPT-001", "AML-HRT-002"}


def actions_for(rule_id: str, severity: str) -> dict:
    """The catalogue's actions for one rule."""
    actions = {"createAlert": True, "notifyCompliance": severity in ("HIGH", "CRITICAL")}
    if rule_id in BLOCK_RULES:
        actions["block"] = True
    elif rule_id in HOLD_RULES:
        actions["hold"] = True
    return actions


def previous_actions(severity: str) -> dict:
    """The actions the catalogue shipped before decisions existed: a rule still carrying them was never edited."""
    return {"createAlert": True, "notifyCompliance": severity in ("HIGH", "CRITICAL")}


CASH_IN = ["TOP_UP", "TRANSFER_IN"]
CASH_OUT = ["WITHDRAWAL", "TRANSFER_OUT"]
SPEND = ["VENDOR_PAYMENT", "CARD_PAYMENT"]


def shipped_rule(rule_id, rule_type, name, description, severity, priority, category, **params):
    """One rule in the domain's names (the arguments of ``rule_create``); conditions keep the interface's JSON."""
    return {
        "rule_id": rule_id,
        "name": name,
        "description": description,
        "category": category,
        "severity": severity,
        "priority": priority,
        "is_active": True,
        "actions": actions_for(rule_id, severity),
        "conditions": {"ruleType": rule_type, **params},
    }
