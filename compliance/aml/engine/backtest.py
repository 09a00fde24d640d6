"""Backtest: what a rule (or proposed conditions) would raise over a past window of the ledger.

It runs the engine's own set-based evaluators (``runner.evaluate``) over the
window and raises nothing. Hits of the candidate and of the current version
are matched by their hit key, the same identity the engine deduplicates
alerts on, so "also raised by the current version" means exactly "would not
be a new alert".
"""

import datetime as dt
import time
from dataclasses import dataclass, field

from django.db import transaction

from backoffice.errors import ValidationFailed
from backoffice.jsonkeys import camel_keys
from compliance.aml.engine.base import Hit, Scope
from compliance.aml.engine.runner import batch_session, evaluate
from compliance.aml.models.parameters import validate_conditions
from compliance.aml.models.rules import AMLRule
from kyc.models import PlatformUser


@dataclass
class BacktestResult:
    hits: list[Hit]
    also_by_current: int
    added: list[Hit]
    dropped: list[Hit]
    users: list[dict]
    seconds: float
    per_user: dict = field(default_factory=dict)


def candidate_rule(rule: AMLRule, conditions: dict | None) -> AMLRule:
    """An unsaved copy of ``rule`` carrying ``conditions`` (validated: 400 naming the bad parameters).

    Conditions without a ``ruleType`` are read as changes to the rule's own
    parameters (``{"thresholdAmount": 4000}``); with one, they replace them, as in an update.
    """
    if conditions is None:
        return rule
    if isinstance(conditions, dict) and "ruleType" not in conditions:
        conditions = {**(rule.conditions or {}), **conditions}
    errors = validate_conditions(conditions)
    if errors:
        raise ValidationFailed("Validation error", details=errors)
    copy = AMLRule(**{f.attname: getattr(rule, f.attname) for f in AMLRule._meta.concrete_fields})
    copy.conditions = conditions
    copy.rule_type = AMLRule.type_of(conditions)
    return copy


def _evaluate(rule: AMLRule, scope: Scope) -> list[Hit]:
    with transaction.atomic():
        batch_session()
        return evaluate(rule, scope)


def backtest(
    *, rule: AMLRule, since: dt.datetime, until: dt.datetime, conditions: dict | None = None
) -> BacktestResult:
    """Run ``rule`` (or ``conditions`` in its place) over [since, until]; compare with the current version."""
    if since > until:
        raise ValidationFailed("Validation error", details={"to": ["Must not be before from."]})
    candidate = candidate_rule(rule, conditions)
    started = time.perf_counter()
    scope = Scope(since=since, until=until)
    hits = _evaluate(candidate, scope)
    current = hits if candidate is rule else _evaluate(rule, scope)
    current_keys = {hit.key for hit in current}
    hit_keys = {hit.key for hit in hits}
    added = [hit for hit in hits if hit.key not in current_keys]
    dropped = [hit for hit in current if hit.key not in hit_keys]
    counts: dict = {}
    for hit in hits:
        counts[hit.user_id] = counts.get(hit.user_id, 0) + 1
    names = {
        u["id"]: u for u in PlatformUser.objects.filter(pk__in=list(counts)).values("id", "first_name", "last_name")
    }
    users = [
        {
            "id": str(user_id),
            "firstName": names.get(user_id, {}).get("first_name", ""),
            "lastName": names.get(user_id, {}).get("last_name", ""),
            "hits": n,
        }
        for user_id, n in sorted(counts.items(), key=lambda item: (-item[1], str(item[0])))
    ]
    return BacktestResult(
        hits=hits,
        also_by_current=len(hits) - len(added),
        added=added,
        dropped=dropped,
        users=users,
        seconds=round(time.perf_counter() - started, 3),
    )


def hit_json(hit: Hit) -> dict:
    return {
        "userId": str(hit.user_id),
        "transactionIds": [str(t) for t in hit.transaction_ids],
        "key": hit.key,
        "details": camel_keys(hit.details),
    }


def result_json(result: BacktestResult) -> dict:
    """The contract's shape: {hits, alsoByCurrent, added, dropped, users, seconds}."""
    return {
        "hits": [hit_json(h) for h in result.hits],
        "alsoByCurrent": result.also_by_current,
        "added": [hit_json(h) for h in result.added],
        "dropped": [hit_json(h) for h in result.dropped],
        "users": result.users,
        "seconds": result.seconds,
    }
