"""The outcome of an identity check, written on the user (the verification app decides; kyc records).

Verification depends on kyc, never the other way: it opens a ``VerificationRecord`` when a job is created,
closes it with the outcome, and reports possible duplicate identities through the ``identity_duplicate``
hook, which compliance turns into alerts.
"""

import datetime as dt
from dataclasses import dataclass, fields

from django.db import transaction
from django.utils import timezone

from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.services import Actor, model_update
from kyc import events, hooks
from kyc.choices import VerificationStatus, VerificationType
from kyc.models import PlatformUser, VerificationRecord
from kyc.services.ledger import lock_user
from kyc.services.risk import user_risk_refresh


@dataclass(frozen=True)
class IdentityFacts:
    """What an identity document says; approval copies each into the profile where the profile is empty."""

    id_number: str = ""
    date_of_birth: dt.date | None = None
    sex: str = ""
    nationality: str = ""
    id_expiry_date: dt.date | None = None


@transaction.atomic
def user_verification_open(*, user: PlatformUser, notes: str = "") -> VerificationRecord:
    """A PENDING identity verification record (the user's ``/verifications`` list shows it at once)."""
    return VerificationRecord.objects.create(
        user=user, type=VerificationType.IDENTITY, status=VerificationStatus.PENDING, notes=notes
    )


@transaction.atomic
def user_verification_close(
    *,
    user: PlatformUser,
    record: VerificationRecord | None,
    status: str,
    notes: str,
    facts: IdentityFacts | None = None,
    actor: Actor = None,
) -> PlatformUser:
    """Set the user's verification status (VERIFIED or REJECTED) and close the record with ``notes``.

    VERIFIED also sets isVerified and fills the profile's empty identity fields from ``facts``; REJECTED
    clears isVerified. One audit entry names what changed.
    """
    if status not in (VerificationStatus.VERIFIED, VerificationStatus.REJECTED):
        raise ValueError(f"an identity check ends VERIFIED or REJECTED, not {status}")
    locked = lock_user(user)
    verified = status == VerificationStatus.VERIFIED
    data = {"verification_status": status, "is_verified": verified}
    if verified and facts is not None:
        # only the profile's empty fields: what the user or staff wrote stands
        data |= {
            item.name: getattr(facts, item.name)
            for item in fields(facts)
            if getattr(facts, item.name) not in ("", None) and getattr(locked, item.name) in ("", None)
        }
    changes = model_update(locked, fields=list(data), data=data, exclude=["password"])
    now = timezone.now()
    if record is not None:
        VerificationRecord.objects.filter(pk=record.pk).update(
            status=status, notes=notes[:NOTE_MAX_LENGTH], completed_at=now
        )
    events.user_verified(actor=actor, user=locked, status=status, record=record, diff=changes)
    # the outcome is one of the facts the risk score reads
    risk = user_risk_refresh(user_id=locked.pk, reason=f"Identity verification {status.lower()}", actor=actor)
    if risk is not None:
        locked.current_risk_score, locked.risk_rating = risk.score, risk.rating
    return locked


def user_identity_duplicate(*, user: PlatformUser, other_user_id, kind: str, score: float | None, source: dict) -> None:
    """Report that ``user``'s identity may be another user's (``kind``: ID_NUMBER, FACE or IMAGE).

    ``source`` says where it was found (the job, the image); the ``identity_duplicate`` hooks act on it
    (compliance raises one DUPLICATE_IDENTITY alert per pair of users).
    """
    hooks.identity_duplicate(user=user, other_user_id=other_user_id, kind=kind, score=score, source=source)


def user_identity_duplicate_decided(
    *, user: PlatformUser, other_user_ids: list, approved: bool, note: str, actor: Actor, source: dict
) -> None:
    """Report that staff decided an identity check that had possible duplicates (``other_user_ids``).

    The ``identity_duplicate_decided`` hooks act on it: compliance decides the pairs' DUPLICATE_IDENTITY alerts,
    which stay open until then.
    """
    hooks.identity_duplicate_decided(
        user=user, other_user_ids=other_user_ids, approved=approved, note=note, actor=actor, source=source
    )
