"""The quality gate: is this photo good enough to read and to compare? Pure numpy on the decoded image.

The detector (local dlib or AWS Rekognition) finds the faces; this module measures them and turns the
measures into issues with a sentence the person can act on. Rules, by role:

* ``idFront`` (the card) and ``selfie``: exactly one face (the card's portrait; the person), at least
  ``min_face_px`` on its shorter side (a card's portrait is small, a selfie's face must be larger), sharp
  enough (variance of the Laplacian of the face, resampled to 128x128 grey so that the figure does not
  depend on the photo's resolution), neither too dark nor too bright (mean luminance of the face), no glare.
* ``idBack``: no face is needed; only glare and blur (the Laplacian of the whole card) are checked.

Glare is the share of near-saturated pixels (all channels >= 250): of the whole image for a card (a flash on
the laminate hides printed fields anywhere), of the face region for a selfie (a white wall behind a person is
not glare). The limits below are defaults; ``backoffice/settings/verification.py`` overrides them and the
provider records the ones it used on each job.
"""

from dataclasses import asdict, dataclass

import numpy as np
from PIL import Image

from verification.engine.types import FaceBox, FaceReport, QualityIssue, QualityReport

MIN_FACE_PX_SELFIE = 120
MIN_FACE_PX_ID = 50
MIN_SHARPNESS = 30.0
BRIGHTNESS_RANGE = (60.0, 210.0)
MAX_GLARE = 0.03
SATURATED = 250
SAMPLE_SIZE = 128
CONTRAST = 50.0

# the words for each role in messages
IMAGE_NAMES = {"idFront": "ID photo", "idBack": "back of the ID", "selfie": "selfie"}


@dataclass(frozen=True)
class QualityLimits:
    """The limits the gate applies; ``local`` scales (pixels, Laplacian variance, luminance 0-255, share 0-1)."""

    min_face_px_selfie: int = MIN_FACE_PX_SELFIE
    min_face_px_id: int = MIN_FACE_PX_ID
    min_sharpness: float = MIN_SHARPNESS
    brightness_low: float = BRIGHTNESS_RANGE[0]
    brightness_high: float = BRIGHTNESS_RANGE[1]
    max_glare: float = MAX_GLARE

    def min_face_px(self, role: str) -> int:
        return self.min_face_px_selfie if role == "selfie" else self.min_face_px_id

    def as_dict(self) -> dict[str, float]:
        return {key: float(value) for key, value in asdict(self).items()}


def grey(image: Image.Image | np.ndarray) -> np.ndarray:
    """Luminance (ITU-R 601) as float32, from a PIL image or an RGB array."""
    array = np.asarray(image, dtype=np.float32)
    if array.ndim == 2:
        return array
    return array[..., 0] * 0.299 + array[..., 1] * 0.587 + array[..., 2] * 0.114


def laplacian_variance(grey_image: np.ndarray) -> float:
    """Variance of the 4-neighbour Laplacian: high for crisp edges, low for a blurred photo."""
    g = grey_image
    if g.shape[0] < 3 or g.shape[1] < 3:
        return 0.0
    lap = -4 * g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
    return float(lap.var())


def glare_share(rgb: np.ndarray) -> float:
    """The share of pixels whose three channels are all near saturation."""
    if rgb.size == 0:
        return 0.0
    return float(np.all(rgb >= SATURATED, axis=-1).mean())


def _crop(rgb: np.ndarray, box: FaceBox) -> np.ndarray:
    height, width = rgb.shape[:2]
    left, top = max(0, box.left), max(0, box.top)
    right, bottom = min(width, box.left + box.width), min(height, box.top + box.height)
    return rgb[top:bottom, left:right]


def _sample(region: np.ndarray) -> np.ndarray:
    """The region as a SAMPLE_SIZE square grey array with its contrast stretched to a standard deviation of
    CONTRAST, so sharpness is compared at one scale and a dark photo is not also called blurred."""
    if region.size == 0:
        return np.zeros((SAMPLE_SIZE, SAMPLE_SIZE), dtype=np.float32)
    image = Image.fromarray(region).resize((SAMPLE_SIZE, SAMPLE_SIZE), Image.Resampling.BILINEAR)
    sample = grey(image)
    spread = float(sample.std())
    if spread < 1.0:  # a flat region: nothing to be sharp
        return np.zeros_like(sample)
    return (sample - sample.mean()) * (CONTRAST / spread)


def measure_face(rgb: np.ndarray, box: FaceBox, *, detection_score: float, role: str) -> FaceReport:
    """Size, sharpness, brightness and glare of one face of the image."""
    region = _crop(rgb, box)
    sample = _sample(region)
    glare = glare_share(region) if role == "selfie" else glare_share(rgb)
    return FaceReport(
        box=box,
        size_px=min(box.width, box.height),
        sharpness=laplacian_variance(sample),
        brightness=float(grey(region).mean()) if region.size else 0.0,
        glare=glare,
        detection_score=float(detection_score),
    )


def _issue(code: str, role: str, message: str, measured: float | None = None, limit: float | None = None):
    return QualityIssue(code=code, role=role, message=message, measured=measured, limit=limit)


def face_issues(
    faces: tuple[FaceReport, ...],
    *,
    role: str,
    limits: QualityLimits,
    sharpness_low: float | None = None,
    brightness_range: tuple[float, float] | None = None,
) -> list[QualityIssue]:
    """The issues of the faces found on a card front or a selfie; ``sharpness_low`` and ``brightness_range``
    replace the local limits when the measures come on another scale (AWS's 0-100)."""
    what = IMAGE_NAMES.get(role, "image")
    issues: list[QualityIssue] = []
    if not faces:
        hint = (
            "photograph the whole card, flat and in focus."
            if role == "idFront"
            else "look straight at the camera, with your face uncovered and in the frame."
        )
        return [_issue("NO_FACE", role, f"No face was found in the {what}: {hint}", 0, 1)]
    if len(faces) > 1:
        hint = (
            "only you should be in the picture."
            if role == "selfie"
            else "photograph only your own card, with nothing else in the frame."
        )
        count = "Two" if len(faces) == 2 else str(len(faces))
        issues.append(_issue("MULTIPLE_FACES", role, f"{count} faces were found in the {what}: {hint}", len(faces), 1))
    face = max(faces, key=lambda f: f.box.width * f.box.height)
    min_px = limits.min_face_px(role)
    if face.size_px < min_px:
        hint = "hold the camera closer to your face." if role == "selfie" else "fill the frame with the card."
        issues.append(
            _issue("FACE_TOO_SMALL", role, f"The face in the {what} is too small: {hint}", face.size_px, min_px)
        )
    low = limits.min_sharpness if sharpness_low is None else sharpness_low
    if face.sharpness < low:
        issues.append(_blurred(role, face.sharpness, low))
    low_b, high_b = brightness_range or (limits.brightness_low, limits.brightness_high)
    if face.brightness < low_b:
        hint = "take it facing a light." if role == "selfie" else "take it in better light."
        issues.append(_issue("TOO_DARK", role, f"The {what} is too dark: {hint}", face.brightness, low_b))
    elif face.brightness > high_b:
        issues.append(
            _issue(
                "TOO_BRIGHT",
                role,
                f"The {what} is too bright: move away from direct light and retake it.",
                face.brightness,
                high_b,
            )
        )
    if face.glare > limits.max_glare:
        issues.append(_glare(role, face.glare, limits.max_glare))
    return issues


def _blurred(role: str, measured: float, limit: float) -> QualityIssue:
    what = IMAGE_NAMES.get(role, "image")
    return _issue("TOO_BLURRY", role, f"The {what} is blurred: hold the camera still and retake it.", measured, limit)


def _glare(role: str, measured: float, limit: float) -> QualityIssue:
    what = IMAGE_NAMES.get(role, "image")
    hint = "tilt the card away from the light or turn off the flash." if role != "selfie" else "turn off the flash."
    return _issue("GLARE", role, f"There is glare on the {what}: {hint}", measured, limit)


def back_issues(rgb: np.ndarray, *, limits: QualityLimits) -> list[QualityIssue]:
    """The back of the card: only blur (of the whole card) and glare."""
    issues = []
    sample = _sample(rgb)
    sharpness = laplacian_variance(sample)
    if sharpness < limits.min_sharpness:
        issues.append(_blurred("idBack", sharpness, limits.min_sharpness))
    glare = glare_share(rgb)
    if glare > limits.max_glare:
        issues.append(_glare("idBack", glare, limits.max_glare))
    return issues


def not_an_image(role: str, reason: str) -> QualityReport:
    """The report for bytes that could not be decoded."""
    what = IMAGE_NAMES.get(role, "image")
    issue = _issue("NOT_AN_IMAGE", role, f"The {what} could not be read as a JPEG or PNG image: {reason}")
    return QualityReport(role=role, passed=False, issues=(issue,), faces=(), width=0, height=0)


def report(
    role: str, *, issues: list[QualityIssue], faces: tuple[FaceReport, ...], width: int, height: int
) -> QualityReport:
    return QualityReport(role=role, passed=not issues, issues=tuple(issues), faces=faces, width=width, height=height)
