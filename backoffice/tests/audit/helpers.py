"""Writing a chain to tamper with, as a DBA or an attacker would (plain UPDATE/DELETE/INSERT, no model checks)."""

from backoffice.audit import audit_record
from backoffice.audit_chain import GENESIS, entry_digest, link
from backoffice.models import AuditChainHead, AuditLog


def write_entries(n: int, *, actor=None) -> list[AuditLog]:
    return [
        audit_record(actor=actor, action="test.write", object_type="thing", object_id=i, changes={"n": i, "x": 0.5})
        for i in range(1, n + 1)
    ]


def rehash_from(sequence: int) -> None:
    """Recompute every digest and hash from ``sequence`` on, and the head: a rewrite that covers its tracks."""
    before = AuditLog.objects.filter(sequence=sequence - 1).values_list("hash", flat=True).first() or GENESIS
    previous = before
    last = None
    for entry in AuditLog.objects.filter(sequence__gte=sequence).order_by("sequence"):
        digest = entry_digest(entry)
        previous = link(previous, digest)
        AuditLog.objects.filter(pk=entry.pk).update(digest=digest, hash=previous)
        last = entry.sequence
    if last is not None:
        AuditChainHead.objects.filter(pk=1).update(sequence=last, hash=previous)
