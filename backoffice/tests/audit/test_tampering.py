"""Each kind of tampering is found and named: changed content or actor, a deleted, inserted or reordered entry,
a blanked entry no redaction names, a tail cut off; a rewritten tail only with a checkpoint (test_checkpoint)."""

import pytest
from django.utils import timezone

from backoffice.audit_chain import entry_digest, link
from backoffice.models import AuditChainHead, AuditLog
from backoffice.services.audit_verify import Reason, audit_verify
from backoffice.tests.audit.helpers import rehash_from, write_entries

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain():
    write_entries(6)
    assert audit_verify().intact


def broken():
    result = audit_verify()
    assert not result.intact
    return result.first_broken.sequence, result.first_broken.reason


def test_an_intact_chain_verifies(chain):
    result = audit_verify()
    assert (result.intact, result.entries, result.head_sequence) == (True, 6, 6)
    assert result.as_json()["firstBroken"] is None


def test_changed_content_is_found(chain):
    AuditLog.objects.filter(sequence=3).update(changes={"n": 999, "x": 0.5})
    assert broken() == (3, Reason.CHANGED)


def test_a_changed_actor_is_found(chain):
    AuditLog.objects.filter(sequence=4).update(actor_email="someone.else@example.com")
    assert broken() == (4, Reason.CHANGED)


def test_a_changed_time_is_found(chain):
    AuditLog.objects.filter(sequence=2).update(created_at=timezone.now() - timezone.timedelta(days=3))
    assert broken() == (2, Reason.CHANGED)


def test_a_deleted_entry_is_found_as_a_gap(chain):
    AuditLog.objects.filter(sequence=3).delete()
    assert broken() == (3, Reason.REMOVED)


def test_a_deleted_entry_is_found_when_the_later_ones_were_renumbered(chain):
    AuditLog.objects.filter(sequence=3).delete()
    for seq in (4, 5, 6):
        AuditLog.objects.filter(sequence=seq).update(sequence=seq - 1)
    assert broken() == (3, Reason.REMOVED)


def test_an_entry_cut_off_the_end_is_found(chain):
    AuditLog.objects.filter(sequence=6).delete()
    assert broken() == (6, Reason.REMOVED)


def test_an_inserted_entry_is_found(chain):
    # room made at 3 by moving the later entries up (from the top down: the sequence is unique), then a forged one
    for seq in (6, 5, 4, 3):
        AuditLog.objects.filter(sequence=seq).update(sequence=seq + 1)
    forged = AuditLog(action="test.forged", object_type="thing", object_id="x", sequence=3, changes={})
    previous = AuditLog.objects.get(sequence=2).hash
    forged.digest = entry_digest(forged)
    forged.hash = link(previous, forged.digest)
    AuditLog.objects.bulk_create([forged])
    assert broken() == (3, Reason.INSERTED)


def test_an_entry_added_past_the_head_is_found(chain):
    last = AuditLog.objects.get(sequence=6)
    forged = AuditLog(action="test.forged", object_type="thing", object_id="x", sequence=7, changes={})
    forged.digest = entry_digest(forged)
    forged.hash = link(last.hash, forged.digest)
    AuditLog.objects.bulk_create([forged])
    assert broken() == (7, Reason.INSERTED)


def test_an_entry_written_around_the_chain_is_found(chain):
    # a committed entry without a sequence: on PostgreSQL only a writer that turned the commit's trigger off (as a
    # replica's apply does) can leave one, and it is named even though every linked entry verifies
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
    AuditLog.objects.bulk_create([AuditLog(action="test.around", object_type="thing", object_id="x", changes={})])
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = origin")
    result = audit_verify()
    assert (result.intact, result.first_broken.sequence, result.first_broken.reason) == (False, 7, Reason.INSERTED)
    assert "test.around" in result.first_broken.detail


def test_reordered_entries_are_found(chain):
    first, second = AuditLog.objects.get(sequence=3), AuditLog.objects.get(sequence=4)
    AuditLog.objects.filter(pk=first.pk).update(sequence=1000)
    AuditLog.objects.filter(pk=second.pk).update(sequence=3)
    AuditLog.objects.filter(pk=first.pk).update(sequence=4)
    seq, reason = broken()
    assert seq == 3 and reason in (Reason.CHANGED, Reason.REORDERED, Reason.REMOVED)
    # even with their digests and hashes recomputed to fit, the order they were written in gives them away
    rehash_from(3)
    assert broken() == (4, Reason.REORDERED)


def test_a_rewritten_hash_breaks_the_link(chain):
    AuditLog.objects.filter(sequence=4).update(hash="f" * 64)
    assert broken() == (4, Reason.LINK_BROKEN)


def test_a_blanked_entry_without_a_recorded_redaction_is_found(chain):
    AuditLog.objects.filter(sequence=2).update(changes={"redacted": True}, redacted_at=timezone.now())
    assert broken() == (2, Reason.REDACTION_UNRECORDED)


def test_a_range_is_verified_from_the_entry_before_it(chain):
    AuditLog.objects.filter(sequence=2).update(changes={"n": 0})
    assert audit_verify(start=3).intact  # the range starts after the damage
    assert audit_verify(start=1, end=1).intact
    assert audit_verify(start=2, end=4).first_broken.sequence == 2


def test_the_head_row_must_name_the_last_entry(chain):
    AuditChainHead.objects.filter(pk=1).update(hash="0" * 64)
    assert broken() == (6, Reason.LINK_BROKEN)
