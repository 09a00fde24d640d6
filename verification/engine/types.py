"""What the verification engine answers: frozen dataclasses with plain, JSON-safe ``as_dict()`` forms.

The dictionaries use snake_case keys; the API layer translates them to the contract's camelCase names.
"""

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

Role = Literal["idFront", "idBack", "selfie"]

# API names of the OCR fields, in the order the interface lists them
OCR_FIELD_NAMES = ("firstName", "lastName", "idNumber", "dateOfBirth", "sex", "nationality", "expiryDate")
# the dataclass attribute behind each API name
OCR_ATTRIBUTES = {
    "firstName": "first_name",
    "lastName": "last_name",
    "idNumber": "id_number",
    "dateOfBirth": "date_of_birth",
    "sex": "sex",
    "nationality": "nationality",
    "expiryDate": "expiry_date",
}


@dataclass(frozen=True)
class FaceBox:
    """A face's bounding box in pixels of the decoded, EXIF-rotated image."""

    left: int
    top: int
    width: int
    height: int

    def as_dict(self) -> dict:
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}


@dataclass(frozen=True)
class FaceReport:
    """One detected face and the quality measures taken on it.

    ``size_px`` is the shorter side of the box; ``sharpness`` the variance of the Laplacian of the face
    (local) or AWS's 0-100 sharpness; ``brightness`` the mean luminance 0-255 (local) or AWS's 0-100;
    ``glare`` the share of near-saturated pixels of the whole image (0-1); ``detection_score`` the
    detector's score (dlib HOG: above 0 is a confident face) or AWS's confidence 0-100.
    """

    box: FaceBox
    size_px: int
    sharpness: float
    brightness: float
    glare: float
    detection_score: float

    def as_dict(self) -> dict:
        return {
            "box": self.box.as_dict(),
            "size_px": self.size_px,
            "sharpness": round(self.sharpness, 2),
            "brightness": round(self.brightness, 2),
            "glare": round(self.glare, 4),
            "detection_score": round(self.detection_score, 3),
        }


@dataclass(frozen=True)
class QualityIssue:
    """Why an image fails the quality gate; ``message`` tells the person what to do."""

    code: str
    role: str
    message: str
    measured: float | None = None
    limit: float | None = None

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "role": self.role,
            "message": self.message,
            "measured": None if self.measured is None else round(self.measured, 4),
            "limit": self.limit,
        }


@dataclass(frozen=True)
class QualityReport:
    """The quality gate's verdict on one image; ``passed`` when there are no issues."""

    role: str
    passed: bool
    issues: tuple[QualityIssue, ...]
    faces: tuple[FaceReport, ...]
    width: int
    height: int

    def as_dict(self) -> dict:
        return {
            "role": self.role,
            "passed": self.passed,
            "issues": [issue.as_dict() for issue in self.issues],
            "faces": [face.as_dict() for face in self.faces],
            "width": self.width,
            "height": self.height,
        }


@dataclass(frozen=True)
class OcrFields:
    """The fields read from an identity document; empty string or None when not found."""

    first_name: str = ""
    last_name: str = ""
    id_number: str = ""
    date_of_birth: date | None = None
    sex: str = ""  # "MALE", "FEMALE" or ""
    nationality: str = ""
    expiry_date: date | None = None

    def as_dict(self) -> dict:
        return {
            "first_name": self.first_name,
            "last_name": self.last_name,
            "id_number": self.id_number,
            "date_of_birth": self.date_of_birth.isoformat() if self.date_of_birth else None,
            "sex": self.sex,
            "nationality": self.nationality,
            "expiry_date": self.expiry_date.isoformat() if self.expiry_date else None,
        }


@dataclass(frozen=True)
class OcrResult:
    """Text extraction of an ID document: the fields, confidences (0-100), completeness and issues."""

    fields: OcrFields
    confidence: float
    field_confidence: dict[str, float] = field(default_factory=dict)  # keyed by API name (firstName, ...)
    extracted_fields: tuple[str, ...] = ()  # API names of the fields found
    complete: bool = False  # first name, last name, ID number and date of birth all found
    issues: tuple[str, ...] = ()
    raw_text: str = ""

    def as_dict(self) -> dict:
        return {
            "fields": self.fields.as_dict(),
            "confidence": round(self.confidence, 2),
            "field_confidence": {name: round(value, 2) for name, value in self.field_confidence.items()},
            "extracted_fields": list(self.extracted_fields),
            "complete": self.complete,
            "issues": list(self.issues),
            "raw_text": self.raw_text,
        }


@dataclass(frozen=True)
class FaceComparison:
    """The largest face of the ID image (source) against the largest face of the selfie (target).

    ``similarity`` 0-100 (local: ``face_distance_to_similarity`` of the dlib distance; AWS: Rekognition's
    similarity); ``confidence`` 0-100, how sure the provider is that it found and compared two faces.
    """

    similarity: float
    confidence: float
    distance: float | None
    source_face: FaceReport | None
    target_face: FaceReport | None
    source_embedding: tuple[float, ...] | None = None
    target_embedding: tuple[float, ...] | None = None

    def as_dict(self) -> dict:
        return {
            "similarity": round(self.similarity, 2),
            "confidence": round(self.confidence, 2),
            "distance": None if self.distance is None else round(self.distance, 4),
            "source_face": self.source_face.as_dict() if self.source_face else None,
            "target_face": self.target_face.as_dict() if self.target_face else None,
        }


@dataclass(frozen=True)
class ImageHashes:
    """``sha256`` of the bytes (the same file) and a 64-bit ``dhash`` of the picture (the same image re-encoded)."""

    sha256: str
    dhash: int
