"""The audited actions on platform users, one typed function each: staff edits, the identity check's outcome,
risk changes and admin credits.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
Every entry is about the user (``object_type`` "kyc_user", the user's id; a purged user's id stays).
"""

from enum import StrEnum

from django.conf import settings

from backoffice.models import AuditLog
from backoffice.services import Actor, Diff, Move, audit_record
from kyc.choices import TransactionStatus
from kyc.models import CreditRequest, PlatformUser, Transaction, VerificationRecord


class Action(StrEnum):
    USER_UPDATE = "user.update"
    USER_ARCHIVE = "user.archive"
    USER_UNARCHIVE = "user.unarchive"
    USER_PURGE = "user.purge"
    USER_VERIFICATION = "user.verification"
    USER_RISK = "user.risk"
    USER_FREEZE = "user.freeze"
    USER_UNFREEZE = "user.unfreeze"
    CREDIT = "user.credit"
    CREDIT_REQUEST = "user.credit_request"
    CREDIT_APPROVE = "user.credit_approve"
    CREDIT_REJECT = "user.credit_reject"
    TRANSACTION_INTAKE = "transaction.intake"
    TRANSACTION_RELEASE = "transaction.release"
    TRANSACTION_REJECT = "transaction.reject"


KYC_USER = "kyc_user"


def _record(*, actor: Actor, action: Action, user_id, changes: dict) -> AuditLog:
    return audit_record(actor=actor, action=action, object_type=KYC_USER, object_id=user_id, changes=changes)


# ---------------------------------------------------------------- staff edits


def user_updated(*, actor: Actor, user: PlatformUser, diff: Diff) -> AuditLog:
    """Names or e-mail changed: old and new values."""
    return _record(actor=actor, action=Action.USER_UPDATE, user_id=user.pk, changes=diff)


def user_archived(*, actor: Actor, user: PlatformUser) -> AuditLog:
    return _record(actor=actor, action=Action.USER_ARCHIVE, user_id=user.pk, changes={"is_archived": True})


def user_unarchived(*, actor: Actor, user: PlatformUser) -> AuditLog:
    return _record(actor=actor, action=Action.USER_UNARCHIVE, user_id=user.pk, changes={"is_archived": False})


def user_purged(*, actor: Actor, user_id, counts: dict[str, int]) -> AuditLog:
    """The user and everything of theirs was deleted: only the counts, no name, phone or e-mail."""
    return _record(actor=actor, action=Action.USER_PURGE, user_id=user_id, changes={"deleted": counts})


# ---------------------------------------------------------------- identity and risk


def user_verified(
    *, actor: Actor, user: PlatformUser, status: str, record: VerificationRecord | None, diff: Diff
) -> AuditLog:
    """An identity check ended VERIFIED or REJECTED; ``diff``: what it changed on the profile."""
    changes = {"status": status, "record": str(record.pk) if record else None, **diff}
    return _record(actor=actor, action=Action.USER_VERIFICATION, user_id=user.pk, changes=changes)


def user_risk_changed(*, actor: Actor, user_id, before: tuple, after: tuple, reason: str) -> AuditLog:
    """The risk score, rating or potential-PEP flag changed; ``before``/``after``: (score, rating, flag)."""
    changes = {
        "current_risk_score": {"from": before[0], "to": after[0]},
        "risk_rating": {"from": before[1], "to": after[1]},
        "is_potential_pep": {"from": before[2], "to": after[2]},
        "reason": reason,
    }
    return _record(actor=actor, action=Action.USER_RISK, user_id=user_id, changes=changes)


def user_frozen(*, actor: Actor, user: PlatformUser, reason: str) -> AuditLog:
    """The wallet was frozen (a confirmed sanctions match); ``reason`` is compliance's own words."""
    return _record(
        actor=actor, action=Action.USER_FREEZE, user_id=user.pk, changes={"is_frozen": True, "reason": reason}
    )


def user_unfrozen(*, actor: Actor, user: PlatformUser, reason: str) -> AuditLog:
    """A second person lifted the freeze, with the reason."""
    changes = {"is_frozen": False, "reason": reason}
    return _record(actor=actor, action=Action.USER_UNFREEZE, user_id=user.pk, changes=changes)


# ---------------------------------------------------------------- admin credits


def _credit_changes(request: CreditRequest) -> dict:
    return {
        "amount": str(request.amount),
        "reason": request.reason,
        "previous_balance": str(request.previous_balance),
        "new_balance": str(request.new_balance),
        "transaction_id": str(request.transaction_id),
        "credit_request_id": str(request.pk),
        "requested_by": request.requested_by.email,
        "idempotency_key": request.idempotency_key or "",
    }


def user_credited(*, actor: Actor, request: CreditRequest) -> AuditLog:
    """A credit at or below the approval threshold moved the money at once."""
    return _record(actor=actor, action=Action.CREDIT, user_id=request.user_id, changes=_credit_changes(request))


def credit_requested(*, actor: Actor, request: CreditRequest) -> AuditLog:
    """A credit above the approval threshold waits for a second person; no money moved."""
    changes = {
        "amount": str(request.amount),
        "reason": request.reason,
        "credit_request_id": str(request.pk),
        "threshold": str(settings.CREDIT_APPROVAL_THRESHOLD),
        "idempotency_key": request.idempotency_key or "",
    }
    return _record(actor=actor, action=Action.CREDIT_REQUEST, user_id=request.user_id, changes=changes)


def credit_approved(move: Move[CreditRequest]) -> AuditLog:
    """A second person approved a pending credit (``fsm_move``'s event): the money moved now."""
    request = move.instance
    changes = _credit_changes(request)
    return _record(actor=move.actor, action=Action.CREDIT_APPROVE, user_id=request.user_id, changes=changes)


def credit_rejected(move: Move[CreditRequest]) -> AuditLog:
    """A second person refused a pending credit (``fsm_move``'s event), with the reason; no money moved."""
    request = move.instance
    changes = {
        "amount": str(request.amount),
        "credit_request_id": str(request.pk),
        "requested_by": request.requested_by.email,
        "reason": move.note,
    }
    return _record(actor=move.actor, action=Action.CREDIT_REJECT, user_id=request.user_id, changes=changes)


# ---------------------------------------------------------------- the payment platform's transactions


def transaction_taken_in(*, actor: Actor, transaction: Transaction) -> AuditLog:
    """The payment platform's intake recorded a transaction, with the decision taken on it."""
    return audit_record(
        actor=actor,
        action=Action.TRANSACTION_INTAKE,
        object_type="kyc_transaction",
        object_id=transaction.pk,
        changes={
            "external_id": transaction.external_id,
            "user_id": str(transaction.user_id),
            "type": transaction.type,
            "amount": str(transaction.amount),
            "decision": transaction.decision,
            "status": transaction.status,
        },
    )


def held_transaction_decided(*, actor: Actor, transaction: Transaction, note: str) -> AuditLog:
    """An officer released (COMPLETED) or rejected (REJECTED) a transaction the rules held, with the note."""
    released = transaction.status == TransactionStatus.COMPLETED
    return audit_record(
        actor=actor,
        action=Action.TRANSACTION_RELEASE if released else Action.TRANSACTION_REJECT,
        object_type="kyc_transaction",
        object_id=transaction.pk,
        changes={
            "status": {"from": TransactionStatus.HELD, "to": transaction.status},
            "note": note,
            "amount": str(transaction.amount),
            "user_id": str(transaction.user_id),
            "external_id": transaction.external_id or "",
        },
    )
