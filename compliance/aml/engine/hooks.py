"""Screening a ledger row when it is recorded.

``kyc.services.transaction_record`` runs the ``kyc.hooks.transaction_recorded``
hook; the app's ``ready()`` registers ``screen_after_commit`` there. The scan runs after the ledger's
transaction commits (``transaction.on_commit``), not inside it, because:

* an engine failure (a bad rule, a database error in a rule's query) must
  never roll back or lose the ledger row: it is logged and swallowed;
* the ledger transaction holds the wallet's row lock; 43 rule queries inside
  it would make every concurrent payment on that wallet wait for them.

The cost is a small gap: a process that dies between the commit and the scan
leaves that row unscreened until the next ``run_aml_scan`` batch, which finds
the same hits (alerts are deduplicated), so nothing is lost for long.
"""

import contextvars
import logging
from contextlib import contextmanager

from django.db import transaction as db_transaction

from compliance.aml.engine.runner import scan_transaction

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


def screen_now(transaction_id) -> None:

    try:
        scan_transaction(transaction_id)
    except Exception:
        logger.exception("AML screening of transaction %s failed; run_aml_scan will retry it", transaction_id)


def screen_after_commit(*, transaction, **_) -> None:
    if _paused.get() or transaction.status != "COMPLETED":
        return
    tx_id = transaction.pk
    db_transaction.on_commit(lambda: screen_now(tx_id))
