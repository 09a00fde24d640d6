"""Helpers of the screening tests: entries written as an import leaves them, and the staff who review."""

import hashlib
import json
import uuid
from decimal import Decimal

import pytest
from django.db.models import F

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sanctions.models import ListVersion, SanctionsEntry, SanctionsList
from compliance.sanctions.selectors.screening import sanctions_index_reset
from kyc.tests.factories import PlatformUserFactory

MATCHES = "/api/v1/admin/aml/sanctions/matches"
SCREEN = "/api/v1/admin/aml/sanctions/screen"


def _hash(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()


def sanctions_list(code: str = "UN") -> SanctionsList:
    listed, _ = SanctionsList.objects.get_or_create(code=code, defaults={"format": "UN_XML"})
    if listed.current_version_id is None:
        version = ListVersion.objects.create(sanctions_list=listed, number=1, sha256="0" * 64)
        listed.current_version = version
        listed.save(update_fields=["current_version"])
    return listed


def make_entry(name: str, *, aliases=(), dates_of_birth=(), nationalities=(), entry_type="INDIVIDUAL", code="UN"):
    """An active entry, and the list's revision moved as an import moves it (every index sees it)."""
    listed = sanctions_list(code)
    entry = SanctionsEntry.objects.create(
        sanctions_list=listed,
        publisher_id=uuid.uuid4().hex[:10],
        reference=f"QDi.{uuid.uuid4().int % 1000:03d}",
        entry_type=entry_type,
        name=name,
        aliases=[{"name": a, "quality": "GOOD"} for a in aliases],
        dates_of_birth=list(dates_of_birth),
        nationalities=list(nationalities),
        programs=["AQ"],
        content_hash=_hash(name, aliases, dates_of_birth, nationalities),
        record_hash=_hash(name),
        version=listed.current_version,
    )
    bump(listed)
    return entry


def change_entry(entry: SanctionsEntry, **fields) -> SanctionsEntry:
    for field, value in fields.items():
        setattr(entry, field, value)
    entry.content_hash = _hash(entry.name, entry.aliases, entry.dates_of_birth, entry.nationalities, "changed")
    entry.save()
    bump(entry.sanctions_list)
    return entry


def bump(listed: SanctionsList) -> None:
    SanctionsList.objects.filter(pk=listed.pk).update(revision=F("revision") + 1)
    sanctions_index_reset()


@pytest.fixture(autouse=True)
def _fresh_index(settings):
    settings.SANCTIONS_INDEX_CHECK_SECONDS = 0
    sanctions_index_reset()
    yield
    sanctions_index_reset()


@pytest.fixture
def officer(db):
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


@pytest.fixture
def mlro(db):
    return StaffFactory(role=StaffRole.MLRO)


@pytest.fixture
def customer(db):
    return PlatformUserFactory(first_name="Amina", last_name="Dlamini", balance=Decimal("1000.00"))
