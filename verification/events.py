"""Identity verification's audited actions, one typed function each: a job created, run, decided by an officer.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
Every entry is about the job (``object_type`` "verification_job", the job's id).
"""

from enum import StrEnum

from backoffice.models import AuditLog
from backoffice.services import Actor, Move, audit_record
from verification.models import VerificationJob


class Action(StrEnum):
    CREATE = "verification.create"
    PROCESS = "verification.process"
    DECIDE = "verification.decide"
    QUEUE = "verification.queue"
    APPROVAL_PROPOSED = "verification.approval_proposed"


VERIFICATION_JOB = "verification_job"


def job_created(*, actor: Actor, job: VerificationJob, images: list[str]) -> AuditLog:
    """A job was opened on the user's images (``images``: which of id_front, id_back, selfie)."""
    return audit_record(
        actor=actor,
        action=Action.CREATE,
        object_type=VERIFICATION_JOB,
        object_id=job.pk,
        changes={"user_id": str(job.user_id), "images": sorted(images)},
    )


def job_queued(*, actor: Actor, job: VerificationJob) -> AuditLog:
    """A run was sent to the background (``?async=true``): a worker, or a thread of the server without a broker."""
    return audit_record(
        actor=actor, action=Action.QUEUE, object_type=VERIFICATION_JOB, object_id=job.pk, changes={"async": True}
    )


def job_approval_proposed(*, actor: Actor, job: VerificationJob, note: str) -> AuditLog:
    """The first of two approvals of a job flagged with possible duplicates: the job still waits for a second person."""
    return audit_record(
        actor=actor,
        action=Action.APPROVAL_PROPOSED,
        object_type=VERIFICATION_JOB,
        object_id=job.pk,
        changes={"note": note},
    )


def job_processed(move: Move[VerificationJob], *, similarity: float | None) -> AuditLog:
    """A run ended with the rule's decision (``fsm_move``'s event); ``similarity``: the faces', when compared."""
    job = move.instance
    return audit_record(
        actor=move.actor,
        action=Action.PROCESS,
        object_type=VERIFICATION_JOB,
        object_id=job.pk,
        changes={
            "decision": job.decision,
            "status": job.status,
            "similarity": similarity,
            "duplicates": len(job.duplicates),
            "rejection_code": job.rejection_code,
        },
    )


def job_decided(move: Move[VerificationJob]) -> AuditLog:
    """An officer approved or rejected a job in manual review (``fsm_move``'s event), with the note."""
    job = move.instance
    return audit_record(
        actor=move.actor,
        action=Action.DECIDE,
        object_type=VERIFICATION_JOB,
        object_id=job.pk,
        changes={"decision": job.decision, "note": job.decision_note},
    )
