"""PostgreSQL links an entry inside its transaction's COMMIT (migration 0013's trigger), as the product runs:
these tests commit, so the trigger runs at its real time (the other tests' transactions never commit, see the
root conftest)."""

import threading

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from backoffice.audit import audit_batch, audit_record
from backoffice.audit_chain import GENESIS, entry_digest, link
from backoffice.models import AuditChainHead, AuditLog
from backoffice.services.audit_verify import audit_verify
from backoffice.tests.concurrency import postgres_only  # noqa: F401 -- a fixture

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def _record(n):
    return audit_record(actor=None, action="test.commit", object_type="thing", object_id=n, changes={"n": n})


def _setting(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {name}")
        return cursor.fetchone()[0]


def test_an_entry_is_linked_when_its_transaction_commits():
    with transaction.atomic():
        entry = _record(1)
        # inserted, not linked yet: no place, the head untouched (so not locked), the bytes its link will hash kept
        row = AuditLog.objects.values("sequence", "hash", "pending_prefix").get()
        assert (row["sequence"], row["hash"]) == (None, "")
        assert bytes(row["pending_prefix"]).endswith(b',"sequence":')
        assert not AuditChainHead.objects.filter(sequence__gt=0).exists()
        assert (entry.id, entry.sequence) == (None, None)  # the instance cannot know them before the commit
    stored = AuditLog.objects.get()
    assert (stored.sequence, stored.pending_prefix) == (1, None)
    assert stored.digest == entry_digest(stored)
    assert stored.hash == link(GENESIS, stored.digest)
    assert (AuditChainHead.objects.get().sequence, AuditChainHead.objects.get().hash) == (1, stored.hash)
    assert audit_verify().intact


def test_a_rolled_back_write_leaves_no_link_and_no_gap():
    with transaction.atomic():
        _record(1)
    with pytest.raises(RuntimeError), transaction.atomic():
        _record(2)
        raise RuntimeError("the write failed after its entry")
    with transaction.atomic():
        _record(3)
    assert list(AuditLog.objects.order_by("sequence").values_list("sequence", "object_id")) == [(1, "1"), (2, "3")]
    assert audit_verify().intact


def test_entries_take_their_place_and_their_ids_in_the_order_their_transactions_commit():
    # the first writer inserts first but commits last: the chain holds the order of the commits, and the ids
    # follow it (verify_audit reads an id smaller than the one before as entries moved)
    inserted, second_committed = threading.Event(), threading.Event()
    errors = []

    def first():
        try:
            with transaction.atomic():
                _record("first")
                inserted.set()
                assert second_committed.wait(30)
        except Exception as exc:  # handed to the test
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=first)
    thread.start()
    assert inserted.wait(30)
    try:
        with transaction.atomic():
            _record("second")
    finally:
        second_committed.set()
        thread.join()
    assert errors == []
    rows = list(AuditLog.objects.order_by("sequence").values_list("sequence", "object_id", "id"))
    assert [(seq, obj) for seq, obj, _ in rows] == [(1, "second"), (2, "first")]
    assert rows[0][2] < rows[1][2]
    assert audit_verify().intact


def test_the_commit_does_not_wait_for_the_disk_but_nobody_hears_of_the_write_before_it_is_there():
    default = _setting("synchronous_commit")
    heard = []
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():
            # registered before the entry: work that tells the world (a task, an event) still runs after the flush
            transaction.on_commit(lambda: heard.append(sum("pg_current_xact_id" in q["sql"] for q in queries)))
            _record(1)
            _record(2)
            # the transaction's own commit returns once its record is in the WAL (the head is released then)
            assert _setting("synchronous_commit") == "off"
    # one flush for the transaction, taken before the callback that was there first
    assert heard == [1]
    assert sum("pg_current_xact_id" in q["sql"] for q in queries) == 1
    assert _setting("synchronous_commit") == default  # SET LOCAL: the connection's next transaction as before
    assert AuditLog.objects.filter(sequence__isnull=False).count() == 2


def test_a_rolled_back_savepoint_takes_its_commit_setting_and_its_flush_with_it():
    default = _setting("synchronous_commit")
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():
            with pytest.raises(RuntimeError), transaction.atomic():
                _record(1)
                raise RuntimeError("undone")
            assert _setting("synchronous_commit") == default
    assert not any("pg_current_xact_id" in q["sql"] for q in queries)
    assert not AuditLog.objects.exists()


def test_a_batch_and_single_entries_in_one_transaction_make_one_chain():
    with transaction.atomic():
        _record("single before")
        with audit_batch():
            for n in range(3):
                _record(f"batch {n}")
        _record("single after")
    # the batch takes its places at once (under the head's lock), the single entries at the commit
    assert AuditLog.objects.filter(sequence__isnull=True).count() == 0
    assert AuditLog.objects.count() == 5
    result = audit_verify()
    assert (result.intact, result.entries) == (True, 5)


def test_a_redaction_names_entries_its_own_transaction_wrote():
    # a purge that redacts what was recorded about the record earlier in its own transaction: those entries have no
    # place until the commit, so the redaction links them first, names them, and the chain verifies after it
    from backoffice.services.audit_redact import audit_redact_about

    with transaction.atomic():
        _record("before")
    with transaction.atomic():
        audit_record(actor=None, action="test.about", object_type="thing", object_id="x", changes={"name": "Ada"})
        sequences = audit_redact_about(actor=None, object_type="thing", object_id="x")
    about = AuditLog.objects.get(action="test.about")
    assert sequences == [about.sequence] == [2]
    assert about.changes == {"redacted": True} and about.redacted_at is not None
    redaction = AuditLog.objects.get(action="audit.redact")
    assert (redaction.sequence, redaction.changes["sequences"]) == (3, [2])
    assert audit_verify().intact
