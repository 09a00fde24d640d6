"""The AWS provider: Textract ``AnalyzeID`` for the card's fields, Rekognition for faces and photo quality.

* ``extract_text``: ``AnalyzeID`` with the front (and the back, as a second page). Its normalised fields map to
  ours: FIRST_NAME, LAST_NAME, DOCUMENT_NUMBER, DATE_OF_BIRTH, EXPIRATION_DATE, each with its confidence; sex and
  nationality, which AnalyzeID does not name, come from the machine-readable zone (MRZ_CODE) when the card has
  one. Values go through the same cleaning and checks as the local parser (``id_fields``).
* ``compare_faces``: ``CompareFaces`` with ``SimilarityThreshold=0``, so the similarity of every target face
  comes back; the largest face of the selfie is used. Rekognition's similarity is already 0-100.
* ``check_quality``: ``DetectFaces`` (``Attributes=["DEFAULT"]`` includes Quality.Brightness and
  Quality.Sharpness, both 0-100) judged with AWS-scale limits; glare is measured locally, as AWS has no measure
  of it. The back of the card never leaves the machine for the gate (blur and glare are measured locally).
* ``embed_face``: None; Rekognition keeps its face vectors to itself (collections would hold them on AWS).

Clients are created on first use with the region of ``VERIFICATION_AWS_REGION``. Every botocore error becomes
``OcrFailed`` or ``FaceComparisonFailed`` with a sentence, never a traceback.
"""

import io
import threading
from importlib import metadata

import numpy as np
from PIL import Image

from verification.engine import id_fields, ocr, quality
from verification.engine.errors import EngineError, FaceComparisonFailed, OcrFailed
from verification.engine.id_fields import Word
from verification.engine.images import load_image
from verification.engine.quality import IMAGE_NAMES, QualityLimits
from verification.engine.types import FaceBox, FaceComparison, FaceReport, OcrResult, QualityReport, Role

# Rekognition's own scales (0-100)
AWS_MIN_SHARPNESS = 20.0
AWS_BRIGHTNESS_RANGE = (25.0, 95.0)
# a DetectFaces face below this confidence is not counted (a face on a T-shirt, a shadow)
AWS_MIN_FACE_CONFIDENCE = 90.0
# Rekognition accepts at most 5 MB of bytes; larger photos are re-encoded smaller first
REKOGNITION_MAX_BYTES = 5 * 1024 * 1024

_TEXTRACT_FIELDS = {
    "FIRST_NAME": "firstName",
    "LAST_NAME": "lastName",
    "DOCUMENT_NUMBER": "idNumber",
    "DATE_OF_BIRTH": "dateOfBirth",
    "EXPIRATION_DATE": "expiryDate",
}


def _client_errors() -> tuple[type[Exception], ...]:
    from botocore.exceptions import BotoCoreError, ClientError

    return (BotoCoreError, ClientError)


# error codes after which the same request may succeed: throttling, capacity, the service's own failures
RETRYABLE_CODES = frozenset(
    {
        "ThrottlingException",
        "Throttling",
        "ProvisionedThroughputExceededException",
        "LimitExceededException",
        "TooManyRequestsException",
        "RequestLimitExceeded",
        "InternalServerError",
        "InternalFailure",
        "ServiceUnavailable",
        "ServiceUnavailableException",
        "RequestTimeout",
        "RequestTimeoutException",
    }
)


def is_retryable(exc: Exception) -> bool:
    """Whether the same AWS call may succeed if tried again: throttling, a 5xx, a timeout, a lost connection;
    not a refused request (bad parameters, no face, access denied, an image Textract cannot read)."""
    from botocore.exceptions import ConnectionClosedError, ConnectionError, ReadTimeoutError

    if isinstance(exc, ConnectionError | ReadTimeoutError | ConnectionClosedError):
        return True
    response = getattr(exc, "response", None) or {}
    if not isinstance(response, dict):
        return False
    code = (response.get("Error") or {}).get("Code", "")
    status = (response.get("ResponseMetadata") or {}).get("HTTPStatusCode", 0) or 0
    return code in RETRYABLE_CODES or int(status) >= 500


def _error_text(exc: Exception) -> str:
    response = getattr(exc, "response", None) or {}
    error = response.get("Error", {}) if isinstance(response, dict) else {}
    if error.get("Code"):
        return f"{error.get('Code')}: {error.get('Message', '')}".strip().rstrip(":")
    return str(exc)


def _pixels(box: dict, width: int, height: int) -> FaceBox:
    """A Rekognition bounding box (ratios of the image) in pixels."""
    left = max(0, round(float(box.get("Left", 0.0)) * width))
    top = max(0, round(float(box.get("Top", 0.0)) * height))
    return FaceBox(
        left=left,
        top=top,
        width=max(0, min(width - left, round(float(box.get("Width", 0.0)) * width))),
        height=max(0, min(height - top, round(float(box.get("Height", 0.0)) * height))),
    )


def _face_report(detail: dict, rgb: np.ndarray, role: str) -> FaceReport:
    height, width = rgb.shape[:2]
    box = _pixels(detail.get("BoundingBox", {}), width, height)
    measured = quality.measure_face(rgb, box, detection_score=float(detail.get("Confidence", 0.0)), role=role)
    aws_quality = detail.get("Quality") or {}
    return FaceReport(
        box=box,
        size_px=min(box.width, box.height),
        sharpness=float(aws_quality.get("Sharpness", measured.sharpness)),
        brightness=float(aws_quality.get("Brightness", measured.brightness)),
        glare=measured.glare,
        detection_score=float(detail.get("Confidence", 0.0)),
    )


def _bytes_for_rekognition(data: bytes, image: Image.Image) -> bytes:
    if len(data) <= REKOGNITION_MAX_BYTES:
        return data
    smaller = image.copy()
    smaller.thumbnail((2048, 2048), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    smaller.save(out, "JPEG", quality=90)
    return out.getvalue()


def parse_mrz(text: str) -> tuple[str, str]:
    """(sex, nationality) from a machine-readable zone: TD1 (ID cards, 3 lines of 30) or TD3 (passports, 2 of 44)."""
    lines = [line.strip().replace(" ", "") for line in text.splitlines() if line.strip()]
    sex_code, nationality = "", ""
    if len(lines) >= 3 and len(lines[1]) >= 18:
        sex_code, nationality = lines[1][7], lines[1][15:18]
    elif len(lines) >= 2 and len(lines[1]) >= 21:
        sex_code, nationality = lines[1][20], lines[1][10:13]
    sex = {"M": "MALE", "F": "FEMALE"}.get(sex_code, "")
    return sex, nationality.replace("<", "").upper()


class AwsProvider:
    name = "aws"

    def __init__(self, *, region: str = "af-south-1", textract=None, rekognition=None, limits=None):
        self.region = region
        self.limits = limits or QualityLimits()
        self._textract = textract
        self._rekognition = rekognition
        self._lock = threading.Lock()

    def configure(self, *, limits: QualityLimits, region: str, ocr_engine: str = "auto") -> None:
        self.limits = limits
        if region != self.region:
            with self._lock:
                self.region = region
                self._textract = self._rekognition = None

    def _client(self, service: str):
        attribute = f"_{service}"
        client = getattr(self, attribute)
        if client is None:
            with self._lock:
                client = getattr(self, attribute)
                if client is None:
                    import boto3

                    client = boto3.session.Session().client(service, region_name=self.region)
                    setattr(self, attribute, client)
        return client

    def versions(self) -> dict[str, str]:
        try:
            boto = metadata.version("boto3")
        except metadata.PackageNotFoundError:
            boto = "unknown"
        return {
            "provider": "aws",
            "region": self.region,
            "boto3": boto,
            "ocr": "textract AnalyzeID",
            "faces": "rekognition CompareFaces/DetectFaces",
        }

    def thresholds(self) -> dict[str, float]:
        values = self.limits.as_dict()
        values.update(
            {
                "aws_min_sharpness": AWS_MIN_SHARPNESS,
                "aws_brightness_low": AWS_BRIGHTNESS_RANGE[0],
                "aws_brightness_high": AWS_BRIGHTNESS_RANGE[1],
                "aws_min_face_confidence": AWS_MIN_FACE_CONFIDENCE,
                "compare_similarity_threshold": 0.0,
            }
        )
        return values

    # quality

    def check_quality(self, image: bytes, *, role: Role) -> QualityReport:
        try:
            decoded = load_image(image)
        except EngineError as exc:
            return quality.not_an_image(role, str(exc))
        rgb = np.asarray(decoded)
        height, width = rgb.shape[:2]
        if role == "idBack":
            issues = quality.back_issues(rgb, limits=self.limits)
            return quality.report(role, issues=issues, faces=(), width=width, height=height)
        try:
            answer = self._client("rekognition").detect_faces(
                Image={"Bytes": _bytes_for_rekognition(image, decoded)}, Attributes=["DEFAULT"]
            )
        except _client_errors() as exc:
            raise FaceComparisonFailed(
                f"Face comparison failed: Rekognition could not check the {IMAGE_NAMES[role]} ({_error_text(exc)}).",
                retryable=is_retryable(exc),
            ) from None
        details = [d for d in answer.get("FaceDetails", []) if d.get("Confidence", 0) >= AWS_MIN_FACE_CONFIDENCE]
        faces = tuple(
            sorted(
                (_face_report(detail, rgb, role) for detail in details),
                key=lambda f: f.box.width * f.box.height,
                reverse=True,
            )
        )
        issues = quality.face_issues(
            faces, role=role, limits=self.limits, sharpness_low=AWS_MIN_SHARPNESS, brightness_range=AWS_BRIGHTNESS_RANGE
        )
        return quality.report(role, issues=issues, faces=faces, width=width, height=height)

    # faces

    def compare_faces(self, source: bytes, target: bytes) -> FaceComparison:
        images = []
        for data, role in ((source, "idFront"), (target, "selfie")):
            try:
                images.append(load_image(data))
            except EngineError as exc:
                raise FaceComparisonFailed(
                    f"Face comparison failed: the {IMAGE_NAMES[role]} is not a usable image ({exc})"
                ) from None
        source_image, target_image = images
        try:
            answer = self._client("rekognition").compare_faces(
                SourceImage={"Bytes": _bytes_for_rekognition(source, source_image)},
                TargetImage={"Bytes": _bytes_for_rekognition(target, target_image)},
                SimilarityThreshold=0,
            )
        except _client_errors() as exc:
            text = _error_text(exc)
            if "InvalidParameter" in text:
                # Rekognition answers this when either image has no face, without saying which
                raise FaceComparisonFailed(
                    f"Face comparison failed: no face was found in the ID photo or in the selfie ({text})."
                ) from None
            raise FaceComparisonFailed(f"Face comparison failed: {text}.", retryable=is_retryable(exc)) from None
        matches = answer.get("FaceMatches") or []
        if not matches:
            raise FaceComparisonFailed("Face comparison failed: no face was found in the selfie.")
        best = max(
            matches, key=lambda m: m["Face"]["BoundingBox"].get("Width", 0) * m["Face"]["BoundingBox"].get("Height", 0)
        )
        source_detail = answer.get("SourceImageFace") or {}
        source_face = _face_report(source_detail, np.asarray(source_image), "idFront") if source_detail else None
        target_face = _face_report(best["Face"], np.asarray(target_image), "selfie")
        confidences = [float(best["Face"].get("Confidence", 0.0))]
        if source_detail:
            confidences.append(float(source_detail.get("Confidence", 0.0)))
        return FaceComparison(
            similarity=float(best.get("Similarity", 0.0)),
            confidence=min(confidences),
            distance=None,
            source_face=source_face,
            target_face=target_face,
            source_embedding=None,
            target_embedding=None,
        )

    def embed_face(self, image: bytes) -> tuple[float, ...] | None:
        return None

    # text

    def extract_text(self, id_front: bytes, id_back: bytes | None = None) -> OcrResult:
        pages = []
        for data, which in ((id_front, "front of the ID"), (id_back, "back of the ID")):
            if data is None:
                continue
            try:
                load_image(data)
            except EngineError as exc:
                raise OcrFailed(f"OCR extraction failed: the {which} could not be read ({exc})") from None
            pages.append({"Bytes": data})
        try:
            answer = self._client("textract").analyze_id(DocumentPages=pages)
        except _client_errors() as exc:
            raise OcrFailed(
                f"OCR extraction failed: Textract answered {_error_text(exc)}.", retryable=is_retryable(exc)
            ) from None
        return self._ocr_result(answer)

    def _ocr_result(self, answer: dict) -> OcrResult:
        lines: list[list[Word]] = []
        raw: list[str] = []
        mrz, mrz_confidence = "", 0.0
        for document in answer.get("IdentityDocuments", []):
            for entry in document.get("IdentityDocumentFields", []):
                kind = (entry.get("Type") or {}).get("Text", "")
                detection = entry.get("ValueDetection") or {}
                text = (detection.get("Text") or "").strip()
                confidence = float(detection.get("Confidence", 0.0))
                if not text:
                    continue
                raw.append(f"{kind}: {text}")
                if kind == "MRZ_CODE" and not mrz:
                    mrz, mrz_confidence = text, confidence
                name = _TEXTRACT_FIELDS.get(kind)
                if name is None:
                    continue
                normalised = (detection.get("NormalizedValue") or {}).get("Value")
                if name in ("dateOfBirth", "expiryDate") and normalised:
                    text = normalised[:10]  # "1961-08-04T00:00:00"
                # one synthetic line per field, in the label-value form the parser reads
                label = {
                    "firstName": "First name",
                    "lastName": "Last name",
                    "idNumber": "ID No",
                    "dateOfBirth": "Date of Birth",
                    "expiryDate": "Date of Expiry",
                }[name]
                lines.append([Word(part, 100.0) for part in label.split()] + [Word(text, confidence)])
        sex, nationality = parse_mrz(mrz) if mrz else ("", "")
        if sex:
            lines.append([Word("Sex"), Word(sex, mrz_confidence)])
        if nationality:
            lines.append([Word("Nationality"), Word(nationality, mrz_confidence)])
        parsed = id_fields.parse_lines(lines)
        # the labels are ours: only the value words carry Textract's confidences
        return ocr.result_from_parsed(parsed, "\n".join(raw))
