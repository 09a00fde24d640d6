"""An admin upload's import as a worker runs it: once, whatever the deliveries; its files gone afterwards."""

import pytest

from compliance.sanctions.models import ListVersion, SanctionsImport
from compliance.sanctions.services.background import import_progress, sanctions_import_run, sanctions_import_start
from compliance.sanctions.tests.helpers import fixture

pytestmark = pytest.mark.django_db


def test_a_second_delivery_finds_the_import_taken_and_does_nothing(media, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as sent:
        row = sanctions_import_start(list_code="UN", files={"file": fixture("un-small-v1.xml")}, actor=None)
    assert len(sent) == 1 and row.status == "QUEUED"
    assert import_progress(row) == {"stage": "queued", "done": 0, "total": 0}
    assert sanctions_import_run(import_id=row.pk).status == "COMPLETED"
    assert sanctions_import_run(import_id=row.pk) is None
    row.refresh_from_db()
    assert row.result["added"] == 6 and row.version.number == 1 and ListVersion.objects.count() == 1
    assert not list(media.rglob("sanctions-imports/*/*"))


def test_a_refused_file_fails_the_import_with_its_reason(media, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        row = sanctions_import_start(list_code="UN", files={"file": fixture("un-cut.xml")}, actor=None)
    sanctions_import_run(import_id=row.pk)
    row = SanctionsImport.objects.get(pk=row.pk)
    assert row.status == "FAILED" and "cut off" in row.error and row.result["code"] == "VALIDATION_ERROR"
    assert not ListVersion.objects.exists() and not list(media.rglob("sanctions-imports/*/*"))
