"""Screening a ledger row when it is recorded, before the money moves.

``kyc.services.ledger.record_on_locked`` writes the row (balance untouched)
and asks ``kyc.hooks.transaction_screen``; the app's ``ready()`` registers
``screen_transaction`` there. Every active rule runs scoped to the row's user
and to windows ending at it, inside the ledger's database transaction, so
the decision (ALLOW, REVIEW, BLOCK from the rules' ``actions``) is taken
before the balance changes, under the wallet's row lock.

* Each rule runs in its own savepoint: a broken rule is counted and logged
  (``aml.screening_failed``) and the others still decide.
  ``AML_SCREENING_FAILURE`` chooses what a failure means: ``open`` (default)
  records the row on the other rules' decision and flags it
  (``screening_failed``) for the batch scan; ``closed`` holds it for review.
* Alerts are written after the ledger commits and off the request's path
  (``AML_ALERTS_BACKGROUND``), so they never delay the answer; their keys
  are the batch scan's (``services.scans.new_alerts``), so ``run_aml_scan`` never
  raises them again.

The rules' queries are the engine's (``engine.runner.evaluate``, ``engine.prefilter``); this module is the
decision and the alerts it raises.
"""

import contextvars
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from django.conf import settings
from django.db import close_old_connections, connection
from django.db import transaction as db_transaction
from django.utils import timezone

from compliance.aml import hooks as aml_hooks
from compliance.aml.engine import runner
from compliance.aml.engine.base import Scope, as_uuid
from compliance.aml.engine.prefilter import activity_skips, could_hit
from compliance.aml.models.governance import RuleSnooze
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.alerts import alert_raise_many
from compliance.aml.services.scans import new_alerts
from kyc.choices import Decision
from kyc.screening import Screening, ScreeningHit

logger = logging.getLogger("compliance.aml.engine")

_paused = contextvars.ContextVar("aml_screening_paused", default=False)


@contextmanager
def screening_paused():
    """Bulk loaders (demo data, imports) skip per-row screening and run one batch scan after."""
    token = _paused.set(True)
    try:
        yield
    finally:
        _paused.reset(token)


class _Counter:
    """Screening failures seen by this process (fail-open rows waiting for the batch scan)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.total = 0

    def add(self) -> int:
        with self._lock:
            self.total += 1
            return self.total


screening_failures = _Counter()
_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _background() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aml-alerts")
        return _executor


def _raise_alerts(alerts) -> None:
    try:
        alert_raise_many(alerts=alerts)
    except Exception:
        # the batch scan raises the same keys later: nothing is lost, only late
        logger.exception("raising %d AML alert(s) after commit failed; run_aml_scan will raise them", len(alerts))


def _raise_in_background(alerts) -> None:
    try:
        _raise_alerts(alerts)
    finally:
        close_old_connections()


def alerts_after_commit(alerts) -> None:
    """Raise ``alerts`` once the ledger row is committed: in a worker thread, or inline when so configured."""
    if not alerts:
        return
    if getattr(settings, "AML_ALERTS_BACKGROUND", False):
        db_transaction.on_commit(lambda: _background().submit(_raise_in_background, alerts))
    else:
        db_transaction.on_commit(lambda: _raise_alerts(alerts))


def wait_for_background_alerts() -> None:
    """Tests and the demo: block until every queued alert is written."""
    if _executor is not None:
        _executor.submit(lambda: None).result()


class _RuleCache:
    """The active rules and the snoozes in force, kept between decisions.

    Reloaded when this process changes a rule or a snooze (``invalidate``, from the models' save and delete
    signals) and otherwise re-validated at most every ``AML_RULES_REFRESH_SECONDS`` against one query's
    fingerprint of both tables (active rules: count, last change, versions; snoozes: count, newest, ended):
    a rule or snooze changed by another process applies within that time. A snooze's expiry is compared
    with the clock at each decision, so it ends on time without a reload.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._fingerprint = None
        self._checked_at = 0.0
        self._rules: list = []
        self._snoozes: dict = {}

    def invalidate(self, **_) -> None:
        with self._lock:
            self._fingerprint, self._checked_at = None, 0.0

    def _fresh(self) -> tuple[list, dict]:
        now = time.monotonic()
        with self._lock:
            if self._fingerprint is not None and now - self._checked_at < settings.AML_RULES_REFRESH_SECONDS:
                return self._rules, self._snoozes
        rules_table, snoozes_table = AMLRule._meta.db_table, RuleSnooze._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"""SELECT COUNT(r.id), MAX(r.updated_at), SUM(r.version),
                           (SELECT COUNT(*) FROM {snoozes_table}), (SELECT MAX(id) FROM {snoozes_table}),
                           (SELECT MAX(created_at) FROM {snoozes_table}),
                           (SELECT COUNT(ended_at) FROM {snoozes_table})
                    FROM {rules_table} r WHERE r.is_active = %s""",
                [True],
            )
            fingerprint = tuple(cursor.fetchone())
        with self._lock:
            if fingerprint == self._fingerprint:
                self._checked_at = now
                return self._rules, self._snoozes
        rules = list(AMLRule.objects.filter(is_active=True).order_by("priority", "rule_id"))
        snoozes: dict = {}
        in_force = RuleSnooze.objects.filter(ended_at__isnull=True, expires_at__gt=timezone.now())
        for user_id, rule_id, expires_at in in_force.values_list("user_id", "rule_id", "expires_at"):
            snoozes.setdefault(user_id, []).append((rule_id, expires_at))
        with self._lock:
            self._fingerprint, self._rules, self._snoozes, self._checked_at = fingerprint, rules, snoozes, now
        return rules, snoozes

    def get(self) -> list:
        return self._fresh()[0]

    def for_user(self, user_id, at) -> tuple[list, set]:
        """The active rules, and the ids of those snoozed for ``user_id`` at ``at`` (not ended, not expired)."""
        rules, snoozes = self._fresh()
        return rules, {rule_id for rule_id, expires_at in snoozes.get(user_id, ()) if expires_at > at}


_rule_cache = _RuleCache()


def active_rules():
    return _rule_cache.get()


def _evaluate_all(rules, scope, tx_id, evaluate) -> tuple[dict, list]:
    """Hits (that include the row) per rule, in one savepoint; when one rule fails, each runs in its own
    savepoint so the others still decide. Returns ({rule: hits}, [(failed rule, its exception)])."""
    if not rules:
        return {}, []

    def hits_of(rule):
        return [h for h in evaluate(rule, scope) if tx_id in {as_uuid(t) for t in h.transaction_ids}]

    try:
        with db_transaction.atomic():
            return {rule: hits_of(rule) for rule in rules}, []
    except Exception:
        pass
    found, failed = {}, []
    for rule in rules:
        try:
            with db_transaction.atomic():
                found[rule] = hits_of(rule)
        except Exception as exc:
            failed.append((rule, exc))
    return found, failed


def screen_transaction(*, transaction, dry_run: bool = False, write_row=None, **_) -> Screening | None:
    """Every active rule on one (just written) ledger row: the hits that include it, and the alerts they raise."""
    if _paused.get():
        return None
    scope = Scope(
        since=transaction.created_at,
        until=transaction.created_at,
        user_id=transaction.user_id,
        anchor_id=as_uuid(transaction.pk),
    )
    # a rule whose own row filter the row fails cannot hit it: its query is skipped
    rules, snoozed = _rule_cache.for_user(transaction.user_id, timezone.now())
    candidates = [rule for rule in rules if could_hit(rule, transaction)]
    # a rule snoozed for this customer (a known, explained pattern) neither decides nor alerts, as in the batch
    if candidates and snoozed:
        candidates = [rule for rule in candidates if rule.pk not in snoozed]
    # window rules whose thresholds the wallet's hourly activity cannot reach: skipped too (one query)
    if candidates and settings.AML_ACTIVITY_PREFILTER:
        skip = activity_skips(candidates, transaction)
        candidates = [rule for rule in candidates if rule not in skip]
    if candidates and write_row is not None:
        write_row()  # the rules' queries read the ledger: the row must be in it
    # ``runner.evaluate`` looked up at call time: tests stand a broken evaluator in for it
    found, failed = _evaluate_all(candidates, scope, as_uuid(transaction.pk), runner.evaluate)
    screening = Screening(failed=bool(failed))
    for rule, exc in failed:
        total = screening_failures.add()
        logger.error(
            "aml.screening_failed rule=%s transaction=%s total=%d mode=%s",
            rule.rule_id,
            transaction.pk,
            total,
            settings.AML_SCREENING_FAILURE,
            exc_info=exc,
        )
    alerts = []
    for rule in candidates:
        hits = found.get(rule)
        if not hits:
            continue
        hit = ScreeningHit(
            rule_id=rule.rule_id, rule_version=rule.version, severity=rule.severity, action=rule.hit_action
        )
        screening.hits.append(hit)
        if rule.creates_alerts:
            alerts.extend(new_alerts(rule, hits))
    # screenings other than the rules (sanctions) join their hits; the strongest action of all decides
    screening.hits.extend(aml_hooks.decision_screeners.hits(transaction=transaction, dry_run=dry_run))
    if screening.failed and settings.AML_SCREENING_FAILURE == "closed":
        screening.at_least = Decision.REVIEW
    if not dry_run:
        alerts_after_commit(alerts)
    return screening
