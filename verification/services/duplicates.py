"""Duplicate identities: the same ID number, the same face or the same image on another user.

Each finding is ``{"type", "user_id", "score", "detail"}``. The face search compares the selfie's descriptor
with the stored descriptors of verified users (one numpy matrix product); the image search compares exact
hashes through the database index and difference hashes by Hamming distance.
"""

import numpy as np
from django.conf import settings

from kyc.choices import VerificationStatus
from kyc.identity import id_number_key
from kyc.selectors.users import users_with_id_number
from verification.choices import DuplicateType, ImageRole
from verification.models import FaceTemplate, ImageFingerprint, VerificationJob

FLOAT32 = np.dtype("<f4")


def vector_bytes(vector) -> bytes:
    return np.asarray(vector, dtype=FLOAT32).tobytes()


def signed64(value: int) -> int:
    """A 64-bit hash as the database's signed bigint."""
    return value - (1 << 64) if value >= (1 << 63) else value


def unsigned64(value: int) -> int:
    return value + (1 << 64) if value < 0 else value


def by_id_number(*, user, id_number: str) -> list[dict]:
    """Other users with this ID number: on their profile, or read on any check of theirs.

    A check's number counts whatever became of the check (pending, waiting for review, rejected): several
    accounts submitting one number at once have it on no verified profile yet. Compared through
    ``kyc.identity.id_number_key``, the one normalisation of ID numbers.
    """
    key = id_number_key(id_number)
    if not key:
        return []
    found = dict.fromkeys(users_with_id_number(id_number=id_number, exclude_user_id=user.pk), "on their profile")
    read = (
        VerificationJob.objects.filter(id_number_key=key, user__isnull=False)
        .exclude(user_id=user.pk)
        .order_by("-created_at")
        .values_list("user_id", flat=True)
    )
    for other in read[:100]:
        found.setdefault(other, "read on a verification check of theirs")
    return [
        {
            "type": DuplicateType.ID_NUMBER.value,
            "user_id": str(other),
            "score": None,
            "detail": f"ID number {id_number} {where}",
        }
        for other, where in list(found.items())[:20]
    ]


def by_face(*, user, engine: str, vector, similarity_of) -> list[dict]:
    """Verified users whose stored face is at least VERIFICATION_DUPLICATE_FACE_SIMILARITY alike."""
    if vector is None:
        return []
    rows = list(
        FaceTemplate.objects.filter(engine=engine, user__verification_status=VerificationStatus.VERIFIED)
        .exclude(user_id=user.pk)
        .values_list("user_id", "vector")
    )
    if not rows:
        return []
    matrix = np.frombuffer(b"".join(bytes(v) for _, v in rows), dtype=FLOAT32).reshape(len(rows), -1)
    distances = np.linalg.norm(matrix - np.asarray(vector, dtype=FLOAT32), axis=1)
    best: dict = {}
    for (other, _), distance in zip(rows, distances, strict=True):
        score = similarity_of(float(distance))
        if score >= settings.VERIFICATION_DUPLICATE_FACE_SIMILARITY and score > best.get(other, -1):
            best[other] = score
    return [
        {"type": DuplicateType.FACE.value, "user_id": str(other), "score": round(score, 1), "detail": "Same face"}
        for other, score in sorted(best.items(), key=lambda item: -item[1])[:20]
    ]


# Images are compared with images of the same kind: an ID image with ID images, a selfie with selfies.
ID_ROLES = (ImageRole.ID_FRONT.value, ImageRole.ID_BACK.value)
SELFIE_ROLES = (ImageRole.SELFIE.value,)


def _group(role: str) -> tuple[str, ...]:
    return SELFIE_ROLES if role in SELFIE_ROLES else ID_ROLES


def _hash_limit(role: str) -> int:
    """How many bits apart two difference hashes may be and still be "the same image".

    ID cards share a printed template, so the hashes of two different people's cards are only a few bits
    apart (measured on our rendered cards: 7 to 10 bits between different people; 1 to 3 between two cards with
    the same portrait and other text, which at 1 or 2 bits is flagged: the same photo under two names is a
    signal, not noise); for them only a near-identical image counts. Selfies are natural
    photographs whose hashes spread over the whole range.
    """
    if role in SELFIE_ROLES:
        return settings.VERIFICATION_IMAGE_HASH_DISTANCE
    return settings.VERIFICATION_ID_IMAGE_HASH_DISTANCE


def by_image(*, user, hashes: dict) -> list[dict]:
    """Other users with the same image: equal sha256, or difference hashes a few bits apart.

    ``hashes``: ``{role: ImageHashes}`` of this job's images.
    """
    found: dict = {}
    others = ImageFingerprint.objects.exclude(user_id=user.pk)
    for role, h in hashes.items():
        for other in others.filter(sha256=h.sha256).values_list("user_id", flat=True)[:20]:
            found.setdefault(other, {"score": 100.0, "detail": f"The {role} is the same file as one of theirs"})
    for role, h in hashes.items():
        rows = list(others.filter(role__in=_group(role)).values_list("user_id", "dhash"))
        if not rows:
            continue
        stored = np.array([unsigned64(dhash) for _, dhash in rows], dtype=np.uint64)
        # popcount of the xor: the Hamming distance to every stored image at once
        bits = np.unpackbits((stored ^ np.uint64(h.dhash)).view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1)
        for index in np.flatnonzero(bits <= _hash_limit(role)):
            other, distance = rows[index][0], int(bits[index])
            if other not in found:
                score = round(100.0 * (1 - distance / 64), 1)
                found[other] = {
                    "score": score,
                    "detail": f"The {role} looks the same as one of theirs ({distance} bits apart)",
                }
    return [
        {"type": DuplicateType.IMAGE.value, "user_id": str(other), **value} for other, value in list(found.items())[:20]
    ]
