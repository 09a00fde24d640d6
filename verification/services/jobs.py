"""Creating, running and deciding identity verification jobs.

``job_process`` runs the stages in the request (the production issue moves it to a worker): it claims the
job with a conditional update, so two concurrent calls never run the same job twice; each stage's start and
end are written as they happen, so the status endpoint can follow a run from another request. The engine
(``verification.engine``) does the image work; the decision rule is ``verification.decision``; the outcome on
the user is written by kyc's services, and possible duplicate identities go out through kyc's
``identity_duplicate`` hook (compliance raises the alerts).
"""

import datetime as dt
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from backoffice.errors import ValidationFailed
from backoffice.services import audit_record
from backoffice.uploads import UploadRejected, upload_discard
from kyc.choices import DocumentType, VerificationStatus
from kyc.errors import UserArchived
from kyc.identity import id_number_key
from kyc.models import PlatformUser
from kyc.names import Person, compare
from kyc.services import (
    IdentityFacts,
    user_document_upload,
    user_identity_duplicate,
    user_verification_close,
    user_verification_open,
)
from verification import stages
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
from verification.models import FaceTemplate, ImageFingerprint, VerificationJob
from verification.selectors import job_image
from verification.services.duplicates import by_face, by_id_number, by_image, signed64, vector_bytes

logger = logging.getLogger("verification")


def _audit(*, actor, action: str, job: VerificationJob, changes: dict) -> None:
    audit_record(actor=actor, action=action, object_type="verification_job", object_id=job.pk, changes=changes)


# ---------------------------------------------------------------- creating


def job_create(*, user: PlatformUser, id_front, selfie, id_back=None, actor=None) -> VerificationJob:
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
            record = user_verification_open(user=user, notes="Identity document and selfie submitted")
            job = VerificationJob.objects.create(
                user=user,
                record=record,
                created_by=actor,
                stage_progress=stages.initial_progress(submitted_at=now),
                **documents,
            )
            _audit(
                actor=actor,
                action="verification.create",
                job=job,
                changes={"user_id": str(user.pk), "images": sorted(documents)},
            )
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


def _claim(job: VerificationJob, provider) -> bool:
    """Move the job to PROCESSING if nobody else holds it; True when this call holds it now."""
    now = timezone.now()
    stale = now - dt.timedelta(seconds=settings.VERIFICATION_STALE_CLAIM_SECONDS)
    claimed = (
        VerificationJob.objects.filter(pk=job.pk)
        .filter(
            Q(status__in=[JobStatus.PENDING, JobStatus.FAILED]) | Q(status=JobStatus.PROCESSING, claimed_at__lt=stale)
        )
        .update(
            status=JobStatus.PROCESSING,
            claimed_at=now,
            attempts=F("attempts") + 1,
            error="",
            engine=provider.name,
            engine_versions=provider.versions(),
            thresholds={
                **provider.thresholds(),
                "approve_similarity": settings.VERIFICATION_APPROVE_SIMILARITY,
                "review_similarity": settings.VERIFICATION_REVIEW_SIMILARITY,
                "duplicate_face_similarity": settings.VERIFICATION_DUPLICATE_FACE_SIMILARITY,
                "image_hash_distance": settings.VERIFICATION_IMAGE_HASH_DISTANCE,
                "id_image_hash_distance": settings.VERIFICATION_ID_IMAGE_HASH_DISTANCE,
            },
        )
    )
    return bool(claimed)


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
    VerificationJob.objects.filter(pk=job.pk).update(
        status=JobStatus.FAILED,
        stage_progress=job.stage_progress,
        timings=run.timings,
        error=str(error)[:2000],
        updated_at=timezone.now(),
    )
    logger.warning("verification job %s failed in %s: %s", job.pk, stage, error)


def job_process(*, job: VerificationJob, actor=None) -> VerificationJob:
    """Run the whole workflow of ``job`` and return it finished (COMPLETED or REJECTED).

    A job already finished is returned unchanged. Raises 404 "KYC user data not found" when its user is gone,
    400 "Required images not found" when the ID front or selfie is missing, 409 while another request runs
    it, and 500 "OCR extraction failed" / "Face comparison failed" on a provider error (the job is then
    FAILED and may be processed again).
    """
    job.refresh_from_db()
    if job.status in FINISHED:
        return job
    if job.user_id is None:
        raise UserDataNotFound()
    id_front, selfie = job_image(job.id_front), job_image(job.selfie)
    id_back = job_image(job.id_back) if job.id_back_id else None
    if id_front is None or selfie is None:
        raise RequiredImagesNotFound()
    provider = get_provider()
    if not _claim(job, provider):
        job.refresh_from_db()
        if job.status in FINISHED:
            return job
        raise JobInProgress()
    job.refresh_from_db()
    run = _Run(job=job, started=time.monotonic(), timings={})
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
            return _finish(run, outcome=quality_rejection(problems), face=None, images=images, actor=actor)
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
    return _finish(run, outcome=outcome, face=face, images=images, hashes=hashes, actor=actor)


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
        "field_confidence": {k: round(float(v), 1) for k, v in (ocr.field_confidence or {}).items()},
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


def _finish(run: _Run, *, outcome, face, images: dict, hashes: dict | None = None, actor=None) -> VerificationJob:
    """Write the decision, the outcome on the user, the fingerprints and the duplicates, in one transaction."""
    job = run.job
    now = timezone.now()
    if outcome.decision == Decision.MANUAL_REVIEW:
        run.timings[Stage.FINAL_REVIEW.value] = round(time.monotonic() - run.started, 3)
        job.status, job.current_stage = JobStatus.COMPLETED, Stage.FINAL_REVIEW
        job.progress = stages.percent(Stage.FINAL_REVIEW, StageStatus.DONE)
    else:
        if job.current_stage == Stage.FINAL_REVIEW:
            run.timings[Stage.FINAL_REVIEW.value] = round(time.monotonic() - run.started, 3)
            job.stage_progress = stages.mark(job.stage_progress, Stage.FINAL_REVIEW, StageStatus.DONE, now)
        approved = outcome.decision == Decision.APPROVED
        job.status = JobStatus.COMPLETED if approved else JobStatus.REJECTED
        job.current_stage = Stage.COMPLETED if approved else Stage.REJECTED
        job.progress = 100
        job.completed_at = now
    job.decision = outcome.decision
    job.rejection_code, job.rejection_reason = outcome.rejection_code, outcome.reason
    job.checks = [check.as_dict() for check in outcome.checks]
    if outcome.review_reasons:
        job.checks.append({"name": "review_reasons", "passed": None, "detail": " ".join(outcome.review_reasons)})
    job.timings = run.timings
    hashes = hashes or {role.value: image_hashes(data) for role, data in images.items()}
    with transaction.atomic():
        job.save()
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
                source={"jobId": str(job.pk), "detail": duplicate["detail"]},
            )
        _audit(
            actor=actor,
            action="verification.process",
            job=job,
            changes={
                "decision": job.decision,
                "status": job.status,
                "similarity": face.similarity if face is not None else None,
                "duplicates": len(job.duplicates),
                "rejection_code": job.rejection_code,
            },
        )
    return job


# ---------------------------------------------------------------- an officer's decision


@transaction.atomic
def job_decide(*, job: VerificationJob, actor, decision: str, note: str = "") -> VerificationJob:
    """A compliance officer decides a job waiting for manual review: approve or reject, with a note.

    Rejecting needs a note (the reason the user will read). Approval sets the user VERIFIED and fills the
    profile's empty fields from the OCR; rejection sets REJECTED. Recorded in the audit log.
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
    if len(note) > 2000:
        raise ValidationFailed("The note is too long", details={"note": ["At most 2000 characters"]})
    now = timezone.now()
    approved = decision == Decision.APPROVED
    job.stage_progress = stages.mark(job.stage_progress, Stage.FINAL_REVIEW, StageStatus.DONE, now)
    job.status = JobStatus.COMPLETED if approved else JobStatus.REJECTED
    job.current_stage = Stage.COMPLETED if approved else Stage.REJECTED
    job.progress, job.completed_at = 100, now
    job.decision = decision
    job.decided_by, job.decided_at, job.decision_note = actor, now, note
    if not approved:
        job.rejection_code, job.rejection_reason = RejectionCode.OFFICER_DECISION, note
    job.save()
    facts = facts_from_ocr(job.ocr_result) if approved else None
    user_verification_close(
        user=job.user,
        record=job.record,
        status=VerificationStatus.VERIFIED if approved else VerificationStatus.REJECTED,
        notes=f"Job {job.pk}: {decision} by a compliance officer" + (f" - {note}" if note else ""),
        facts=facts,
        actor=actor,
    )
    _audit(actor=actor, action="verification.decide", job=job, changes={"decision": decision, "note": note})
    return job
