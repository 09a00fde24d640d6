"""Shared data for the engine's tests: the three face photos, rendered cards and selfies, one local provider.

The provider (and dlib's models) load once per test session; rendered images are made once too.
"""

from datetime import date
from pathlib import Path

import pytest

from verification.engine.cards import render_id_card, render_selfie
from verification.engine.local import LocalProvider

FACES = Path(__file__).resolve().parents[2] / "fixtures" / "faces"

OBAMA_CARD = {
    "first_name": "Barack",
    "last_name": "Obama",
    "id_number": "6108041234567",
    "date_of_birth": date(1961, 8, 4),
    "sex": "M",
    "expiry_date": date(2030, 1, 31),
}


def face_bytes(name: str) -> bytes:
    return (FACES / f"{name}.jpg").read_bytes()


@pytest.fixture(scope="session")
def local() -> LocalProvider:
    return LocalProvider()


@pytest.fixture(scope="session")
def obama() -> bytes:
    return face_bytes("obama")


@pytest.fixture(scope="session")
def obama2() -> bytes:
    return face_bytes("obama2")


@pytest.fixture(scope="session")
def biden() -> bytes:
    return face_bytes("biden")


@pytest.fixture(scope="session")
def obama_card(obama) -> bytes:
    return render_id_card(face=obama, **OBAMA_CARD)


@pytest.fixture(scope="session")
def obama_selfie(obama2) -> bytes:
    return render_selfie(obama2)


@pytest.fixture(scope="session")
def biden_selfie(biden) -> bytes:
    return render_selfie(biden)
