"""Staff writes on users: names and e-mail, archive and restore, purge. Each lands in the audit log."""

import logging

from django.db import transaction
from django.utils import timezone

from backoffice.errors import Conflict
from backoffice.services import Actor, model_update
from backoffice.services.audit_redact import audit_redact_about
from kyc import events, hooks
from kyc.errors import RetentionHold
from kyc.models import PlatformUser
from kyc.services.ledger import lock_user
from kyc.services.names import user_name_index

logger = logging.getLogger("kyc.services")
EDITABLE = ("first_name", "last_name", "email")


@transaction.atomic
def user_update(
    *,
    user: PlatformUser,
    actor: Actor,
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
    data = {field: value.strip() for field, value in wanted.items() if value is not None}
    if "email" in data:
        data["email"] = data["email"].lower()
        if data["email"] and data["email"] != locked.email:
            if PlatformUser.objects.filter(email__iexact=data["email"]).exclude(pk=locked.pk).exists():
                raise Conflict("An account with this email already exists")
    changes = model_update(locked, fields=EDITABLE, data=data, exclude=["password"])
    if changes:
        events.user_updated(actor=actor, user=locked, diff=changes)
    if "first_name" in changes or "last_name" in changes:
        user_name_index(user=locked)
        hooks.user_name_changed(
            user=locked,
            previous_first_name=changes.get("first_name", {}).get("from", locked.first_name),
            previous_last_name=changes.get("last_name", {}).get("from", locked.last_name),
        )
    return locked


@transaction.atomic
def user_archive(*, user: PlatformUser, actor: Actor) -> PlatformUser:
    """Soft-delete: the user disappears from the active list and can no longer log in. Idempotent."""
    locked = lock_user(user)
    if not locked.is_archived:
        locked.is_archived = True
        locked.archived_at = timezone.now()
        locked.save(update_fields=["is_archived", "archived_at", "updated_at"])
        events.user_archived(actor=actor, user=locked)
    return locked


@transaction.atomic
def user_unarchive(*, user: PlatformUser, actor: Actor) -> PlatformUser:
    """Restore an archived user. Idempotent."""
    locked = lock_user(user)
    if locked.is_archived:
        locked.is_archived = False
        locked.archived_at = None
        locked.save(update_fields=["is_archived", "archived_at", "updated_at"])
        events.user_unarchived(actor=actor, user=locked)
    return locked


def user_purge(*, user: PlatformUser, actor: Actor) -> dict[str, int]:
    """Delete a user and everything of theirs, for good; their stored files go after the commit.

    Refused with 409 RETENTION_HOLD while a ``purge_held`` hook holds the user
    (compliance: a SAR is about them or cites their records). Returns the
    counts deleted: {transactions, documents, verifications}.
    """
    with transaction.atomic():
        locked = lock_user(user, deleting=True)
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
        # The audit log's entries about the user lose their names, phone and e-mail too (they keep their digests,
        # so the chain still verifies; docs/audit-chain.md); what was done, by whom and when stays.
        audit_redact_about(actor=actor, object_type=events.KYC_USER, object_id=user_id)
        # No name, phone or e-mail here: the point of a purge is that they are gone.
        events.user_purged(actor=actor, user_id=user_id, counts=counts)
        transaction.on_commit(lambda: _delete_files(files))
    return counts


def _delete_files(files) -> None:
    for storage, name in files:
        try:
            storage.delete(name)
        except Exception:  # a file that is already gone must not turn a done purge into an error
            logger.exception("could not delete %s after a purge", name)
