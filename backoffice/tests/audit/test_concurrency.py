"""Concurrent writers never fork the chain (PostgreSQL: real row locks, one connection per writer)."""

import pytest
from django.db import transaction

from backoffice.audit import audit_batch, audit_record
from backoffice.models import AuditLog
from backoffice.services.audit_verify import audit_verify
from backoffice.tests.concurrency import postgres_only, run_in_threads  # noqa: F401 -- postgres_only is a fixture

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_eight_concurrent_writers_make_one_chain(postgres_only):  # noqa: F811
    def write(index):
        for i in range(15):
            with transaction.atomic():
                audit_record(
                    actor=None, action="test.concurrent", object_type="writer", object_id=index, changes={"i": i}
                )
        with transaction.atomic(), audit_batch():
            for i in range(5):
                audit_record(actor=None, action="test.batch", object_type="writer", object_id=index, changes={"i": i})
        return "ok"

    assert run_in_threads(8, write) == ["ok"] * 8
    sequences = list(AuditLog.objects.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, 8 * 20 + 1))
    result = audit_verify()
    assert result.intact, result.first_broken
    assert result.entries == 160
