"""Demo verification jobs, run through the real engine: one approved, one rejected for another person's face,
one rejected for a dark selfie, one waiting for an officer because it duplicates an approved identity, and
one not yet processed.

Each job belongs to a demo user of its own (kyc's demo makes them: ``kyc.demo.IDENTITY_CANDIDATES``), so
running the seed twice changes nothing: a user who already has a job is left as they are. The faces are the
project's copies of three public photographs (verification/fixtures/faces); the cards are drawn by
``verification.engine.cards``.
"""

import datetime as dt
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.errors import DomainError
from kyc.demo import PASSWORD
from kyc.models import PlatformUser
from verification.engine.cards import render_id_card, render_selfie
from verification.models import VerificationJob
from verification.services import job_create, job_process

FACES = Path(__file__).resolve().parent / "fixtures" / "faces"

# phone, first, last, card face, card id number, selfie face, selfie brightness, process it
CASES = [
    ("+26876300001", "Mandla", "Hlatshwayo", "obama", "8807125800081", "obama2", 1.0, True),
    ("+26876300002", "Musa", "Ginindza", "obama", "7903035800082", "biden", 1.0, True),
    ("+26876300003", "Sabelo", "Tfwala", "biden", "8211205800083", "biden", 0.12, True),
    # the same card as the first user's under another name: held for an officer as a duplicate identity
    ("+26876300004", "Mandla", "Hlatshwayo", "obama", "8807125800081", "obama2", 0.95, True),
    ("+26876300005", "Lwazi", "Fakudze", "biden", "9105055800084", "biden", 1.0, False),
]


def job_error(job) -> str:
    job.refresh_from_db()
    return job.error or "see the job's page"


def _face(name: str) -> bytes:
    return (FACES / f"{name}.jpg").read_bytes()


def seed(stdout) -> None:
    created = 0
    for phone, first, last, card_face, id_number, selfie_face, brightness, process in CASES:
        user = PlatformUser.objects.filter(phone_number=phone).first()
        if user is None:  # kyc's demo makes them (kyc.demo.IDENTITY_CANDIDATES)
            continue
        if VerificationJob.objects.filter(user=user).exists():
            continue
        card = render_id_card(
            face=_face(card_face),
            first_name=first,
            last_name=last,
            id_number=id_number,
            date_of_birth=dt.date(1988, 7, 12),
            sex="MALE",
            expiry_date=dt.date(2032, 3, 31),
        )
        selfie = render_selfie(_face(selfie_face), brightness=brightness)
        job = job_create(
            user=user,
            id_front=SimpleUploadedFile("id-front.png", card, content_type="image/png"),
            selfie=SimpleUploadedFile("selfie.jpg" if selfie[:2] == b"\xff\xd8" else "selfie.png", selfie),
        )
        if process:
            try:
                job_process(job=job)
            except DomainError as error:  # a provider error: the job stays FAILED, the demo goes on
                stdout.write(f"  verification job {job.pk} not processed: {error.message} ({job_error(job)})")
        created += 1
    total = VerificationJob.objects.filter(user__phone_number__in=[case[0] for case in CASES]).count()
    stdout.write(f"Verification jobs: {total} ({created} new; users' password {PASSWORD})")
