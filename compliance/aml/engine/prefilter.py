"""Which rules could hit a transaction at record time, so the others' queries are skipped.

Two stages, each from the rule types' own declarations (``engine/<type>.py``, built from ``engine.bounds``):
``could_hit`` asks the row alone (no query): a row that fails a rule's own row filter cannot be in any of
its hits. ``activity_skips`` then bounds the window rules that survive by the wallet's hourly activity
(``kyc.models.UserActivityHour``, the completed rows other than this one), one query for all of them: a
rule whose condition the upper bound cannot meet is skipped. Necessary conditions only: when in doubt the
rule runs. The equivalence test (record time = batch scan) and
``compliance/aml/tests/transactions/test_prefilter.py`` hold them to that.
"""

from compliance.aml.engine.bounds import Sums
from compliance.aml.engine.registry import ACTIVITY_PLANS, CHECKS


def could_hit(rule, tx) -> bool:
    """False only when ``tx`` cannot be part of any hit of ``rule`` (so its query can be skipped)."""
    check = CHECKS.get(rule.rule_type)
    return True if check is None else bool(check(rule, tx))


def _plan(rule, sums: Sums):
    """(earliest epoch read, check(row) -> could hit) for a rule the activity can bound, else None."""
    plan = ACTIVITY_PLANS.get(rule.rule_type)
    return None if plan is None else plan(rule, sums)


def activity_skips(rules, tx) -> set:
    """The rules among ``rules`` (all past ``could_hit``) that the wallet's activity shows cannot hit ``tx``."""
    sums = Sums(tx)
    plans = {}
    for rule in rules:
        try:
            plan = _plan(rule, sums)
        except (KeyError, TypeError, ValueError):  # a rule the evaluator will report on: let it run
            plan = None
        if plan is not None:
            plans[rule] = plan
    if not plans:
        return set()
    row = sums.fetch(min(start for start, _check in plans.values()))
    return {rule for rule, (_start, check) in plans.items() if not check(row)}
