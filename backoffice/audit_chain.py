"""The audit log as a hash chain, so that a changed, removed, inserted or reordered entry is found.

Every entry gets, in the transaction that writes it, the next ``sequence`` and two hashes (docs/audit-chain.md
gives the form byte for byte, for anyone who re-implements the check):

- ``digest`` = SHA-256 of the entry's canonical content (``canonical_content``): compact JSON, keys sorted,
  UTF-8, of its sequence, actor id and e-mail, action, object type and id, changes, IP address and time;
- ``hash`` = SHA-256 of the ASCII text ``previous hash`` + ``digest`` (the first entry's previous hash is 64
  zeros).

Writers lock the chain head (``AuditChainHead``, one row) by updating it, so two concurrent writers take turns
and never give two entries one sequence. The head is held until the writer's transaction ends, so what is done
while it is held is kept to the least. The canonical form is serialised before (``sequence`` is its last key, so
only the number and the closing brace are missing). On PostgreSQL the entry is inserted unlinked and a deferred
trigger links it inside the COMMIT (migration 0013): the head is locked for the commit alone, and the commit
does not wait for the disk while it holds it (``_wait_for_flush_after_commit`` waits afterwards, before anyone
is told).
A batch, and SQLite, link at the append. Services record their audit events last, after the row locks they need
(a writer that locked the head and then waited for a row held by another writer waiting for the head would
deadlock).

A purge may blank an entry's changes (``audit_redact``): it keeps its digest, says when it was redacted, and a
later ``audit.redact`` entry names it, so the chain still verifies and the redaction is itself on record.
"""

import datetime as dt
import functools
import hashlib
import ipaddress
import json
from collections.abc import Iterable
from typing import Any

from django.db import connections, router, transaction
from django.utils import timezone

from backoffice.models import AuditChainHead, AuditLog

GENESIS = "0" * 64
# PostgreSQL's deferred trigger that links each entry inside its transaction's COMMIT (migration 0013)
LINK_TRIGGER = "backoffice_audit_chain_at_commit"
REDACT_ACTION = "audit.redact"


def _json_value(value: Any) -> Any:
    """The value as JSON stores it: a float that is a whole number is an integer (PostgreSQL's jsonb gives
    ``1e+20`` back as ``100000000000000000000``), everything else as it is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    return value


def _time(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@functools.lru_cache(maxsize=4096)  # a walk meets the same few staff addresses millions of times
def normalise_ip(value: str | None) -> str | None:
    """The address as the database gives it back (IPv6 compressed), so the digest made before the write is the
    digest of what is read later."""
    if not value:
        return None
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return value


def canonical_prefix(
    *,
    actor_id,
    actor_email: str,
    action: str,
    object_type: str,
    object_id: str,
    changes: dict,
    ip_address: str | None,
    created_at: dt.datetime,
) -> bytes:
    """The canonical form up to its sequence: ``{...,"sequence":`` (``sequence`` sorts after every other key, so
    the form is this prefix, the number and ``}``). Serialised before a writer takes the head's lock."""
    content = {
        "actor_id": str(actor_id) if actor_id else None,
        "actor_email": actor_email or "",
        "action": action,
        "object_type": object_type,
        "object_id": object_id or "",
        "changes": _json_value(changes or {}),
        "ip_address": normalise_ip(ip_address),
        "created_at": _time(created_at),
    }
    rest = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return rest[:-1].encode() + b',"sequence":'


def canonical_content(*, sequence: int, **content) -> bytes:
    """The bytes an entry's digest is taken over (docs/audit-chain.md): ``json.dumps`` of the whole content,
    keys sorted, compact, UTF-8, which is ``canonical_prefix`` + the sequence + ``}``."""
    return canonical_prefix(**content) + b"%d}" % int(sequence)


def _prefix_of(entry: AuditLog) -> bytes:
    return canonical_prefix(
        actor_id=entry.actor_id,
        actor_email=entry.actor_email,
        action=entry.action,
        object_type=entry.object_type,
        object_id=entry.object_id,
        changes=entry.changes,
        ip_address=entry.ip_address,
        created_at=entry.created_at,
    )


def entry_digest(entry: AuditLog, *, sequence: int | None = None) -> str:
    return _digest(_prefix_of(entry), entry.sequence if sequence is None else sequence)


def _digest(prefix: bytes, sequence: int) -> str:
    return hashlib.sha256(prefix + b"%d}" % int(sequence)).hexdigest()


def link(previous_hash: str, digest: str) -> str:
    return hashlib.sha256((previous_hash + digest).encode("ascii")).hexdigest()


def _ensure_head(using: str) -> None:
    # The migration makes the row; a test database flushed between tests has lost it (and every entry).
    if AuditLog.objects.using(using).filter(sequence__isnull=False).exists():
        raise RuntimeError("the audit chain's head is missing while entries exist: run verify_audit")
    AuditChainHead.objects.using(using).get_or_create(pk=1)


def _prepare(entry: AuditLog) -> bytes:
    """Normalise the entry as the database will give it back, and serialise it: all before the lock."""
    entry.ip_address = normalise_ip(entry.ip_address)
    entry.changes = _json_value(entry.changes or {})
    return _prefix_of(entry)


def _append_one_postgresql(entry: AuditLog, prefix: bytes, using: str) -> None:
    """Insert the entry unlinked, with the bytes its link will hash; the trigger of migration 0013 links it inside
    the COMMIT (sequence, digest, hash and a fresh id), so until then the instance has none of them. One round
    trip, which also lets the commit return before its WAL is on disk (``_wait_for_flush_after_commit``)."""
    connection = connections[using]
    quote = connection.ops.quote_name
    entry.sequence, entry.digest, entry.hash, entry.pending_prefix = None, "", "", prefix
    fields = [f for f in AuditLog._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(quote(f.column) for f in fields)
    values = [f.get_db_prep_save(getattr(entry, f.attname), connection) for f in fields]
    sql = f"INSERT INTO {quote(AuditLog._meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(values))})"
    with connection.cursor() as cursor:
        cursor.execute(_ASYNC_COMMIT + sql, values)
    _wait_for_flush_after_commit(using)
    # the id is the row's only until the commit gives it its place: nobody may look the entry up by it
    entry.id, entry.pending_prefix = None, None
    entry._state.adding, entry._state.db = False, using


# The writer's COMMIT returns once its record is in the WAL, before the WAL is flushed, so the head's lock (released
# at the end of the COMMIT) is not held over a disk flush; ``_wait_for_flush_after_commit`` then waits for the
# flush before anyone is told the write happened. SET LOCAL: the transaction's own setting, undone with a
# rolled-back savepoint.
_ASYNC_COMMIT = "SET LOCAL synchronous_commit TO off; "
_FLUSH_MARK = "_audit_chain_waits_for_flush"


def _wait_for_flush_after_commit(using: str) -> None:
    """After the commit, and before any other ``on_commit`` work (a task queued, an event sent), wait until the
    transaction is on disk: a transaction of our own that takes an id commits synchronously, flushing the WAL up
    to its commit record, which comes after the writer's (docs/audit-chain.md, "Concurrency and cost")."""
    connection = connections[using]
    if any(getattr(func, _FLUSH_MARK, False) for _, func, _ in connection.run_on_commit):
        return

    def wait_for_flush() -> None:
        with connections[using].cursor() as cursor:
            cursor.execute("SELECT pg_current_xact_id()")

    setattr(wait_for_flush, _FLUSH_MARK, True)
    # first in line (Django runs them in order), with the savepoints open now, as ``on_commit`` records them
    connection.run_on_commit.insert(0, (set(connection.savepoint_ids), wait_for_flush, False))


def _reserve(count: int, using: str) -> tuple[int, str] | None:
    """Lock the head and move it ``count`` places on; the sequence and hash it stood at, or None without a head."""
    connection = connections[using]
    table = connection.ops.quote_name(AuditChainHead._meta.db_table)
    reserve = f"UPDATE {table} SET sequence = sequence + %s WHERE id = 1 RETURNING sequence, hash"
    postgresql = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute((_ASYNC_COMMIT if postgresql else "") + reserve, [count])
        row = cursor.fetchone()
    if row is None:
        return None
    if postgresql:
        _wait_for_flush_after_commit(using)
    return row[0] - count, row[1]


def _append_many(entries: list[AuditLog], prefixes: list[bytes], using: str) -> bool:
    reserved = _reserve(len(entries), using)
    if reserved is None:
        return False
    sequence, previous = reserved
    for entry, prefix in zip(entries, prefixes, strict=True):
        sequence += 1
        entry.sequence = sequence
        entry.digest = _digest(prefix, sequence)
        entry.hash = previous = link(previous, entry.digest)
    if len(entries) == 1:
        entries[0].save(using=using)
    else:
        AuditLog.objects.using(using).bulk_create(entries, batch_size=500)
    AuditChainHead.objects.using(using).filter(pk=1).update(hash=previous)
    return True


def chain_append(entries: Iterable[AuditLog]) -> list[AuditLog]:
    """Insert unsaved entries in the chain inside the caller's transaction (or one of their own when called
    outside one). A single entry on PostgreSQL is linked when the transaction commits (its instance keeps no id,
    sequence or hash); several, or any on SQLite, are linked here under the head's lock."""
    entries = list(entries)
    if not entries:
        return entries
    using = router.db_for_write(AuditLog)
    prefixes = [_prepare(entry) for entry in entries]
    one_statement = len(entries) == 1 and connections[using].vendor == "postgresql"
    # no savepoint: a failure here dooms the caller's transaction, which is what keeps the head and the entries
    # together (a caller that caught the error and committed would otherwise leave the head past its entries)
    with transaction.atomic(using=using, savepoint=False):
        if one_statement:
            _append_one_postgresql(entries[0], prefixes[0], using)
            return entries
        for _ in range(2):
            if _append_many(entries, prefixes, using):
                return entries
            _ensure_head(using)
    raise RuntimeError("the audit chain's head row could not be made")


def link_pending_now() -> None:
    """Link this transaction's entries now, and the ones it writes from here on at their insert, instead of at its
    COMMIT (PostgreSQL; SQLite links at the append anyway). For the rare writer that must name an entry by its
    sequence before committing: a redaction of entries written earlier in its own transaction."""
    connection = connections[router.db_for_write(AuditLog)]
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(f"SET CONSTRAINTS {LINK_TRIGGER} IMMEDIATE")


def audit_redact(*, entries: Iterable[AuditLog], keep: Iterable[str] = ()) -> list[int]:
    """Blank the personal data in these entries' changes, keeping their digests (the chain still verifies) and
    the keys named in ``keep``; returns the sequences redacted. The caller records an ``audit.redact`` entry
    naming them (``REDACT_ACTION``, changes ``{"sequences": [...]}``) in the same transaction, which is what
    makes a redaction legitimate to ``verify_audit``."""
    keep = set(keep)
    now = timezone.now()
    redacted = []
    for entry in entries:
        if entry.redacted_at is not None:
            continue
        if entry.sequence is None:
            # the redaction must name it, and it has no place before its commit: link_pending_now() first
            raise RuntimeError("an audit entry not linked yet cannot be redacted: call link_pending_now() first")
        kept = {key: value for key, value in (entry.changes or {}).items() if key in keep}
        # an UPDATE of the content, never a save(): the model refuses to change a stored entry on purpose
        AuditLog.objects.filter(pk=entry.pk).update(changes={**kept, "redacted": True}, redacted_at=now)
        redacted.append(entry.sequence)
    return redacted
