"""JSON shapes of /verification: camelCase in and out."""

import re

from rest_framework import serializers

from backoffice.api.serializers import StrictCharField
from backoffice.files import signed_file_url
from backoffice.limits import NOTE_MAX_LENGTH
from verification.choices import Decision
from verification.decision import Thresholds, face_band
from verification.selectors.results import (
    CardReading,
    DuplicateFinding,
    FaceFinding,
    JobResults,
    StageState,
    job_stages,
)
from verification.selectors.timing import estimated_time_remaining

_CAMEL = re.compile(r"_([a-z0-9])")


def camel(value):
    """Keys of a stored engine result (snake_case) in the API's camelCase, recursively."""
    if isinstance(value, dict):
        return {_CAMEL.sub(lambda m: m.group(1).upper(), str(k)): camel(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [camel(v) for v in value]
    return value


def _url(document, context) -> str | None:
    if document is None or not document.file.name:
        return None
    return signed_file_url(document.file.name, storage=document.file.storage, request=context.get("request"))


# ---------------------------------------------------------------- input


class JobCreateIn(serializers.Serializer):
    """multipart/form-data. ``userId`` names the user for staff; a user's own token implies it."""

    headlines = {"idFront": "Required images not found", "selfie": "Required images not found"}

    userId = serializers.UUIDField(source="user_id", required=False)
    idFront = serializers.FileField(source="id_front", help_text="JPEG or PNG, at most 10 MB")
    selfie = serializers.FileField(help_text="JPEG or PNG, at most 10 MB")
    idBack = serializers.FileField(source="id_back", required=False, allow_null=True, help_text="Optional")


class JobDecisionIn(serializers.Serializer):
    decision = serializers.ChoiceField(choices=[Decision.APPROVED.value, Decision.REJECTED.value])
    note = StrictCharField(required=False, allow_blank=True, max_length=NOTE_MAX_LENGTH, default="")


class FaceComparisonIn(serializers.Serializer):
    headlines = {"sourceImage": "sourceImage is required", "targetImage": "targetImage is required"}

    sourceImage = StrictCharField(source="source_image", max_length=2048)
    targetImage = StrictCharField(source="target_image", max_length=2048)
    similarityThreshold = serializers.FloatField(
        source="similarity_threshold", required=False, default=80.0, min_value=0.0, max_value=100.0
    )


class OcrIn(serializers.Serializer):
    headlines = {"imageUrl": "imageUrl is required"}

    imageUrl = StrictCharField(source="image_url", max_length=2048)


# ---------------------------------------------------------------- output


def ocr_out(card: CardReading | None) -> dict | None:
    """The card as read (``verification.selectors.results.CardReading``) as the API shows it."""
    if card is None:
        return None
    return {
        "firstName": card.first_name,
        "lastName": card.last_name,
        "idNumber": card.id_number,
        "dateOfBirth": card.date_of_birth,
        "sex": card.sex,
        "nationality": card.nationality,
        "expiryDate": card.expiry_date,
        "confidence": card.confidence,
        "fieldConfidence": camel(card.field_confidence),
        "extractedFields": card.extracted_fields,
        "validation": {"isComplete": card.complete, "issues": card.issues},
    }


def face_out(face: FaceFinding | None) -> dict | None:
    if face is None:
        return None
    return {**camel(face.result), "threshold": face.approve_at, "isMatch": face.is_match}


def duplicates_out(duplicates: tuple[DuplicateFinding, ...]) -> list[dict]:
    return [{"type": d.type, "userId": d.user_id, "score": d.score, "detail": d.detail} for d in duplicates]


def stage_progress_out(stages: tuple[StageState, ...]) -> dict:
    return {s.stage: {"status": s.status, "startedAt": s.started_at, "completedAt": s.completed_at} for s in stages}


class CreatedOut(serializers.Serializer):
    jobId = serializers.UUIDField(source="id")
    status = serializers.CharField()
    currentStage = serializers.CharField(source="current_stage")
    progressPercentage = serializers.IntegerField(source="progress")
    userId = serializers.UUIDField(source="user_id")
    createdAt = serializers.DateTimeField(source="created_at")


# renders what a job found (verification.selectors.results.job_results), as the process endpoint answers; a
# comment, not a docstring, which would become the schema's description
class ProcessOut(serializers.Serializer):
    jobId = serializers.UUIDField(source="job.id")
    status = serializers.CharField(source="job.status")
    currentStage = serializers.CharField(source="job.current_stage")
    progressPercentage = serializers.IntegerField(source="job.progress")
    ocrResult = serializers.SerializerMethodField()
    faceComparisonResult = serializers.SerializerMethodField()
    decision = serializers.CharField(source="job.decision", allow_null=True)
    rejectionReason = serializers.CharField(source="job.rejection_reason", allow_null=True)
    rejectionCode = serializers.CharField(source="job.rejection_code", allow_null=True)
    duplicates = serializers.SerializerMethodField()

    def get_ocrResult(self, results: JobResults) -> dict | None:
        return ocr_out(results.card)

    def get_faceComparisonResult(self, results: JobResults) -> dict | None:
        return face_out(results.face)

    def get_duplicates(self, results: JobResults) -> list[dict]:
        return duplicates_out(results.duplicates)

    def to_representation(self, results):
        data = super().to_representation(results)
        for key in ("decision", "rejectionReason", "rejectionCode"):
            data[key] = data[key] or None
        return data


class StatusOut(serializers.Serializer):
    jobId = serializers.UUIDField(source="id")
    currentStatus = serializers.CharField(source="status")
    currentStage = serializers.CharField(source="current_stage")
    progressPercentage = serializers.IntegerField(source="progress")
    stageProgress = serializers.SerializerMethodField()
    estimatedTimeRemaining = serializers.SerializerMethodField(help_text="Seconds, from measured stage durations")

    def get_stageProgress(self, job) -> dict:
        return stage_progress_out(job_stages(job=job))

    def get_estimatedTimeRemaining(self, job) -> float:
        return estimated_time_remaining(job)


# everything a job found (job_results): the results endpoint and an officer's decision
class ResultsOut(ProcessOut):
    stageProgress = serializers.SerializerMethodField()
    userInfo = serializers.SerializerMethodField()
    quality = serializers.SerializerMethodField()
    checks = serializers.SerializerMethodField()
    engine = serializers.SerializerMethodField()
    timings = serializers.JSONField(source="job.timings")
    error = serializers.CharField(source="job.error", allow_null=True)
    reviewedBy = serializers.SerializerMethodField()
    reviewedAt = serializers.DateTimeField(source="job.decided_at", allow_null=True)
    reviewNote = serializers.CharField(source="job.decision_note", allow_null=True)
    createdAt = serializers.DateTimeField(source="job.created_at")
    completedAt = serializers.DateTimeField(source="job.completed_at", allow_null=True)

    def get_stageProgress(self, results: JobResults) -> dict:
        return stage_progress_out(results.stages)

    def get_userInfo(self, results: JobResults) -> dict | None:
        user, job = results.user, results.job
        if user is None:
            return None
        return {
            "id": str(user.pk),
            "phoneNumber": user.phone_number,
            "firstName": user.first_name,
            "lastName": user.last_name,
            "idNumber": user.id_number,
            "dateOfBirth": user.date_of_birth.isoformat() if user.date_of_birth else None,
            "sex": user.sex or None,
            "nationality": user.nationality,
            "verificationStatus": user.verification_status,
            "isVerified": user.is_verified,
            "images": {
                "idFront": _url(job.id_front, self.context),
                "idBack": _url(job.id_back, self.context),
                "selfie": _url(job.selfie, self.context),
            },
        }

    def get_quality(self, results: JobResults) -> dict:
        return camel(results.quality)

    def get_checks(self, results: JobResults) -> list:
        return list(results.checks)

    def get_engine(self, results: JobResults) -> dict:
        job = results.job
        return {"name": job.engine or None, "versions": job.engine_versions, "thresholds": camel(job.thresholds)}

    def get_reviewedBy(self, results: JobResults) -> str | None:
        return str(results.job.decided_by_id) if results.job.decided_by_id else None

    def to_representation(self, results):
        data = super().to_representation(results)
        for key in ("error", "reviewNote"):
            data[key] = data[key] or None
        return data


class JobListOut(serializers.Serializer):
    jobId = serializers.UUIDField(source="id")
    userId = serializers.UUIDField(source="user_id", allow_null=True)
    status = serializers.CharField()
    currentStage = serializers.CharField(source="current_stage")
    progressPercentage = serializers.IntegerField(source="progress")
    decision = serializers.CharField(allow_null=True)
    similarity = serializers.SerializerMethodField()
    duplicates = serializers.SerializerMethodField()
    createdAt = serializers.DateTimeField(source="created_at")
    completedAt = serializers.DateTimeField(source="completed_at", allow_null=True)

    def get_similarity(self, job) -> float | None:
        return (job.face_result or {}).get("similarity")

    def get_duplicates(self, job) -> int:
        return len(job.duplicates or [])

    def to_representation(self, job):
        data = super().to_representation(job)
        data["decision"] = data["decision"] or None
        return data


def face_comparison_out(result, *, quality: dict, threshold: float, approve_at: float, review_at: float) -> dict:
    """POST /verification/test-face-comparison: the comparison and each image's face and quality."""
    face = camel(result.as_dict())
    details = {}
    for side, report in quality.items():
        details[side] = {
            **camel(report.as_dict()),
            "face": face.get(f"{side}Face"),
        }
    return {
        "isMatch": result.similarity >= threshold,
        "similarity": round(result.similarity, 1),
        "similarityThreshold": threshold,
        "confidence": round(result.confidence, 1),
        "faceDetails": details,
        "decision": face_band(result.similarity, Thresholds(approve_at=approve_at, review_at=review_at)).value,
    }


def test_ocr_out(result) -> dict:
    """POST /verification/test-ocr: the personal fields read, the confidence, and what is missing."""
    f = result.fields
    required = {
        "firstName": f.first_name,
        "lastName": f.last_name,
        "idNumber": f.id_number,
        "dateOfBirth": f.date_of_birth,
    }
    return {
        "personalInfo": {
            "name": f"{f.first_name} {f.last_name}".strip(),
            "firstName": f.first_name,
            "lastName": f.last_name,
            "idNumber": f.id_number,
            "dateOfBirth": f.date_of_birth.isoformat() if f.date_of_birth else None,
            "sex": f.sex or None,
            "nationality": f.nationality,
            "expiryDate": f.expiry_date.isoformat() if f.expiry_date else None,
        },
        "confidence": round(result.confidence, 1),
        "validation": {
            "isComplete": result.complete,
            "missingFields": [name for name, value in required.items() if not value],
            "issues": list(result.issues),
        },
        "extractedFields": list(result.extracted_fields),
    }
