"""Shared pieces of the verification tests: the project's face photos, rendered ID cards and selfies, jobs."""

import datetime as dt
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from kyc.tests.factories import PlatformUserFactory
from verification.engine.cards import render_id_card, render_selfie

FACES = Path(__file__).resolve().parent.parent / "fixtures" / "faces"
JOBS = "/api/v1/verification/jobs"


def face(name: str) -> bytes:
    return (FACES / f"{name}.jpg").read_bytes()


def card(face_name: str = "obama", **fields) -> bytes:
    values = {
        "first_name": "Sipho",
        "last_name": "Dlamini",
        "id_number": "9001015800085",
        "date_of_birth": dt.date(1990, 1, 1),
        "sex": "MALE",
        "expiry_date": dt.date(2031, 5, 4),
        **fields,
    }
    return render_id_card(face=face(face_name), **values)


def selfie(face_name: str = "obama2", **options) -> bytes:
    return render_selfie(face(face_name), **options)


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    content_type = "image/png" if data[:4] == b"\x89PNG" else "image/jpeg"
    return SimpleUploadedFile(name, data, content_type=content_type)


def extension(data: bytes) -> str:
    return ".png" if data[:4] == b"\x89PNG" else ".jpg"


def files(front: bytes, self_: bytes, back: bytes | None = None) -> dict:
    body = {"idFront": upload("front" + extension(front), front), "selfie": upload("selfie" + extension(self_), self_)}
    if back is not None:
        body["idBack"] = upload("back" + extension(back), back)
    return body


@pytest.fixture
def sipho(db):
    """A user whose profile matches the default card (and who has no ID number yet)."""
    return PlatformUserFactory(first_name="Sipho", last_name="Dlamini")


@pytest.fixture
def make_job(media):
    """make_job(user, front=..., selfie=...) -> a PENDING job through the service (images stored as documents)."""
    from verification.services import job_create

    def make(user, *, front: bytes | None = None, self_: bytes | None = None, back: bytes | None = None, actor=None):
        front = front if front is not None else card()
        self_ = self_ if self_ is not None else selfie()
        return job_create(
            user=user,
            id_front=upload("front" + extension(front), front),
            selfie=upload("selfie" + extension(self_), self_),
            id_back=upload("back.png", back) if back is not None else None,
            actor=actor,
        )

    return make
