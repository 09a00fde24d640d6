"""Walking the audit chain (``verify_audit``, ``GET /admin/audit-logs/verify``) and its signed checkpoints.

The walk streams the entries in sequence order (a server-side cursor on PostgreSQL), keeping only the previous
entry's hash and id, so its memory does not grow with the log. It stops at the first broken entry and names it
with one of ``Reason``; docs/audit-chain.md says what each means.

A checkpoint is the chain's head (sequence, hash, time) signed with ``AUDIT_SIGNING_KEY`` (Ed25519) and kept
where the database cannot reach. Someone able to rewrite the whole log can recompute every hash, but cannot make
the chain hold a head that was signed before the rewrite: ``verify_audit --checkpoint`` catches that.
"""

import base64
import datetime as dt
import json
import logging
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from backoffice.audit_chain import GENESIS, REDACT_ACTION, entry_digest, link
from backoffice.errors import DomainError
from backoffice.models import AuditChainHead, AuditLog
from backoffice.ops.metrics import AUDIT_CHAIN_BREAKS

logger = logging.getLogger("backoffice.audit")

_FIELDS = (
    "id",
    "sequence",
    "actor_id",
    "actor_email",
    "action",
    "object_type",
    "object_id",
    "changes",
    "ip_address",
    "created_at",
    "digest",
    "hash",
    "redacted_at",
)


class Reason(StrEnum):
    CHANGED = "CHANGED"  # the entry's content is not what its digest was taken over
    REMOVED = "REMOVED"  # a sequence number is missing: an entry was deleted
    INSERTED = "INSERTED"  # an entry that was not written in the chain's order stands in it
    REORDERED = "REORDERED"  # entries stand in another order than they were written in
    LINK_BROKEN = "LINK_BROKEN"  # the entry's hash does not follow from the previous one's
    REDACTION_UNRECORDED = "REDACTION_UNRECORDED"  # blanked, but no audit.redact entry names it
    CHECKPOINT_MISMATCH = "CHECKPOINT_MISMATCH"  # the chain no longer holds a signed head


class CheckpointInvalid(DomainError):
    status_code = 400
    code = "VALIDATION_ERROR"
    default_message = "The checkpoint is not valid"


class SigningKeyMissing(DomainError):
    status_code = 409
    code = "AUDIT_SIGNING_KEY_MISSING"
    default_message = "AUDIT_SIGNING_KEY is not set: checkpoints cannot be signed"


@dataclass(frozen=True)
class Broken:
    sequence: int
    reason: str
    detail: str


@dataclass(frozen=True)
class Checkpoint:
    sequence: int
    hash: str
    created_at: str
    public_key: str = ""
    signature: str = ""

    def message(self) -> bytes:
        """The bytes signed: compact JSON with sorted keys of sequence, hash and time."""
        body = {"sequence": self.sequence, "hash": self.hash, "createdAt": self.created_at}
        return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()

    def as_json(self) -> dict:
        return {
            "sequence": self.sequence,
            "hash": self.hash,
            "createdAt": self.created_at,
            "publicKey": self.public_key,
            "signature": self.signature,
        }


@dataclass(frozen=True)
class Verification:
    intact: bool
    entries: int
    head_sequence: int
    head_hash: str
    first_broken: Broken | None

    def as_json(self) -> dict:
        return {
            "intact": self.intact,
            "entries": self.entries,
            "head": {"sequence": self.head_sequence, "hash": self.head_hash},
            "firstBroken": asdict(self.first_broken) if self.first_broken else None,
        }


class _Row:
    __slots__ = _FIELDS

    def __init__(self, values):
        for name, value in zip(_FIELDS, values, strict=True):
            setattr(self, name, value)


def _misplaced(row: _Row) -> Reason | None:
    """Why a row's content matches its digest only under another sequence number, if it does."""
    if entry_digest(row, sequence=row.sequence - 1) == row.digest:
        return Reason.INSERTED  # everything from here on was moved one place up to make room
    if entry_digest(row, sequence=row.sequence + 1) == row.digest:
        return Reason.REMOVED  # moved one place down to close a gap
    return None


def _check(row: _Row, previous_hash: str, previous_id: int) -> Broken | None:
    seq = row.sequence
    if not row.redacted_at and entry_digest(row) != row.digest:
        moved = _misplaced(row)
        if moved is Reason.INSERTED:
            return Broken(seq - 1, moved, f"an entry was inserted before entry {seq} (the later ones were renumbered)")
        if moved is Reason.REMOVED:
            return Broken(seq, moved, f"an entry was removed at {seq} (the later ones were renumbered)")
        return Broken(seq, Reason.CHANGED, f"entry {seq}'s content is not what was recorded")
    if row.id <= previous_id:
        return Broken(seq, Reason.REORDERED, f"entry {seq} was written before the entry it follows")
    if link(previous_hash, row.digest) != row.hash:
        return Broken(seq, Reason.LINK_BROKEN, f"entry {seq}'s hash does not follow from entry {seq - 1}'s")
    return None


def audit_verify(
    *, start: int | None = None, end: int | None = None, checkpoint: Checkpoint | None = None
) -> Verification:
    """Walk the chain from ``start`` (default 1) to ``end`` (default its head); the first broken entry, if any.

    A range starts from the stored hash of the entry before it (that entry itself is verified by a walk that
    includes it). ``checkpoint``: the chain must also hold that signed head."""
    first = max(1, start or 1)
    previous_hash, previous_id = GENESIS, 0
    if first > 1:
        before = AuditLog.objects.filter(sequence=first - 1).values_list("hash", "id").first()
        if before is None:
            return _result(0, None, None, Broken(first - 1, Reason.REMOVED, f"entry {first - 1} is missing"))
        previous_hash, previous_id = before
    rows = AuditLog.objects.filter(sequence__gte=first).order_by("sequence")
    if end is not None:
        rows = rows.filter(sequence__lte=end)
    expected, count, last = first, 0, None
    unrecorded: set[int] = set()  # redacted entries no audit.redact entry has named yet
    broken: Broken | None = None
    for values in rows.values_list(*_FIELDS).iterator(chunk_size=5000):
        row = _Row(values)
        if row.sequence != expected:
            broken = Broken(expected, Reason.REMOVED, f"entries {expected} to {row.sequence - 1} are missing")
            break
        broken = _check(row, previous_hash, previous_id)
        if broken:
            break
        if checkpoint and row.sequence == checkpoint.sequence and row.hash != checkpoint.hash:
            broken = Broken(row.sequence, Reason.CHECKPOINT_MISMATCH, "the chain no longer holds the signed head")
            break
        if row.redacted_at:
            unrecorded.add(row.sequence)
        if row.action == REDACT_ACTION:
            unrecorded.difference_update(int(s) for s in (row.changes or {}).get("sequences", []))
        previous_hash, previous_id = row.hash, row.id
        last = row
        expected += 1
        count += 1
    if broken is None and unrecorded:
        seq = min(unrecorded)
        broken = Broken(seq, Reason.REDACTION_UNRECORDED, f"entry {seq} was blanked without a recorded redaction")
    if broken is None and end is None:
        broken = _check_head(last, expected) or _check_unlinked(expected)
    if broken is None and checkpoint and (last is None or last.sequence < checkpoint.sequence) and end is None:
        broken = Broken(
            checkpoint.sequence, Reason.CHECKPOINT_MISMATCH, "the chain ends before the signed head's entry"
        )
    return _result(count, last, previous_hash, broken)


def _check_head(last: _Row | None, expected: int) -> Broken | None:
    """The head row must name the last entry: entries cut off the end, or added past it, are found here."""
    head = AuditChainHead.objects.filter(pk=1).values_list("sequence", "hash").first()
    if head is None:
        return None if last is None else Broken(last.sequence, Reason.INSERTED, "the chain's head row is missing")
    sequence, hash_ = head
    if sequence > expected - 1:
        return Broken(expected, Reason.REMOVED, f"entries {expected} to {sequence} were cut off the end")
    if last is not None and sequence < last.sequence:
        return Broken(sequence + 1, Reason.INSERTED, f"entries after {sequence} were added outside the chain")
    if last is not None and hash_ != last.hash:
        return Broken(last.sequence, Reason.LINK_BROKEN, "the last entry's hash is not the chain's head")
    return None


def _check_unlinked(expected: int) -> Broken | None:
    """A committed entry without a sequence was written around the chain: on PostgreSQL the commit links every
    entry (migration 0013's trigger), so only a writer that turned the trigger off leaves one."""
    outside = AuditLog.objects.filter(sequence__isnull=True).order_by("id").values_list("id", "action").first()
    if outside is None:
        return None
    return Broken(expected, Reason.INSERTED, f"an entry ({outside[1]}, id {outside[0]}) stands outside the chain")


def _result(count, last, previous_hash, broken) -> Verification:
    head_sequence = last.sequence if last is not None else 0
    return Verification(
        intact=broken is None,
        entries=count,
        head_sequence=head_sequence,
        head_hash=last.hash if last is not None else (previous_hash or GENESIS),
        first_broken=broken,
    )


# -- checkpoints ----------------------------------------------------------------------------------------------


def signing_key() -> Ed25519PrivateKey:
    if not settings.AUDIT_SIGNING_KEY:
        raise SigningKeyMissing()
    return Ed25519PrivateKey.from_private_bytes(base64.b64decode(settings.AUDIT_SIGNING_KEY))


def _public_b64(key: Ed25519PublicKey) -> str:
    return base64.b64encode(key.public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()


def audit_checkpoint_make() -> Checkpoint:
    """The chain's head now, signed (the head row is read, not locked: a checkpoint is of a moment)."""
    key = signing_key()
    head = AuditChainHead.objects.filter(pk=1).values_list("sequence", "hash").first() or (0, GENESIS)
    unsigned = Checkpoint(
        sequence=head[0], hash=head[1], created_at=timezone.now().astimezone(dt.UTC).isoformat(timespec="seconds")
    )
    signature = base64.b64encode(key.sign(unsigned.message())).decode()
    return Checkpoint(**{**asdict(unsigned), "public_key": _public_b64(key.public_key()), "signature": signature})


def checkpoint_read(text: str, *, public_key: str | None = None) -> Checkpoint:
    """A checkpoint from its JSON, its signature checked with a key we trust: ``public_key`` (base64) or the
    public half of ``AUDIT_SIGNING_KEY`` (the key written in the file is never trusted on its own)."""
    try:
        data = json.loads(text)
        checkpoint = Checkpoint(
            sequence=int(data["sequence"]),
            hash=str(data["hash"]),
            created_at=str(data["createdAt"]),
            public_key=str(data.get("publicKey", "")),
            signature=str(data["signature"]),
        )
        signature = base64.b64decode(checkpoint.signature, validate=True)
    except (ValueError, KeyError, TypeError) as exc:
        raise CheckpointInvalid(f"The checkpoint is not a checkpoint file ({exc.__class__.__name__})") from None
    if public_key:
        try:
            trusted = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        except ValueError:
            raise CheckpointInvalid("The public key is not a base64 Ed25519 key") from None
    else:
        trusted = signing_key().public_key()
    try:
        trusted.verify(signature, checkpoint.message())
    except InvalidSignature:
        raise CheckpointInvalid("The checkpoint's signature does not verify with the trusted key") from None
    return checkpoint


def audit_checkpoint_write(*, folder: str | Path) -> Path:
    """Sign the head and write it as ``audit-checkpoint-<sequence>-<time>.json`` in ``folder`` (beat, daily)."""
    checkpoint = audit_checkpoint_make()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = checkpoint.created_at.replace(":", "").replace("+0000", "Z")
    path = folder / f"audit-checkpoint-{checkpoint.sequence:012d}-{stamp}.json"
    path.write_text(json.dumps(checkpoint.as_json(), indent=2) + "\n")
    return path


# -- the watch --------------------------------------------------------------------------------------------------

_WATCH_KEY = "audit-chain:verified"  # (sequence, hash) of the last entry the watch verified
BROKEN_KEY = "audit-chain:broken"  # the first broken entry the watch found, until a whole walk is intact


def audit_watch() -> Verification:
    """Verify what was written since the last watch (beat, every ``AUDIT_VERIFY_EVERY_SECONDS``); on a break, a
    CRITICAL log line, the ``vikela_audit_chain_breaks_total`` metric and a dashboard card, at once."""
    verified = cache.get(_WATCH_KEY)
    start = 1
    if verified:
        sequence, hash_ = verified
        stored = AuditLog.objects.filter(sequence=sequence).values_list("hash", flat=True).first()
        # from the last entry verified, itself included (its content is checked again, cheaply); if even its hash
        # changed, the whole chain again
        start = sequence if stored == hash_ else 1
    result = audit_verify(start=start)
    audit_record_outcome(result)
    if not result.intact:
        AUDIT_CHAIN_BREAKS.inc()
    return result


def audit_record_outcome(result: Verification) -> None:
    """Remember a walk's outcome for the dashboard and the next watch (a whole intact walk clears a break)."""
    if result.intact:
        if result.head_sequence:
            cache.set(_WATCH_KEY, (result.head_sequence, result.head_hash), None)
        if result.entries == result.head_sequence:  # the walk started at 1
            cache.delete(BROKEN_KEY)
        return
    cache.delete(_WATCH_KEY)
    broken = result.first_broken
    cache.set(BROKEN_KEY, asdict(broken), None)
    logger.critical(
        "audit chain broken at entry %s: %s (%s)",
        broken.sequence,
        broken.reason,
        broken.detail,
        extra={"event": "audit_chain_broken", "sequence": broken.sequence, "reason": broken.reason},
    )


def audit_chain_alarm() -> dict | None:
    """The break the watch found and no whole walk has cleared since, or None."""
    return cache.get(BROKEN_KEY)
