"""Migration 0011 turns the draft edits recorded only in the audit log (before SARDraftEdit) into rows, so the
reports in progress that day get four eyes on their content too."""

from importlib import import_module

import pytest
from django.apps import apps

from backoffice.audit import audit_record
from backoffice.models import AuditLog
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SARDraftEdit
from compliance.sars.services.sar_drafts import sar_update
from compliance.sars.tests.sar.helpers import file_sar, move

pytestmark = pytest.mark.django_db

migration = import_module("compliance.migrations.0014_sar_draft_edits_and_filed_exports")


def test_edits_in_the_audit_log_become_rows_and_keep_their_editor_out_of_review(subject, crew):
    from backoffice.errors import FourEyesRequired

    sar = file_sar(subject, crew["filer"])
    sar_update(sar=sar, actor=crew["reviewer"], amount_involved=sar.amount_involved + 1)
    entry = AuditLog.objects.get(action="sar.update", object_id=str(sar.pk))
    SARDraftEdit.objects.all().delete()  # as the database stood before the migration

    migration.edits_from_the_audit_log(apps, None)

    [edit] = SARDraftEdit.objects.filter(sar=sar)
    assert edit.author == crew["reviewer"] and edit.fields == ["amount_involved"]
    assert edit.created_at == entry.created_at
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    with pytest.raises(FourEyesRequired):
        move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)


def test_entries_of_sars_no_longer_there_are_skipped(crew):
    audit_record(
        actor=crew["filer"], action="sar.update", object_type="sar", object_id="00000000-0000-0000-0000-000000000000"
    )
    migration.edits_from_the_audit_log(apps, None)
    assert not SARDraftEdit.objects.exists()
