"""Every audit entry is a link of the chain: sequence 1, 2, 3..., its digest and hash, one head row."""

import pytest

from backoffice.audit import audit_batch, audit_record
from backoffice.audit_chain import GENESIS, entry_digest, link
from backoffice.models import AuditChainHead, AuditLog
from backoffice.services.audit_verify import audit_verify
from backoffice.tests.audit.helpers import write_entries
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


def test_entries_take_consecutive_sequences_and_each_hash_links_to_the_previous():
    write_entries(3, actor=StaffFactory())
    stored = list(AuditLog.objects.order_by("sequence"))
    assert [e.sequence for e in stored] == [1, 2, 3]
    previous = GENESIS
    for entry in stored:
        # recomputed from what the database gives back, not from the objects the writer held
        assert entry.digest == entry_digest(entry)
        assert entry.hash == link(previous, entry.digest)
        previous = entry.hash
    head = AuditChainHead.objects.get()
    assert (head.sequence, head.hash) == (3, stored[-1].hash)


def test_a_batch_is_chained_in_its_order_in_one_insert(django_assert_max_num_queries):
    write_entries(1)
    with django_assert_max_num_queries(6), audit_batch():  # savepoint, head lock, insert, head update, release
        for i in range(50):
            audit_record(actor=None, action="batch.write", object_type="thing", object_id=i, changes={"i": i})
    assert list(AuditLog.objects.order_by("sequence").values_list("sequence", flat=True)) == list(range(1, 52))
    assert audit_verify().intact


def test_values_the_database_normalises_still_verify():
    # a whole float (jsonb gives 1e20 back as an integer), nested lists, an IPv6 address written long, unicode
    audit_record(
        actor=None,
        action="test.values",
        object_type="thing",
        changes={"big": 1e20, "one": 1.0, "nested": [{"b": 2, "a": [1.5, "x"]}], "name": "Nokuthula Dlamini-Ñúñez"},
        ip_address="2001:0db8:0000:0000:0000:0000:0000:0001",
    )
    result = audit_verify()
    assert result.intact, result.first_broken
    assert AuditLog.objects.get().ip_address == "2001:db8::1"


def test_a_rolled_back_write_leaves_no_gap():
    from django.db import transaction

    write_entries(1)
    with pytest.raises(RuntimeError), transaction.atomic():
        audit_record(actor=None, action="test.undone", object_type="thing")
        raise RuntimeError("the write failed")
    write_entries(1)
    assert list(AuditLog.objects.values_list("sequence", flat=True).order_by("sequence")) == [1, 2]
    assert audit_verify().intact


def test_the_canonical_form_is_the_documented_json_dumps_of_the_whole_content():
    # the writer serialises everything but the sequence before it locks the head, then appends the number and
    # the closing brace: that must be byte for byte what docs/audit-chain.md says a third party computes
    import datetime as dt
    import json
    import uuid

    from backoffice.audit_chain import canonical_content

    content = {
        "actor_id": uuid.UUID("3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b"),
        "actor_email": "zoë@example.com",
        "action": "user.update",
        "object_type": "kyc_user",
        "object_id": "42",
        "changes": {"zeta": 1.0, "alpha": {"to": "Ñúñez", "from": None}, "sequence": [1, 2.5]},
        "ip_address": "2001:0db8::0001",
        "created_at": dt.datetime(2026, 3, 1, 12, 0, 0, tzinfo=dt.UTC),
    }
    for sequence in (1, 9, 10, 1234567890123):
        documented = {
            **content,
            "sequence": sequence,
            "actor_id": str(content["actor_id"]),
            "changes": {"zeta": 1, "alpha": {"to": "Ñúñez", "from": None}, "sequence": [1, 2.5]},
            "ip_address": "2001:db8::1",
            "created_at": "2026-03-01T12:00:00.000000Z",
        }
        expected = json.dumps(documented, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        assert canonical_content(sequence=sequence, **content) == expected


def test_an_audited_write_on_postgresql_costs_one_statement(django_assert_num_queries):
    # the entry is inserted unlinked in one round trip (its transaction's commit setting in the same one); the
    # commit links it (test_links_at_commit.py; here the test's transaction makes the trigger run at the insert)
    from django.db import connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("the one-statement append is PostgreSQL's")
    write_entries(1)
    with transaction.atomic(), django_assert_num_queries(1):
        audit_record(actor=None, action="test.one", object_type="thing", changes={"n": 1})
    assert audit_verify().intact


def test_an_append_refuses_a_chain_whose_head_row_is_gone():
    # the head row lost while entries stand is damage, not a fresh database: the write fails rather than start a
    # second chain at 1 (on PostgreSQL the commit's trigger says so, on SQLite the append)
    from django.db import DatabaseError, transaction

    write_entries(2)
    AuditChainHead.objects.all().delete()
    with pytest.raises((DatabaseError, RuntimeError), match="head is missing while entries exist"):
        with transaction.atomic():
            audit_record(actor=None, action="test.after", object_type="thing", changes={})
