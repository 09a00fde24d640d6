"""The local provider: dlib's face models and tesseract or RapidOCR, on this machine, with no network and no account.

* Faces: dlib's HOG frontal face detector, its 5-point shape predictor and its ResNet descriptor (128 floats;
  two photos of one person are usually under 0.6 apart). The model files come from the
  ``face_recognition_models`` package. They load on first use, once per process, under a lock, so importing
  this module costs nothing.
* Photos are downscaled before detection (detection time grows with the pixels; the descriptor does not need
  more than a ~150 px face). The detector runs without upsampling first (it finds faces from ~80 px) and, when it
  finds none, once more upsampled 2x (faces from ~40 px: a small portrait on a card, a person far away), so a
  small face is reported as too small rather than missing.
* Text: ``verification.engine.ocr`` (tesseract or RapidOCR, ``VERIFICATION_OCR_ENGINE``),
  ``verification.engine.id_fields`` and ``verification.engine.mrz``.
"""

import threading
from importlib import metadata

import numpy as np

from verification.engine import ocr, quality
from verification.engine.errors import EngineError, FaceComparisonFailed
from verification.engine.images import downscale, load_image
from verification.engine.providers import SIMILARITY_BREAKPOINTS, face_distance_to_similarity
from verification.engine.quality import IMAGE_NAMES, QualityLimits
from verification.engine.types import FaceBox, FaceComparison, FaceReport, OcrResult, QualityReport, Role

# longest side of the image the detector sees: 1000 px keeps a card's portrait above the detector's minimum
# at no upsampling and takes ~0.05 s per image (docs/verification-engine.md, "Measured")
DETECT_LONGEST_SIDE = 1000
# dlib's own operating point: a HOG window scoring above 0 is a face
DETECTION_THRESHOLD = 0.0
# random re-crops averaged per descriptor: 10 brought Biden's card and selfie from 0.572 to 0.511 apart but
# cost 10x (~1 s per face on this machine); 0 keeps a job under its time target (docs/verification-engine.md)
DESCRIPTOR_JITTERS = 0


class _Models:
    def __init__(self):
        import dlib
        import face_recognition_models

        self.dlib = dlib
        self._per_thread = threading.local()
        self.shape_predictor = dlib.shape_predictor(face_recognition_models.pose_predictor_five_point_model_location())
        self.encoder = dlib.face_recognition_model_v1(face_recognition_models.face_recognition_model_location())
        # the ResNet keeps each layer's output in the network object: one forward pass at a time
        self.encoder_lock = threading.Lock()

    @property
    def detector(self):
        """This thread's HOG detector. dlib's object_detector must not be used by two threads at once (its
        documentation: concurrent access needs a lock); shared, two comparisons at once crashed the process (a
        test's xdist worker died in a full run). The model is built in and takes ~0.2 s to make, once per thread."""
        detector = getattr(self._per_thread, "detector", None)
        if detector is None:
            detector = self._per_thread.detector = self.dlib.get_frontal_face_detector()
        return detector


_models: _Models | None = None
_models_lock = threading.Lock()


def models() -> _Models:
    """dlib's detector, shape predictor and descriptor network, loaded once per process."""
    global _models
    if _models is None:
        with _models_lock:
            if _models is None:
                _models = _Models()
    return _models


class _Detected:
    """A face found by the detector: its report (in original pixels) and the dlib rectangle in the small image."""

    __slots__ = ("report", "rect")

    def __init__(self, report: FaceReport, rect):
        self.report = report
        self.rect = rect


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


class LocalProvider:
    name = "local"

    def __init__(self, limits: QualityLimits | None = None, ocr_engine: str = "auto"):
        self.limits = limits or QualityLimits()
        self.ocr_engine = ocr.engine_name(ocr_engine)

    def configure(self, *, limits: QualityLimits, region: str, ocr_engine: str = "auto") -> None:
        self.limits = limits
        self.ocr_engine = ocr.engine_name(ocr_engine)

    def versions(self) -> dict[str, str]:
        return {
            "provider": "local",
            "dlib": _version("dlib-bin"),
            "face_detector": "dlib HOG frontal_face_detector",
            "face_descriptor": "dlib_face_recognition_resnet_model_v1",
            "shape_predictor": "shape_predictor_5_face_landmarks",
            "face_recognition_models": _version("face_recognition_models"),
            "ocr_engine": self.ocr_engine,
            **(
                {"tesseract": ocr.tesseract_version(), "pytesseract": _version("pytesseract")}
                if self.ocr_engine == "tesseract"
                else {"rapidocr_onnxruntime": ocr.rapidocr_version(), "onnxruntime": _version("onnxruntime")}
            ),
        }

    def thresholds(self) -> dict[str, float]:
        values = self.limits.as_dict()
        values["detection_threshold"] = DETECTION_THRESHOLD
        for distance, similarity in SIMILARITY_BREAKPOINTS:
            values[f"similarity_at_distance_{distance:.2f}"] = similarity
        return values

    # faces

    def _detect(self, rgb: np.ndarray, *, role: str) -> tuple[np.ndarray, list[_Detected]]:
        """The faces of the image, largest first, and the downscaled array they were found in."""
        m = models()
        from PIL import Image

        small_image, factor = downscale(Image.fromarray(rgb), DETECT_LONGEST_SIDE)
        small = np.ascontiguousarray(np.asarray(small_image))
        rects, scores, _ = m.detector.run(small, 0, DETECTION_THRESHOLD)
        if not len(rects):
            rects, scores, _ = m.detector.run(small, 1, DETECTION_THRESHOLD)
        found = []
        height, width = rgb.shape[:2]
        for rect, score in zip(rects, scores, strict=False):
            left = max(0, round(rect.left() * factor))
            top = max(0, round(rect.top() * factor))
            right = min(width, round((rect.right() + 1) * factor))
            bottom = min(height, round((rect.bottom() + 1) * factor))
            box = FaceBox(left=left, top=top, width=max(0, right - left), height=max(0, bottom - top))
            report = quality.measure_face(rgb, box, detection_score=score, role=role)
            found.append(_Detected(report, rect))
        found.sort(key=lambda d: d.report.box.width * d.report.box.height, reverse=True)
        return small, found

    def _descriptor(self, rgb: np.ndarray, detected: _Detected) -> tuple[float, ...]:
        """The 128-float descriptor of a face, from the full-resolution image: the landmarks and the 150 px
        aligned chip (padding 0.25, what ``compute_face_descriptor`` cuts) come from every pixel the photo has,
        not from the downscaled detection image (measured: equal for cards and selfies of at most 1000 px, 0.012
        closer for a 970x2204 photo; docs/verification-engine.md, "Similarity")."""
        m = models()
        box = detected.report.box
        rect = m.dlib.rectangle(box.left, box.top, box.left + box.width - 1, box.top + box.height - 1)
        image = np.ascontiguousarray(rgb)
        shape = m.shape_predictor(image, rect)
        with m.encoder_lock:
            descriptor = m.encoder.compute_face_descriptor(image, shape, DESCRIPTOR_JITTERS)
        return tuple(float(x) for x in descriptor)

    def check_quality(self, image: bytes, *, role: Role) -> QualityReport:
        try:
            rgb = np.asarray(load_image(image))
        except EngineError as exc:
            return quality.not_an_image(role, str(exc))
        height, width = rgb.shape[:2]
        if role == "idBack":
            issues = quality.back_issues(rgb, limits=self.limits)
            return quality.report(role, issues=issues, faces=(), width=width, height=height)
        _, found = self._detect(rgb, role=role)
        faces = tuple(d.report for d in found)
        issues = quality.face_issues(faces, role=role, limits=self.limits)
        return quality.report(role, issues=issues, faces=faces, width=width, height=height)

    def _largest_face(self, image: bytes, role: str) -> tuple[FaceReport, tuple[float, ...]] | None:
        rgb = np.asarray(load_image(image))
        _, found = self._detect(rgb, role=role)
        if not found:
            return None
        return found[0].report, self._descriptor(rgb, found[0])

    def compare_faces(self, source: bytes, target: bytes) -> FaceComparison:
        faces = []
        for data, role in ((source, "idFront"), (target, "selfie")):
            try:
                face = self._largest_face(data, role)
            except EngineError as exc:  # not an image, too large
                raise FaceComparisonFailed(
                    f"Face comparison failed: the {IMAGE_NAMES[role]} is not a usable image ({exc})"
                ) from None
            except Exception as exc:  # dlib raises RuntimeError on odd input
                raise FaceComparisonFailed(f"Face comparison failed on the {IMAGE_NAMES[role]}: {exc}") from None
            if face is None:
                raise FaceComparisonFailed(f"Face comparison failed: no face was found in the {IMAGE_NAMES[role]}.")
            faces.append(face)
        (source_face, source_vec), (target_face, target_vec) = faces
        distance = float(np.linalg.norm(np.asarray(source_vec) - np.asarray(target_vec)))
        # how sure the detector was of the weaker of the two faces: 50 at its threshold, 100 from a score of 1
        weakest = min(source_face.detection_score, target_face.detection_score)
        confidence = float(np.clip(50.0 + 50.0 * weakest, 0.0, 100.0))
        return FaceComparison(
            similarity=face_distance_to_similarity(distance),
            confidence=confidence,
            distance=distance,
            source_face=source_face,
            target_face=target_face,
            source_embedding=source_vec,
            target_embedding=target_vec,
        )

    def embed_face(self, image: bytes) -> tuple[float, ...] | None:
        try:
            face = self._largest_face(image, "selfie")
        except EngineError:
            return None
        return None if face is None else face[1]

    # text

    def extract_text(self, id_front: bytes, id_back: bytes | None = None) -> OcrResult:
        return ocr.extract(id_front, id_back, engine=self.ocr_engine)
