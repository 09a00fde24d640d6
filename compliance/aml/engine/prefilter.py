"""Which rules could hit a transaction at all, from the transaction alone (no query).

At record time a rule's hit must include the new row, and every evaluator's
hit is anchored on a row that passes the evaluator's own row filter (its
types, channel, country, amount bound...). A row that fails that filter
cannot be in any hit of the rule, so the rule's query is skipped. These are
necessary conditions only, mirroring each evaluator's filter: when in doubt
(a value the database might compare differently), the rule runs. The
equivalence test (record time = batch scan) and
``compliance/aml/tests/transactions/test_prefilter.py`` hold them to that.
"""

from decimal import Decimal

from compliance.aml.engine.base import DEBIT_TYPES, money
from compliance.aml.engine.structuring import DEFAULT_TYPES as STRUCTURING_TYPES


def _types_ok(rule, tx, default=None) -> bool:
    types = rule.conditions.get("transactionTypes") or default
    return not types or tx.type in types


def _at_least(tx, amount) -> bool:
    return Decimal(tx.amount) >= money(amount)


def _same_text(value: str, choices) -> bool | None:
    """Case-insensitive membership as SQL's LOWER(TRIM()) sees it; None when only the database can tell."""
    if not value.isascii() or not all(c.isascii() for c in choices):
        return None
    return value.strip(" ").lower() in {c.strip(" ").lower() for c in choices}


def _text_rule(value: str, choices) -> bool:
    same = _same_text(value or "", choices)
    return True if same is None else same


def _vendor_sector(tx) -> str | None:
    vendor = tx.counterparty_vendor if tx.counterparty_vendor_id else None
    return vendor.business_sector if vendor is not None else None


CHECKS = {
    "threshold": lambda r, tx: _at_least(tx, r.conditions["thresholdAmount"]) and _types_ok(r, tx),
    "behavioral": lambda r, tx: (
        _at_least(tx, r.conditions["thresholdAmount"])
        and _types_ok(r, tx)
        and _text_rule(tx.user.occupation, r.conditions["occupations"])
    ),
    "pep_related": lambda r, tx: (
        _at_least(tx, r.conditions["thresholdAmount"]) and _types_ok(r, tx) and tx.user.is_potential_pep
    ),
    "high_risk_transaction": lambda r, tx: (
        _at_least(tx, r.conditions["thresholdAmount"])
        and tx.type in r.conditions["transactionTypes"]
        and (not r.conditions.get("channels") or tx.channel in r.conditions["channels"])
        and (not r.conditions.get("foreignOnly") or tx.country != "SZ")
    ),
    "regional_risk": lambda r, tx: (
        _at_least(tx, r.conditions.get("thresholdAmount", 0))
        and _types_ok(r, tx)
        and _text_rule(tx.region, r.conditions["regions"])
    ),
    "account_lifecycle": lambda r, tx: _at_least(tx, r.conditions["thresholdAmount"]) and _types_ok(r, tx),
    "structuring": lambda r, tx: (
        Decimal(tx.amount) < money(r.conditions["thresholdAmount"]) and _types_ok(r, tx, STRUCTURING_TYPES)
    ),
    "network_analysis": lambda r, tx: tx.type == "TRANSFER_IN" and tx.counterparty_user_id is not None,
    "pattern_detection": lambda r, tx: _at_least(tx, r.conditions["minAmount"]) and _types_ok(r, tx),
    # a top-up large enough, or one of the outflows that drain it
    "digital_wallet": lambda r, tx: (
        (tx.type == "TOP_UP" and _at_least(tx, r.conditions["minAmount"]))
        or tx.type in (r.conditions.get("transactionTypes") or DEBIT_TYPES)
    ),
    "mobile_money": lambda r, tx: tx.channel == "MOBILE_MONEY" and _types_ok(r, tx),
    "vendor_specific": lambda r, tx: tx.type == "VENDOR_PAYMENT" and tx.counterparty_vendor_id is not None,
    "cft_related": lambda r, tx: tx.country in r.conditions["countries"] and _types_ok(r, tx),
    "business_sector": lambda r, tx: (
        tx.type in ("VENDOR_PAYMENT", "CARD_PAYMENT")
        and tx.counterparty_vendor_id is not None
        and _text_rule(_vendor_sector(tx) or "", r.conditions["sectors"])
    ),
    "velocity": lambda r, tx: _types_ok(r, tx),
    "regulatory_reporting": lambda r, tx: _types_ok(r, tx),
}


def could_hit(rule, tx) -> bool:
    """False only when ``tx`` cannot be part of any hit of ``rule`` (so its query can be skipped)."""
    check = CHECKS.get(rule.rule_type)
    return True if check is None else bool(check(rule, tx))
