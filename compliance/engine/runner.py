"""Run the active rules over a scope and raise alerts, never twice for the same hit.

An alert's ``dedup_key`` is sha256(rule id, hit key): the hit key names the
transaction (single-transaction rules, top-ups, dormant wake-ups) or the
user, partition and time bucket (window rules). The key does not include the
rule's version, so editing a rule does not re-raise alerts on transactions
already alerted; the alert keeps the version that raised it.
"""

import datetime as dt
import hashlib
import logging
import time
from dataclasses import dataclass, field
from importlib import import_module

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from compliance.choices import AlertStatus, AlertType, RuleType
from compliance.engine.base import Hit, Scope
from compliance.models import Alert, AMLRule

logger = logging.getLogger("compliance.engine")

EVALUATORS = {rule_type: f"compliance.engine.{rule_type}" for rule_type in RuleType.values}
CHUNK = 500


@dataclass
class ScanResult:
    rules: int = 0
    hits: int = 0
    alerts_created: int = 0
    errors: int = 0
    per_rule: dict[str, dict] = field(default_factory=dict)


def evaluate(rule: AMLRule, scope: Scope) -> list[Hit]:
    """The hits of one rule in a scope (reads only)."""
    return import_module(EVALUATORS[rule.rule_type]).evaluate(rule, scope)


def dedup_key(rule: AMLRule, hit: Hit) -> str:
    return hashlib.sha256(f"{rule.pk}|{hit.key}".encode()).hexdigest()


def _chunks(items: list, size: int = CHUNK):
    for start in range(0, len(items), size):
        yield items[start : start + size]


@transaction.atomic
def raise_alerts(rule: AMLRule, hits: list[Hit]) -> int:
    """Create the alerts of new hits and link their transactions; returns how many were created."""
    if not hits:
        return 0
    by_key = {dedup_key(rule, hit): hit for hit in hits}
    keys = list(by_key)
    known: set[str] = set()
    for chunk in _chunks(keys):
        known.update(Alert.objects.filter(dedup_key__in=chunk).values_list("dedup_key", flat=True))
    fresh = [
        Alert(
            alert_type=AlertType.RULE,
            rule=rule,
            rule_version=rule.version,
            user_id=hit.user_id,
            severity=rule.severity,
            status=AlertStatus.OPEN,
            dedup_key=key,
            details={
                "ruleId": rule.rule_id,
                "ruleType": rule.rule_type,
                "ruleVersion": rule.version,
                "ruleName": rule.name,
                **hit.details,
            },
        )
        for key, hit in by_key.items()
        if key not in known
    ]
    if not fresh:
        return 0
    # ignore_conflicts: a concurrent scan may insert the same key between our read and our write
    Alert.objects.bulk_create(fresh, batch_size=CHUNK, ignore_conflicts=True)
    ours: set = set()
    for chunk in _chunks([a.pk for a in fresh]):
        ours.update(Alert.objects.filter(pk__in=chunk).values_list("pk", flat=True))
    pairs = [
        (a.pk, tx_id) for a in fresh if a.pk in ours for tx_id in dict.fromkeys(by_key[a.dedup_key].transaction_ids)
    ]
    _link_transactions(pairs)
    return len(ours)


def _link_transactions(pairs: list[tuple]) -> None:
    """Insert (alert, transaction) links: one unnest() statement per 50,000 on PostgreSQL, bulk_create elsewhere."""
    through = Alert.related_transactions.through
    if connection.vendor != "postgresql":
        links = [through(alert_id=a, transaction_id=t) for a, t in pairs]
        through.objects.bulk_create(links, batch_size=2000, ignore_conflicts=True)
        return
    table = through._meta.db_table
    with connection.cursor() as cursor:
        for start in range(0, len(pairs), 50_000):
            chunk = pairs[start : start + 50_000]
            cursor.execute(
                f"INSERT INTO {table} (alert_id, transaction_id) "
                "SELECT * FROM unnest(%s::uuid[], %s::uuid[]) ON CONFLICT DO NOTHING",
                [[str(a) for a, _ in chunk], [str(t) for _, t in chunk]],
            )


def _batch_session() -> None:
    """Let a whole-ledger scan sort and hash in memory instead of spilling to disk (PostgreSQL only)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL work_mem = %s", [getattr(settings, "AML_SCAN_WORK_MEM", "128MB")])


def scan(*, since: dt.datetime, until: dt.datetime | None = None, user_id=None, rules=None) -> ScanResult:
    """Evaluate every active rule (or ``rules``) over [since, until] and raise the alerts."""
    until = until or timezone.now()
    scope = Scope(since=since, until=until, user_id=user_id)
    if rules is None:
        rules = list(AMLRule.objects.filter(is_active=True).order_by("priority", "rule_id"))
    result = ScanResult(rules=len(rules))
    batch = user_id is None
    for rule in rules:
        started = time.perf_counter()
        try:
            # a savepoint per rule: one broken rule must not stop the others or poison the transaction
            with transaction.atomic():
                if batch:
                    _batch_session()
                hits = evaluate(rule, scope)
                created = raise_alerts(rule, hits) if rule.creates_alerts else 0
        except Exception:
            logger.exception("AML rule %s failed to evaluate", rule.rule_id)
            result.per_rule[rule.rule_id] = {"error": True}
            result.errors += 1
            continue
        if hits and not rule.creates_alerts:
            logger.info("rule %s (log only) hit %d time(s)", rule.rule_id, len(hits))
        result.hits += len(hits)
        result.alerts_created += created
        result.per_rule[rule.rule_id] = {
            "hits": len(hits),
            "created": created,
            "seconds": round(time.perf_counter() - started, 3),
        }
    return result


def scan_transaction(transaction_id) -> ScanResult:
    """Screen one ledger row: every rule, scoped to its user and to windows ending at it."""
    from kyc.models import Transaction

    tx = Transaction.objects.only("id", "user_id", "created_at").get(pk=transaction_id)
    return scan(since=tx.created_at, until=tx.created_at, user_id=tx.user_id)
