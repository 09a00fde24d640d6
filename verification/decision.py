"""The decision rule of a verification job, as a pure function (no database, no engine).

The interface decides by face similarity: >= 80 approve, 60-79 manual review, < 60 reject. The contract adds
the OCR check: approval needs the OCR to have read the card and its fields to agree with the user's profile
where the profile has them (the name through the same matcher as PEP screening, the ID number and the date of
birth exactly); a disagreement sends the job to a person. An expired document rejects (a card without an expiry
date is allowed: older Eswatini cards carry none). An image that is not good enough to check rejects with the
reason a user can act on, which is a different answer from "not the same person". A possible duplicate
identity is never approved automatically.
"""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from kyc.identity import id_number_key
from verification.choices import Decision, RejectionCode


@dataclass(frozen=True)
class ProfileFacts:
    """What the user's profile says, where it says anything (blank and None: the profile has no value)."""

    first_name: str = ""
    last_name: str = ""
    id_number: str = ""
    date_of_birth: dt.date | None = None


@dataclass(frozen=True)
class CardFacts:
    """What the OCR read on the card (blank and None: not found)."""

    first_name: str = ""
    last_name: str = ""
    id_number: str = ""
    date_of_birth: dt.date | None = None
    expiry_date: dt.date | None = None
    complete: bool = False


@dataclass(frozen=True)
class Check:
    """One step of the rule: its name, whether it passed (None: could not be checked) and what was seen."""

    name: str
    passed: bool | None
    detail: str

    def as_dict(self) -> dict:
        return {"name": self.name, "passed": self.passed, "detail": self.detail}


@dataclass(frozen=True)
class Thresholds:
    approve_at: float = 80.0
    review_at: float = 60.0


@dataclass(frozen=True)
class Outcome:
    decision: str
    rejection_code: str = ""
    reason: str = ""
    review_reasons: tuple[str, ...] = ()
    checks: tuple[Check, ...] = field(default_factory=tuple)


NamesAgree = Callable[[str, str], tuple[bool, float]]


def face_band(similarity: float, thresholds: Thresholds) -> Decision:
    """The interface's bands for a face similarity: approved from ``approve_at``, a person looks from
    ``review_at``, rejected below. The one place they are written (the decision, the test endpoint)."""
    if similarity < thresholds.review_at:
        return Decision.REJECTED
    if similarity < thresholds.approve_at:
        return Decision.MANUAL_REVIEW
    return Decision.APPROVED


def quality_rejection(messages: list[str]) -> Outcome:
    """The images could not be checked: reject with what the user must do, before any comparison."""
    reason = " ".join(messages)
    return Outcome(
        decision=Decision.REJECTED,
        rejection_code=RejectionCode.IMAGE_QUALITY,
        reason=reason,
        checks=(Check("image_quality", False, reason),),
    )


def decide(
    *,
    card: CardFacts,
    profile: ProfileFacts,
    similarity: float,
    duplicates: int,
    today: dt.date,
    names_agree: NamesAgree,
    thresholds: Thresholds = Thresholds(),
) -> Outcome:
    checks: list[Check] = [Check("image_quality", True, "Every image has one clear face and fair light")]
    review: list[str] = []

    # the document itself
    if card.expiry_date is not None and card.expiry_date < today:
        reason = f"The ID document expired on {card.expiry_date.isoformat()}; please verify with a valid document."
        checks.append(Check("document_valid", False, reason))
        return Outcome(Decision.REJECTED, RejectionCode.DOCUMENT_EXPIRED, reason, (), tuple(checks))
    checks.append(
        Check(
            "document_valid",
            True,
            f"Valid until {card.expiry_date.isoformat()}" if card.expiry_date else "The card carries no expiry date",
        )
    )

    # the face
    shown = f"{similarity:.0f}%"
    band = face_band(similarity, thresholds)
    if band == Decision.REJECTED:
        reason = (
            f"The face in the selfie does not match the photo on the ID document (similarity {shown}, "
            f"at least {thresholds.approve_at:.0f}% is needed)."
        )
        checks.append(Check("face_match", False, reason))
        return Outcome(Decision.REJECTED, RejectionCode.FACE_MISMATCH, reason, (), tuple(checks))
    if band == Decision.MANUAL_REVIEW:
        review.append(f"The faces are only {shown} alike: a person must compare them.")
        checks.append(Check("face_match", None, f"Similarity {shown}: uncertain"))
    else:
        checks.append(Check("face_match", True, f"Similarity {shown}"))

    # the card's text against the profile
    if not card.complete:
        review.append("The ID document could not be read in full: a person must read it.")
        checks.append(Check("ocr_complete", False, "Name, ID number or date of birth not read"))
    else:
        checks.append(Check("ocr_complete", True, "Name, ID number and date of birth read"))
    checks.extend(_field_checks(card, profile, names_agree, review))

    if duplicates:
        review.append("The identity may already belong to another user (see duplicates).")
        checks.append(Check("duplicates", False, f"{duplicates} possible duplicate(s)"))
    else:
        checks.append(Check("duplicates", True, "No other user with this ID number, face or image"))

    if review:
        return Outcome(Decision.MANUAL_REVIEW, "", "", tuple(review), tuple(checks))
    return Outcome(Decision.APPROVED, "", "", (), tuple(checks))


def _field_checks(card: CardFacts, profile: ProfileFacts, names_agree: NamesAgree, review: list[str]) -> list[Check]:
    checks = []
    profile_name = f"{profile.first_name} {profile.last_name}".strip()
    card_name = f"{card.first_name} {card.last_name}".strip()
    if profile_name and card_name:
        agree, score = names_agree(profile_name, card_name)
        detail = f"Card {card_name!r}, profile {profile_name!r} (score {score:.2f})"
        checks.append(Check("name_matches_profile", agree, detail))
        if not agree:
            review.append(f"The name on the card ({card_name}) differs from the profile ({profile_name}).")
    else:
        checks.append(Check("name_matches_profile", None, "Nothing to compare"))
    if profile.id_number and card.id_number:
        agree = id_number_key(profile.id_number) == id_number_key(card.id_number)
        checks.append(Check("id_number_matches_profile", agree, f"Card {card.id_number}, profile {profile.id_number}"))
        if not agree:
            review.append(
                f"The ID number on the card ({card.id_number}) differs from the profile ({profile.id_number})."
            )
    else:
        checks.append(Check("id_number_matches_profile", None, "The profile has no ID number yet"))
    if profile.date_of_birth and card.date_of_birth:
        agree = profile.date_of_birth == card.date_of_birth
        checks.append(
            Check(
                "date_of_birth_matches_profile",
                agree,
                f"Card {card.date_of_birth.isoformat()}, profile {profile.date_of_birth.isoformat()}",
            )
        )
        if not agree:
            review.append(
                f"The date of birth on the card ({card.date_of_birth.isoformat()}) differs from the profile "
                f"({profile.date_of_birth.isoformat()})."
            )
    else:
        checks.append(Check("date_of_birth_matches_profile", None, "The profile has no date of birth yet"))
    return checks
