"""The face and text models remembered per test process, by the exact pixels they were given.

Tests submit the same few card and selfie images hundreds of times (every job test, the demo's seeding), and the
real models (dlib's detector and descriptor, tesseract) were most of those tests' time. Both are deterministic, so
a second look at the same pixels (or the same file) with the same settings gives the same answer: each distinct
image is read by the real model once per process and its answer handed out again after that (a copy, so a
caller's change stays its own). The engine's own tests (``verification/tests/engine``) always run the models,
since they also break them on purpose, and so does a test that replaces a provider's methods (an attribute on the
instance, which this class-level memory never sees).
"""

import copy
import hashlib
import threading
from pathlib import Path

import pytest

ENGINE_TESTS = Path(__file__).resolve().parent / "engine"
_remembered: dict[tuple, object] = {}
_lock = threading.Lock()
_enabled = True


def _pixels(array) -> str:
    return hashlib.blake2b(array.tobytes(), digest_size=20).hexdigest() + f"{array.shape}{array.dtype}"


def _remember(key: tuple, compute, handed_out=copy.deepcopy):
    if not _enabled:
        return compute()
    with _lock:
        known = _remembered.get(key, _remembered)
    if known is _remembered:
        known = compute()  # an error is raised, not remembered: the next call tries again
        with _lock:
            _remembered[key] = known
    return handed_out(known)


def _detections(known):
    # the found faces' reports are frozen and their dlib rectangles only read: a new list is copy enough
    small, found = known
    return small, list(found)


def pytest_configure(config):
    import numpy as np

    from verification.engine import ocr
    from verification.engine.local import LocalProvider

    detect, largest_face, read_lines = LocalProvider._detect, LocalProvider._largest_face, ocr.read_lines

    def remembered_detect(self, rgb, *, role):
        return _remember(("detect", _pixels(rgb), role), lambda: detect(self, rgb, role=role), _detections)

    def remembered_largest_face(self, image, role):
        # the face and its descriptor (from the full-size image): by the file's bytes, which decode to one image
        key = ("largest face", hashlib.blake2b(image, digest_size=20).hexdigest(), role)
        return _remember(key, lambda: largest_face(self, image, role))

    def remembered_read_lines(image, engine="tesseract"):
        key = ("lines", _pixels(np.asarray(image)), image.mode, engine)
        return _remember(key, lambda: read_lines(image, engine))

    LocalProvider._detect = remembered_detect
    LocalProvider._largest_face = remembered_largest_face
    ocr.read_lines = remembered_read_lines


@pytest.fixture(autouse=True)
def _engine_tests_run_the_models(request):
    global _enabled
    _enabled = not Path(str(request.node.path)).resolve().is_relative_to(ENGINE_TESTS)
    yield
    _enabled = True
