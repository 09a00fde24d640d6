"""Identity verification: which provider runs (docs/verification-engine.md), its quality limits, where images
may be fetched from.

Unset limits (None) keep the engine's own defaults, read where the limits are used
(``verification.engine.quality``, through ``verification.engine.providers.get_provider``): the foundation does
not import the engine. The limits in use are recorded on every job with the provider's versions, so a decision
can be explained later with the limits it was made under.
"""

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_choice, env_float, env_int, env_list, env_str

# local: dlib and tesseract on this machine, no network; aws: Textract and Rekognition
VERIFICATION_PROVIDER = env_choice("VERIFICATION_PROVIDER", "local", {"local", "aws"})
# the local provider's OCR: tesseract (the Debian package tesseract-ocr), rapidocr (models in the wheel), or
# auto: tesseract when its binary is on the PATH, else rapidocr (docs/verification-engine.md, "Text extraction")
VERIFICATION_OCR_ENGINE = env_choice("VERIFICATION_OCR_ENGINE", "auto", {"auto", "tesseract", "rapidocr"})
# hosts (host or host:port) the test endpoints may fetch images from, besides this service's own storage
VERIFICATION_ALLOWED_IMAGE_HOSTS = [host.lower() for host in env_list("VERIFICATION_ALLOWED_IMAGE_HOSTS", [])]
VERIFICATION_AWS_REGION = env_str("VERIFICATION_AWS_REGION") or env_str("AWS_DEFAULT_REGION") or "af-south-1"

# Quality gate; None keeps the engine's default. Local scales: pixels, variance of the Laplacian,
# mean luminance 0-255, share of the image 0-1.
VERIFICATION_MIN_FACE_PX_SELFIE = env_float("VERIFICATION_MIN_FACE_PX_SELFIE", None, minimum=20, maximum=4000)
VERIFICATION_MIN_FACE_PX_ID = env_float("VERIFICATION_MIN_FACE_PX_ID", None, minimum=20, maximum=4000)
VERIFICATION_MIN_SHARPNESS = env_float("VERIFICATION_MIN_SHARPNESS", None, minimum=0.0)
VERIFICATION_MAX_GLARE = env_float("VERIFICATION_MAX_GLARE", None, minimum=0.0, maximum=1.0)


def _brightness_range(name: str) -> tuple[float, float] | None:
    parts = env_list(name, [])
    if not parts:
        return None
    try:
        low, high = (float(part) for part in parts)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be two numbers LOW,HIGH between 0 and 255, got {parts!r}") from None
    if not 0 <= low < high <= 255:
        raise ImproperlyConfigured(f"{name} must be LOW,HIGH with 0 <= LOW < HIGH <= 255, got {low},{high}")
    return (low, high)


# mean luminance of the face, LOW,HIGH
VERIFICATION_BRIGHTNESS_RANGE = _brightness_range("VERIFICATION_BRIGHTNESS_RANGE")

# ---------------------------------------------------------------- jobs: the decision, duplicates, claims

# The interface's decision by face similarity (0..100): at least APPROVE approves, from REVIEW up to APPROVE
# goes to a person, below REVIEW rejects.
VERIFICATION_APPROVE_SIMILARITY = env_float("VERIFICATION_APPROVE_SIMILARITY", 80.0, minimum=0.0, maximum=100.0)
VERIFICATION_REVIEW_SIMILARITY = env_float("VERIFICATION_REVIEW_SIMILARITY", 60.0, minimum=0.0, maximum=100.0)
# A verified user's face this alike (0..100) is reported as a possible duplicate identity. Stricter than the
# approval threshold: the 1:N search compares against every verified user, and each comparison is a chance of
# a false match.
VERIFICATION_DUPLICATE_FACE_SIMILARITY = env_float(
    "VERIFICATION_DUPLICATE_FACE_SIMILARITY", 85.0, minimum=0.0, maximum=100.0
)
# Two images whose 64-bit difference hashes differ in at most this many bits are "the same image" (re-encoded,
# resized, lightly edited).
VERIFICATION_IMAGE_HASH_DISTANCE = env_int("VERIFICATION_IMAGE_HASH_DISTANCE", 6, minimum=0, maximum=32)
# The same for ID images, stricter: cards share a printed template, so different cards are only a few bits
# apart (docs/verification.md, "Duplicate identities").
VERIFICATION_ID_IMAGE_HASH_DISTANCE = env_int("VERIFICATION_ID_IMAGE_HASH_DISTANCE", 2, minimum=0, maximum=32)
# A job left PROCESSING this long (its worker died) may be claimed again by the next run.
VERIFICATION_STALE_CLAIM_SECONDS = env_int("VERIFICATION_STALE_CLAIM_SECONDS", 600, minimum=10, maximum=86400)
# How often beat looks for such jobs and sends them to a worker again (seconds).
VERIFICATION_REQUEUE_SECONDS = env_int("VERIFICATION_REQUEUE_SECONDS", 60, minimum=5, maximum=86400)
if VERIFICATION_REVIEW_SIMILARITY > VERIFICATION_APPROVE_SIMILARITY:
    raise ImproperlyConfigured("VERIFICATION_REVIEW_SIMILARITY must not be above VERIFICATION_APPROVE_SIMILARITY")
