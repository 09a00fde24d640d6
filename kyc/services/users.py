"""Staff writes on users: names and e-mail, archive and restore, purge. Each lands in the audit log."""

import logging

from django.db import transaction
from django.utils import timezone

from backoffice.errors import Conflict
from backoffice.services import audit_record
from kyc import hooks
from kyc.errors import RetentionHold
from kyc.models import PlatformUser
from kyc.services.ledger import full_clean, lock_user
from kyc.services.names import user_name_index

logger = logging.getLogger("kyc.services")


def _audit(*, actor, action: str, user_id, changes: dict | None = None) -> None:
    audit_record(actor=actor, action=action, object_type="kyc_user", object_id=user_id, changes=changes)


@transaction.atomic
def user_update(
    *,
    user: PlatformUser,
    actor,
    first_name: str | None = None,
    last_name: str | None = None,
    email: str | None = None,
) -> PlatformUser:
    """Change a user's first name, last name or e-mail (None: leave as it is); one audit entry with old and new.

    A changed name is indexed again and runs the ``user_name_changed`` hooks (PEP screening), in the same
    transaction.
    """
    locked = lock_user(user)
    wanted = {"first_name": first_name, "last_name": last_name, "email": email}
    changes = {}
    for field, value in wanted.items():
        if value is None:
            continue
        value = value.strip()
        if field == "email":
            value = value.lower()
        if getattr(locked, field) != value:
            changes[field] = {"from": getattr(locked, field), "to": value}
            setattr(locked, field, value)
    if "email" in changes and locked.email:
        if PlatformUser.objects.filter(email__iexact=locked.email).exclude(pk=locked.pk).exists():
            raise Conflict("An account with this email already exists")
    full_clean(locked, exclude=["password"])
    if changes:
        locked.save(update_fields=[*changes, "updated_at"])
        _audit(actor=actor, action="user.update", user_id=locked.pk, changes=changes)
    if "first_name" in changes or "last_name" in changes:
        user_name_index(user=locked)
        hooks.user_name_changed(
            user=locked,
            previous_first_name=changes.get("first_name", {}).get("from", locked.first_name),
            previous_last_name=changes.get("last_name", {}).get("from", locked.last_name),
        )
    return locked


@transaction.atomic
def user_archive(*, user: PlatformUser, actor) -> PlatformUser:
    """Soft-delete: the user disappears from the active list and can no longer log in. Idempotent."""
    locked = lock_user(user)
    if not locked.is_archived:
        locked.is_archived = True
        locked.archived_at = timezone.now()
        locked.save(update_fields=["is_archived", "archived_at", "updated_at"])
        _audit(actor=actor, action="user.archive", user_id=locked.pk, changes={"is_archived": True})
    return locked


@transaction.atomic
def user_unarchive(*, user: PlatformUser, actor) -> PlatformUser:
    """Restore an archived user. Idempotent."""
    locked = lock_user(user)
    if locked.is_archived:
        locked.is_archived = False
        locked.archived_at = None
        locked.save(update_fields=["is_archived", "archived_at", "updated_at"])
        _audit(actor=actor, action="user.unarchive", user_id=locked.pk, changes={"is_archived": False})
    return locked


def user_purge(*, user: PlatformUser, actor) -> dict[str, int]:
    """Delete a user and everything of theirs, for good; their stored files go after the commit.

    Refused with 409 RETENTION_HOLD while a ``purge_held`` hook holds the user
    (compliance: a SAR is about them or cites their records). Returns the
    counts deleted: {transactions, documents, verifications}.
    """
    with transaction.atomic():
        locked = lock_user(user)
        if hooks.purge_held.any(user=locked):
            raise RetentionHold()
        files = [(doc.file.storage, doc.file.name) for doc in locked.documents.all() if doc.file.name]
        counts = {
            "transactions": locked.transactions.count(),
            "documents": locked.documents.count(),
            "verifications": locked.verifications.count(),
        }
        user_id = locked.pk
        locked.delete()
        # No name, phone or e-mail here: the point of a purge is that they are gone.
        _audit(actor=actor, action="user.purge", user_id=user_id, changes={"deleted": counts})
        transaction.on_commit(lambda: _delete_files(files))
    return counts


def _delete_files(files) -> None:
    for storage, name in files:
        try:
            storage.delete(name)
        except Exception:  # a file that is already gone must not turn a done purge into an error
            logger.exception("could not delete %s after a purge", name)
