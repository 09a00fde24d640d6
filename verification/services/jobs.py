"""Creating, running and deciding identity verification jobs.

``job_process`` runs the stages, in the request or in a background task (``job_process_later`` sends it to
``verification.tasks.process_job``: a worker with a broker, a thread of the server without). It claims the
job under its row lock, so two concurrent runs never run the same job twice, and a claim left by a run that
died is taken again once stale; each stage's start and end are written as they happen, so the status endpoint
can follow a run from another request. Every change of the job's status (submitted, claimed, failed, decided
by the rule or an officer) is a move of its state machine through ``backoffice.services.fsm_move`` and leaves
a ``VerificationJobEvent``. The engine
(``verification.engine``) does the image work; the decision rule is ``verification.decision``; the outcome on
the user is written by kyc's services, and possible duplicate identities go out through kyc's
``identity_duplicate`` hook (compliance raises the alerts).
"""

import dataclasses
import datetime as dt
import functools
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backoffice.choices import WebhookEventType
from backoffice.errors import FourEyesRequired, ValidationFailed
from backoffice.jsonkeys import snake
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.services import Actor, Move, fsm_move, history_record
from backoffice.services.webhooks import webhook_emit
from backoffice.tasks import dispatch
from backoffice.uploads import UploadRejected, upload_discard
from kyc.choices import DocumentType, VerificationStatus
from kyc.errors import UserArchived
from kyc.identity import id_number_key
from kyc.models import PlatformUser
from kyc.services import (
    IdentityFacts,
    user_document_upload,
    user_identity_duplicate,
    user_identity_duplicate_decided,
    user_verification_close,
    user_verification_open,
)
from names import Person, compare
from verification import events, metrics, stages
from verification.choices import FINISHED, Decision, ImageRole, JobStatus, RejectionCode, Stage, StageStatus
from verification.decision import CardFacts, ProfileFacts, Thresholds, decide, quality_rejection
from verification.engine.errors import EngineError, FaceComparisonFailed, OcrFailed
from verification.engine.images import image_hashes
from verification.engine.providers import face_distance_to_similarity, get_provider
from verification.errors import (
    FaceComparisonFailed as FaceComparisonError,
)
from verification.errors import (
    JobInProgress,
    JobNotAwaitingReview,
    OcrExtractionFailed,
    RequiredImagesNotFound,
    UserDataNotFound,
)
from verification.models import FaceTemplate, ImageFingerprint, VerificationJob, VerificationJobEvent
from verification.selectors.jobs import job_image
from verification.services.duplicates import by_face, by_id_number, by_image, signed64, vector_bytes

logger = logging.getLogger("verification")

# The task that runs a job, by its registered name (verification.tasks defines it and imports these services).
PROCESS_JOB = "verification.process_job"
SUBMITTED = "Identity document and selfie submitted"


# ---------------------------------------------------------------- creating


def job_create(*, user: PlatformUser, id_front, selfie, id_back=None, actor: Actor = None) -> VerificationJob:
    """Store the images as the user's documents (ID_FRONT, SELFIE, ID_BACK) and open a PENDING job.

    Each image is checked by its bytes (JPEG or PNG, at most 10 MB) and stored without its metadata. All or
    nothing: if any image or the job cannot be written, the images already stored are removed.
    """
    if user.is_archived:
        raise UserArchived("An archived user cannot be verified; restore the user first")
    stored = []
    try:
        with transaction.atomic():
            documents = {}
            for role, type_, upload in (
                ("id_front", DocumentType.ID_FRONT, id_front),
                ("id_back", DocumentType.ID_BACK, id_back),
                ("selfie", DocumentType.SELFIE, selfie),
            ):
                if upload is None:
                    continue
                try:
                    documents[role] = user_document_upload(user=user, type=type_, file=upload)
                except UploadRejected as error:
                    # name the image that was refused, not the upload checks' generic "file"
                    error.details = {role: [reason for reasons in (error.details or {}).values() for reason in reasons]}
                    raise
                stored.append(documents[role].file.name)
            now = timezone.now()
            record = user_verification_open(user=user, notes=SUBMITTED)
            job = VerificationJob.objects.create(
                user=user,
                record=record,
                created_by=actor,
                stage_progress=stages.initial_progress(submitted_at=now),
                **documents,
            )
            history_record(job, history=VerificationJobEvent, source="", target=job.status, actor=actor, note=SUBMITTED)
            events.job_created(actor=actor, job=job, images=list(documents))
    except Exception:
        for name in stored:
            upload_discard(name=name)
        raise
    return job


# ---------------------------------------------------------------- running


@dataclass
class _Run:
    """What one run has found so far, written on the job at the end."""

    job: VerificationJob
    started: float
    timings: dict
    actor: Actor = None
    began: float = 0.0


def _claim(job: VerificationJob, provider, *, actor: Actor = None) -> bool:
    """Move the job to PROCESSING if nobody else holds it; True when this call holds it now.

    Free to take: a PENDING or FAILED job, or a PROCESSING one whose claim is older than
    ``VERIFICATION_STALE_CLAIM_SECONDS`` (its run stopped answering). Decided under the job's row lock, so of
    two concurrent calls the second sees the first's claim.
    """
    now = timezone.now()
    stale = now - dt.timedelta(seconds=settings.VERIFICATION_STALE_CLAIM_SECONDS)
    with transaction.atomic():
        locked = VerificationJob.objects.select_for_update().filter(pk=job.pk).first()
        if locked is None:
            return False
        retaken = locked.status == JobStatus.PROCESSING
        stopped = retaken and locked.claimed_at is not None and locked.claimed_at < stale
        if not (locked.status in (JobStatus.PENDING, JobStatus.FAILED) or stopped):
            return False
        locked.claimed_at = now
        locked.attempts += 1
        locked.error = ""
        locked.engine = provider.name
        locked.engine_versions = provider.versions()
        locked.thresholds = {
            **provider.thresholds(),
            "approve_similarity": settings.VERIFICATION_APPROVE_SIMILARITY,
            "review_similarity": settings.VERIFICATION_REVIEW_SIMILARITY,
            "duplicate_face_similarity": settings.VERIFICATION_DUPLICATE_FACE_SIMILARITY,
            "image_hash_distance": settings.VERIFICATION_IMAGE_HASH_DISTANCE,
            "id_image_hash_distance": settings.VERIFICATION_ID_IMAGE_HASH_DISTANCE,
        }
        note = f"Run {locked.attempts} on the {provider.name} engine"
        fsm_move(
            locked,
            to=JobStatus.PROCESSING,
            actor=actor,
            note=note + (" (the previous run stopped answering)" if retaken else ""),
            lock=False,
            update_fields=["claimed_at", "attempts", "error", "engine", "engine_versions", "thresholds"],
            history=VerificationJobEvent,
            event=None,  # the run's audit entry is written when it ends (verification.process)
        )
    return True


def _enter(run: _Run, stage: Stage) -> None:
    job = run.job
    job.stage_progress = stages.mark(job.stage_progress, stage, StageStatus.RUNNING, timezone.now())
    job.current_stage, job.progress = stage, stages.percent(stage, StageStatus.RUNNING)
    VerificationJob.objects.filter(pk=job.pk).update(
        stage_progress=job.stage_progress, current_stage=stage, progress=job.progress, updated_at=timezone.now()
    )
    run.started = time.monotonic()


def _leave(run: _Run, stage: Stage, status: StageStatus = StageStatus.DONE) -> None:
    job = run.job
    run.timings[stage.value] = round(time.monotonic() - run.started, 3)
    metrics.STAGE_DURATION.labels(stage.value).observe(run.timings[stage.value])
    job.stage_progress = stages.mark(job.stage_progress, stage, status, timezone.now())
    job.progress = stages.percent(stage, status) if status is StageStatus.DONE else job.progress
    VerificationJob.objects.filter(pk=job.pk).update(
        stage_progress=job.stage_progress, progress=job.progress, timings=run.timings, updated_at=timezone.now()
    )


def _fail(run: _Run, stage: Stage, error: EngineError) -> None:
    """A provider error: the job is FAILED (it may be processed again), the user is not touched."""
    job = run.job
    run.timings[stage.value] = round(time.monotonic() - run.started, 3)
    job.stage_progress = stages.mark(job.stage_progress, stage, StageStatus.FAILED, timezone.now())
    job.timings, job.error = run.timings, str(error)[:NOTE_MAX_LENGTH]
    with transaction.atomic():
        # lock=False: the run's claim holds the job; only the run's own columns are written
        fsm_move(
            job,
            to=JobStatus.FAILED,
            actor=run.actor,
            note=f"{stage.label}: {job.error}",
            lock=False,
            update_fields=["stage_progress", "timings", "error"],
            history=VerificationJobEvent,
            event=None,  # a failed run changes nothing on the user; the job keeps the error
        )
    metrics.RUN_DURATION.labels("failed").observe(time.monotonic() - run.began)
    logger.warning("verification job %s failed in %s: %s", job.pk, stage, error)


def job_process(*, job: VerificationJob, actor: Actor = None) -> VerificationJob:
    """Run the whole workflow of ``job`` and return it finished (COMPLETED or REJECTED).

    A job already finished is returned unchanged. Raises 404 "KYC user data not found" when its user is gone,
    400 "Required images not found" when the ID front or selfie is missing, 409 while another request runs
    it, and 500 "OCR extraction failed" / "Face comparison failed" on a provider error (the job is then
    FAILED and may be processed again).
    """
    job.refresh_from_db()
    if job.status in FINISHED:
        return job
    id_front, selfie, id_back = _images(job)
    provider = get_provider()
    if not _claim(job, provider, actor=actor):
        job.refresh_from_db()
        if job.status in FINISHED:
            return job
        raise JobInProgress()
    job.refresh_from_db()
    run = _Run(job=job, started=time.monotonic(), timings={}, actor=actor, began=time.monotonic())
    images = {ImageRole.ID_FRONT: id_front, ImageRole.SELFIE: selfie}
    if id_back is not None:
        images[ImageRole.ID_BACK] = id_back

    # ocr_processing: the quality gate on every image, then the text of the card
    _enter(run, Stage.OCR_PROCESSING)
    try:
        reports = {role: provider.check_quality(data, role=role.value) for role, data in images.items()}
        job.quality = {role.value: report.as_dict() for role, report in reports.items()}
        problems = [issue.message for report in reports.values() for issue in report.issues]
        if problems:
            _leave(run, Stage.OCR_PROCESSING, StageStatus.FAILED)
            return _finish(run, outcome=quality_rejection(problems), face=None, images=images)
        ocr = provider.extract_text(id_front, id_back)
    except OcrFailed as error:
        _fail(run, Stage.OCR_PROCESSING, error)
        raise OcrExtractionFailed() from error
    except EngineError as error:  # an image the engine cannot read, found after the upload checks
        _fail(run, Stage.OCR_PROCESSING, error)
        raise OcrExtractionFailed() from error
    job.ocr_result = ocr_json(ocr)
    # committed now, not with the decision: a check of the same number on another account that runs at the same
    # time searches after this write, so of two such checks at least the later one finds the other
    job.id_number_key = id_number_key(ocr.fields.id_number)
    VerificationJob.objects.filter(pk=job.pk).update(id_number_key=job.id_number_key)
    _leave(run, Stage.OCR_PROCESSING)

    # face_verification: the ID photo against the selfie, then who else has this face or these images
    _enter(run, Stage.FACE_VERIFICATION)
    try:
        face = provider.compare_faces(id_front, selfie)
    except (FaceComparisonFailed, EngineError) as error:
        _fail(run, Stage.FACE_VERIFICATION, error)
        raise FaceComparisonError() from error
    job.face_result = face.as_dict()
    hashes = {role.value: image_hashes(data) for role, data in images.items()}
    user = job.user
    duplicates = [
        *by_id_number(user=user, id_number=ocr.fields.id_number),
        *by_face(
            user=user, engine=provider.name, vector=face.target_embedding, similarity_of=face_distance_to_similarity
        ),
        *by_image(user=user, hashes=hashes),
    ]
    job.duplicates = duplicates
    _leave(run, Stage.FACE_VERIFICATION)

    # final_review: the decision rule
    _enter(run, Stage.FINAL_REVIEW)
    fields = ocr.fields
    outcome = decide(
        card=CardFacts(
            first_name=fields.first_name,
            last_name=fields.last_name,
            id_number=fields.id_number,
            date_of_birth=fields.date_of_birth,
            expiry_date=fields.expiry_date,
            complete=ocr.complete,
        ),
        profile=ProfileFacts(
            first_name=user.first_name,
            last_name=user.last_name,
            id_number=user.id_number,
            date_of_birth=user.date_of_birth,
        ),
        similarity=face.similarity,
        duplicates=len(duplicates),
        today=timezone.localdate(),
        names_agree=names_agree,
        thresholds=Thresholds(
            approve_at=settings.VERIFICATION_APPROVE_SIMILARITY, review_at=settings.VERIFICATION_REVIEW_SIMILARITY
        ),
    )
    return _finish(run, outcome=outcome, face=face, images=images, hashes=hashes)


def _images(job: VerificationJob) -> tuple[bytes, bytes, bytes | None]:
    """The job's ID front, selfie and ID back; 404 when its user is gone, 400 when a required image is."""
    if job.user_id is None:
        raise UserDataNotFound()
    id_front, selfie = job_image(job.id_front), job_image(job.selfie)
    id_back = job_image(job.id_back) if job.id_back_id else None
    if id_front is None or selfie is None:
        raise RequiredImagesNotFound()
    return id_front, selfie, id_back


def _running(job: VerificationJob) -> bool:
    """A run holds the job now (its claim is not stale)."""
    stale = timezone.now() - dt.timedelta(seconds=settings.VERIFICATION_STALE_CLAIM_SECONDS)
    return job.status == JobStatus.PROCESSING and job.claimed_at is not None and job.claimed_at >= stale


def job_process_later(*, job: VerificationJob, actor: Actor = None) -> tuple[VerificationJob, bool]:
    """Have ``job`` processed in the background; (the job as it is now, whether a run was started).

    What would make the run fail at once is answered here, in the request: 404 when the user is gone, 400
    when a required image is missing. A finished job is returned as it is (nothing to run), and so is one a
    live run holds (it is on its way). Otherwise the job goes to ``verification.tasks.process_job``: to a
    worker when a broker is configured (503 when the broker is down), else to a thread of this process.
    A job sent twice runs once: the run claims it.
    """
    job.refresh_from_db()
    if job.status in FINISHED:
        return job, False
    _images(job)
    if _running(job):
        return job, False
    actor_id = str(actor.pk) if actor is not None else None
    dispatch(PROCESS_JOB, args=(str(job.pk),), kwargs={"actor_id": actor_id}, background=True)
    events.job_queued(actor=actor, job=job)
    return job, True


def job_requeue_stale() -> list[str]:
    """Send again every job whose run died mid-way (PROCESSING with a stale claim); their ids."""
    stale = timezone.now() - dt.timedelta(seconds=settings.VERIFICATION_STALE_CLAIM_SECONDS)
    ids = [
        str(pk)
        for pk in VerificationJob.objects.filter(status=JobStatus.PROCESSING, claimed_at__lt=stale).values_list(
            "pk", flat=True
        )[:500]
    ]
    for job_id in ids:
        dispatch(PROCESS_JOB, args=(job_id,))
    if ids:
        logger.warning("sent %d verification jobs again: their runs died mid-way", len(ids))
    return ids


def names_agree(profile_name: str, card_name: str) -> tuple[bool, float]:
    """The profile's name against the card's, through the PEP screening's matcher (one way to match names)."""
    match = compare(Person(profile_name), Person(card_name))
    return match.is_match, match.score


OCR_FIELDS = ("first_name", "last_name", "id_number", "date_of_birth", "sex", "nationality", "expiry_date")


def ocr_json(ocr) -> dict:
    """The OCR result as the job keeps it (dates as YYYY-MM-DD), in this app's own shape."""
    fields = {}
    for name in OCR_FIELDS:
        value = getattr(ocr.fields, name)
        fields[name] = value.isoformat() if isinstance(value, dt.date) else (value or "")
    return {
        "fields": fields,
        "confidence": round(float(ocr.confidence), 1),
        # the engine keys these by the API's field names; stored in this app's own (snake_case) names
        "field_confidence": {snake(k): round(float(v), 1) for k, v in (ocr.field_confidence or {}).items()},
        "extracted_fields": list(ocr.extracted_fields),
        "complete": bool(ocr.complete),
        "issues": list(ocr.issues),
    }


def _date(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if value else None
    except ValueError:
        return None


def facts_from_ocr(ocr_result: dict | None) -> IdentityFacts | None:
    """The identity facts of a stored OCR result (``ocr_json``), for the profile's empty fields."""
    if not ocr_result:
        return None
    f = ocr_result.get("fields", {})
    return IdentityFacts(
        # only values the profile's fields can hold: the OCR reads what is printed, not what is valid
        id_number=(f.get("id_number") or "")[:32],
        date_of_birth=_date(f.get("date_of_birth")),
        sex=f.get("sex") if f.get("sex") in ("MALE", "FEMALE") else "",
        nationality=(f.get("nationality") or "")[:64],
        id_expiry_date=_date(f.get("expiry_date")),
    )


def _finish(run: _Run, *, outcome, face, images: dict, hashes: dict | None = None) -> VerificationJob:
    """Write the decision, the outcome on the user, the fingerprints and the duplicates, in one transaction."""
    job, actor = run.job, run.actor
    now = timezone.now()
    if outcome.decision == Decision.MANUAL_REVIEW:
        run.timings[Stage.FINAL_REVIEW.value] = round(time.monotonic() - run.started, 3)
        target, job.current_stage = JobStatus.COMPLETED, Stage.FINAL_REVIEW
        job.progress = stages.percent(Stage.FINAL_REVIEW, StageStatus.DONE)
    else:
        if job.current_stage == Stage.FINAL_REVIEW:
            run.timings[Stage.FINAL_REVIEW.value] = round(time.monotonic() - run.started, 3)
            job.stage_progress = stages.mark(job.stage_progress, Stage.FINAL_REVIEW, StageStatus.DONE, now)
        approved = outcome.decision == Decision.APPROVED
        target = JobStatus.COMPLETED if approved else JobStatus.REJECTED
        job.current_stage = Stage.COMPLETED if approved else Stage.REJECTED
        job.progress = 100
        job.completed_at = now
    job.decision = outcome.decision
    job.rejection_code, job.rejection_reason = outcome.rejection_code, outcome.reason
    job.checks = [check.as_dict() for check in outcome.checks]
    if outcome.review_reasons:
        job.checks.append({"name": "review_reasons", "passed": None, "detail": " ".join(outcome.review_reasons)})
    job.timings = run.timings
    if run.began:
        metrics.RUN_DURATION.labels(outcome.decision).observe(time.monotonic() - run.began)
    hashes = hashes or {role.value: image_hashes(data) for role, data in images.items()}

    def record_findings(move: Move[VerificationJob]) -> None:
        """What the run found, written with the decision: fingerprints, the face, the user's outcome, duplicates."""
        ImageFingerprint.objects.filter(job=job).delete()
        ImageFingerprint.objects.bulk_create(
            [
                ImageFingerprint(user_id=job.user_id, job=job, role=role, sha256=h.sha256, dhash=signed64(h.dhash))
                for role, h in hashes.items()
            ]
        )
        if face is not None and face.target_embedding is not None:
            FaceTemplate.objects.update_or_create(
                job=job,
                defaults={"user_id": job.user_id, "engine": job.engine, "vector": vector_bytes(face.target_embedding)},
            )
        if outcome.decision != Decision.MANUAL_REVIEW:
            status = (
                VerificationStatus.VERIFIED if outcome.decision == Decision.APPROVED else VerificationStatus.REJECTED
            )
            note = f"Job {job.pk}: {outcome.decision}" + (f" - {outcome.reason}" if outcome.reason else "")
            _tell_the_platform(job, status=status, decision=outcome.decision)
            user_verification_close(
                user=job.user,
                record=job.record,
                status=status,
                notes=note,
                facts=facts_from_ocr(job.ocr_result),
                actor=actor,
            )
        for duplicate in job.duplicates:
            user_identity_duplicate(
                user=job.user,
                other_user_id=duplicate["user_id"],
                kind=duplicate["type"],
                score=duplicate["score"],
                source={"job_id": str(job.pk), "detail": duplicate["detail"]},
            )

    reasons = outcome.reason or " ".join(outcome.review_reasons)
    with transaction.atomic():
        # lock=False: the run's claim holds the job (the whole row is written, as the run filled it in)
        fsm_move(
            job,
            to=target,
            actor=actor,
            note=f"{outcome.decision}" + (f" - {reasons}" if reasons else ""),
            lock=False,
            after_save=record_findings,
            history=VerificationJobEvent,
            event=functools.partial(events.job_processed, similarity=face.similarity if face is not None else None),
        )
    return job


# ---------------------------------------------------------------- an officer's decision


@transaction.atomic
def job_decide(*, job: VerificationJob, actor: Actor, decision: str, note: str = "") -> VerificationJob:
    """A compliance officer decides a job waiting for manual review: approve or reject, with a note.

    Rejecting needs a note (the reason the user will read). Approval sets the user VERIFIED and fills the
    profile's empty fields from the OCR; rejection sets REJECTED. Recorded in the audit log.

    A job that found possible duplicates (the same ID number, face or image as another user) is approved by two
    people, each with a written reason: the first approval is a proposal (the job keeps waiting), the second, by
    someone else, decides (403 FOUR_EYES_REQUIRED for the proposer). Approved so, the card's ID number is not
    copied onto the profile when another user holds it. The decision then decides the pairs' DUPLICATE_IDENTITY
    alerts (kyc's ``identity_duplicate_decided`` hook), which stay open until it is made.
    """
    # of=self: the user and record are joined nullable (outer join), which PostgreSQL will not lock
    job = VerificationJob.objects.select_for_update(of=("self",)).select_related("user", "record").get(pk=job.pk)
    if not job.awaits_review:
        raise JobNotAwaitingReview()
    if job.user is None:
        raise UserDataNotFound()
    note = (note or "").strip()
    if decision not in (Decision.APPROVED, Decision.REJECTED):
        raise ValidationFailed(
            "The decision must be approved or rejected", details={"decision": ["Must be approved or rejected"]}
        )
    if decision == Decision.REJECTED and not note:
        raise ValidationFailed(
            "A note is required to reject: say why", details={"note": ["Say why the verification is rejected"]}
        )
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationFailed("The note is too long", details={"note": [f"At most {NOTE_MAX_LENGTH} characters"]})
    approved = decision == Decision.APPROVED
    if approved and job.duplicates:
        if not note:
            raise ValidationFailed(
                "A written reason is required to approve against possible duplicates",
                details={"note": ["Say why this identity is not the other user's"]},
            )
        if job.approval_proposed_by_id is None:
            return _propose_approval(job, actor=actor, note=note)
        if job.approval_proposed_by_id == getattr(actor, "pk", None):
            raise FourEyesRequired(
                "Approving against possible duplicates needs a second person: you proposed this approval"
            )
    now = timezone.now()
    job.stage_progress = stages.mark(job.stage_progress, Stage.FINAL_REVIEW, StageStatus.DONE, now)
    job.current_stage = Stage.COMPLETED if approved else Stage.REJECTED
    job.progress, job.completed_at = 100, now
    job.decision = decision
    job.decided_by, job.decided_at, job.decision_note = actor, now, note
    if not approved:
        job.rejection_code, job.rejection_reason = RejectionCode.OFFICER_DECISION, note

    def close_on_the_user(move: Move[VerificationJob]) -> None:
        status = VerificationStatus.VERIFIED if approved else VerificationStatus.REJECTED
        _tell_the_platform(job, status=status, decision=decision)
        facts = facts_from_ocr(job.ocr_result) if approved else None
        if facts is not None and any(d.get("type") == "ID_NUMBER" for d in job.duplicates):
            # another user holds this ID number: approving the identity does not hand this user that number too
            facts = dataclasses.replace(facts, id_number="")
        user_verification_close(
            user=job.user,
            record=job.record,
            status=VerificationStatus.VERIFIED if approved else VerificationStatus.REJECTED,
            notes=f"Job {job.pk}: {decision} by a compliance officer" + (f" - {note}" if note else ""),
            facts=facts,
            actor=actor,
        )
        if job.duplicates:
            user_identity_duplicate_decided(
                user=job.user,
                other_user_ids=sorted({d["user_id"] for d in job.duplicates}),
                approved=approved,
                note=_decision_summary(job, approved=approved, note=note),
                actor=actor,
                source={"job_id": str(job.pk)},
            )

    return fsm_move(
        job,
        to=JobStatus.COMPLETED if approved else JobStatus.REJECTED,
        actor=actor,
        note=f"{decision} by a compliance officer" + (f" - {note}" if note else ""),
        lock=False,  # locked above, with its user and record
        after_save=close_on_the_user,
        history=VerificationJobEvent,
        event=events.job_decided,
    ).instance


def _tell_the_platform(job: VerificationJob, *, status: str, decision: str) -> None:
    """The verification finished: a webhook to the payment platform, written with the decision."""
    webhook_emit(
        event_type=WebhookEventType.USER_VERIFICATION_COMPLETED,
        data={"user_id": str(job.user_id), "job_id": str(job.pk), "verification_status": status, "decision": decision},
    )


def _propose_approval(job: VerificationJob, *, actor: Actor, note: str) -> VerificationJob:
    """The first of the two approvals a job with possible duplicates needs: recorded, the job still waits."""
    job.approval_proposed_by, job.approval_proposed_at, job.approval_proposal_note = actor, timezone.now(), note
    job.save(update_fields=["approval_proposed_by", "approval_proposed_at", "approval_proposal_note", "updated_at"])
    events.job_approval_proposed(actor=actor, job=job, note=note)
    return job


def _decision_summary(job: VerificationJob, *, approved: bool, note: str) -> str:
    if not approved:
        return f"Identity check {job.pk} rejected: {note}"
    proposer = job.approval_proposed_by
    who = (proposer.full_name or proposer.email) if proposer is not None else "a first officer"
    return (
        f"Identity check {job.pk} approved by two people. Proposed by {who}: {job.approval_proposal_note} "
        f"Approved: {note}"
    )
