"""What a verification job found, as one value: the results endpoint and the admin's job page both render it.

``job_results`` reads the job's stored findings (the card as read, the face comparison, the rule's checks,
possible duplicates, the stages) in domain terms; the API's serializers put it in camelCase, the admin page
in words. The card is set against the profile here, once, with the rule's own verdicts (the name matcher, the
ID number by its characters) where the rule compared a field.
"""

import datetime as dt
from dataclasses import dataclass

from kyc.models import PlatformUser
from verification.choices import Stage
from verification.models import VerificationJob

# the approve threshold of a job that recorded none
DEFAULT_APPROVE_SIMILARITY = 80.0
# field on the card, label, profile field, and the decision rule's check that compared them (None: the rule does
# not compare that field; only whether the two texts are the same is shown)
CARD_FIELDS = (
    ("first_name", "First name", "first_name", "name_matches_profile"),
    ("last_name", "Last name", "last_name", "name_matches_profile"),
    ("id_number", "ID number", "id_number", "id_number_matches_profile"),
    ("date_of_birth", "Date of birth", "date_of_birth", "date_of_birth_matches_profile"),
    ("sex", "Sex", "sex", None),
    ("nationality", "Nationality", "nationality", None),
    ("expiry_date", "Expiry date", "id_expiry_date", None),
)


@dataclass(frozen=True)
class CardReading:
    """The card as the engine read it (``verification.services.jobs.ocr_json``): texts, dates as YYYY-MM-DD."""

    first_name: str
    last_name: str
    id_number: str
    date_of_birth: str | None
    sex: str | None
    nationality: str
    expiry_date: str | None
    confidence: float
    field_confidence: dict
    extracted_fields: list
    complete: bool
    issues: list


@dataclass(frozen=True)
class FaceFinding:
    """The stored face comparison (snake_case, as the engine gave it) and the job's own approve threshold."""

    result: dict
    similarity: float | None
    approve_at: float

    @property
    def is_match(self) -> bool:
        return self.similarity is not None and self.similarity >= self.approve_at


@dataclass(frozen=True)
class FieldComparison:
    """One field of the card against the profile; ``agrees`` None when there is nothing to compare."""

    field: str
    label: str
    card: str
    profile: str
    agrees: bool | None


@dataclass(frozen=True)
class DuplicateFinding:
    """Another user with the same ID number, face or image; ``user`` when asked for and still on file."""

    type: str
    user_id: str
    score: float | None
    detail: str
    user: PlatformUser | None = None


@dataclass(frozen=True)
class StageState:
    """One stage of the job's workflow as the job recorded it; ``seconds`` the time it took."""

    stage: str
    status: str | None
    started_at: str | None
    completed_at: str | None
    seconds: float | None
    # the rule has run; what is left of final review is an officer's
    awaits_officer: bool

    @property
    def label(self) -> str | None:
        return Stage(self.stage).label if self.stage in Stage.values else None


@dataclass(frozen=True)
class JobResults:
    """Everything a finished (or unfinished) job found, for the results endpoint and the job page."""

    job: VerificationJob
    user: PlatformUser | None
    card: CardReading | None
    face: FaceFinding | None
    comparisons: tuple[FieldComparison, ...]
    checks: tuple[dict, ...]
    duplicates: tuple[DuplicateFinding, ...]
    stages: tuple[StageState, ...]
    quality: dict


def card_reading(ocr_result: dict | None) -> CardReading | None:
    if not ocr_result:
        return None
    fields = ocr_result.get("fields", {})
    return CardReading(
        first_name=fields.get("first_name", ""),
        last_name=fields.get("last_name", ""),
        id_number=fields.get("id_number", ""),
        date_of_birth=fields.get("date_of_birth") or None,
        sex=fields.get("sex") or None,
        nationality=fields.get("nationality", ""),
        expiry_date=fields.get("expiry_date") or None,
        confidence=ocr_result.get("confidence", 0),
        field_confidence=ocr_result.get("field_confidence", {}),
        extracted_fields=ocr_result.get("extracted_fields", []),
        complete=ocr_result.get("complete", False),
        issues=ocr_result.get("issues", []),
    )


def face_finding(job: VerificationJob) -> FaceFinding | None:
    if not job.face_result:
        return None
    return FaceFinding(
        result=job.face_result,
        similarity=job.face_result.get("similarity"),
        approve_at=(job.thresholds or {}).get("approve_similarity", DEFAULT_APPROVE_SIMILARITY),
    )


def _profile_text(user: PlatformUser | None, field: str) -> str:
    value = getattr(user, field, "") if user is not None else ""
    return value.isoformat() if isinstance(value, dt.date) else (value or "")


def card_against_profile(job: VerificationJob, card: CardReading | None) -> tuple[FieldComparison, ...]:
    """Each field of the card beside the profile's; the verdict is the rule's, as it was when it ran."""
    verdicts = {check["name"]: check.get("passed") for check in job.checks or []}
    rows = []
    for field, label, profile_field, check in CARD_FIELDS:
        on_card = (getattr(card, field) if card is not None else "") or ""
        profile = _profile_text(job.user, profile_field)
        if check is not None:
            agrees = verdicts.get(check)
        else:
            agrees = None if not on_card or not profile else str(on_card).strip().lower() == profile.strip().lower()
        rows.append(FieldComparison(field, label, on_card, profile, agrees))
    return tuple(rows)


def job_stages(*, job: VerificationJob) -> tuple[StageState, ...]:
    """The job's stages in the order it recorded them (the status endpoint's and the results' ``stageProgress``)."""
    timings = job.timings or {}
    return tuple(
        StageState(
            stage=stage,
            status=entry.get("status"),
            started_at=entry.get("started_at"),
            completed_at=entry.get("completed_at"),
            seconds=timings.get(stage),
            awaits_officer=stage == Stage.FINAL_REVIEW and job.awaits_review,
        )
        for stage, entry in (job.stage_progress or {}).items()
    )


def job_results(*, job: VerificationJob, with_people: bool = False) -> JobResults:
    """What ``job`` found. ``with_people``: the users its duplicates point at, in one query (the page names them;
    the API gives their ids only, and reads nothing more than the job)."""
    found = job.duplicates or []
    people = {}
    if with_people and found:
        people = {
            str(u.pk): u
            for u in PlatformUser.objects.filter(pk__in=[d["user_id"] for d in found]).only(
                "pk", "first_name", "last_name", "phone_number"
            )
        }
    card = card_reading(job.ocr_result)
    return JobResults(
        job=job,
        user=job.user,
        card=card,
        face=face_finding(job),
        comparisons=card_against_profile(job, card),
        checks=tuple(job.checks or []),
        duplicates=tuple(
            DuplicateFinding(
                type=d["type"],
                user_id=d["user_id"],
                score=d.get("score"),
                detail=d.get("detail", ""),
                user=people.get(str(d["user_id"])),
            )
            for d in found
        ),
        stages=job_stages(job=job),
        quality=job.quality or {},
    )
