"""Run one rule over a scope: its hits, read only; raising alerts from them is the services' (``services.scans``).

``evaluate`` dispatches on the rule's type to the evaluator its ``engine/<type>.py`` declares.
"""

from django.conf import settings
from django.db import connection

from compliance.aml.engine.base import Hit, Scope
from compliance.aml.engine.registry import EVALUATORS
from compliance.aml.models.rules import AMLRule


def evaluate(rule: AMLRule, scope: Scope) -> list[Hit]:
    """The hits of one rule in a scope (reads only)."""
    return EVALUATORS[rule.rule_type](rule, scope)


def batch_session() -> None:
    """Let a whole-ledger scan sort and hash in memory instead of spilling to disk (PostgreSQL only).

    JIT is off for these statements: they are sorts, hashes and window aggregates, and on the million-row
    bench ledger the velocity rules' plans (cost above ``jit_optimize_above_cost``) spent 0.4-1.5 s
    compiling to run no faster (AML-VEL-002, median of 3: 3.2 s with JIT, 2.9 s without).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('work_mem', %s, true), set_config('jit', 'off', true)",
                [getattr(settings, "AML_SCAN_WORK_MEM", "128MB")],
            )
