"""The sanctions lists' admin pages (lists, versions, entries and their history, uploads) cost the same number of
queries however many lists, versions and entries there are."""

import itertools

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat
from backoffice.tests.factories import StaffFactory
from compliance.sanctions.models.lists import (
    ListVersion,
    SanctionsEntry,
    SanctionsEntryChange,
    SanctionsImport,
    SanctionsList,
)
from compliance.sanctions.tests.helpers import import_file

pytestmark = pytest.mark.django_db

_codes = (f"EU_T{n}" for n in itertools.count(1))


def more_lists(n):
    """``n`` more FtM lists, each a version with its five entries and their history rows."""
    for _ in range(n):
        import_file(next(_codes), "ftm-small.jsonl")


def more_uploads(n):
    staff = StaffFactory()
    for _ in range(n):
        SanctionsImport.objects.create(list_code=next(_codes), created_by=staff, source_files=[])


@pytest.mark.parametrize(
    "model", [SanctionsList, ListVersion, SanctionsEntry, SanctionsEntryChange], ids=lambda m: m.__name__
)
def test_list_pages(model):
    client = admin_browser()
    more_lists(1)
    name = f"admin:compliance_{model._meta.model_name}"
    assert_flat(client, reverse(f"{name}_changelist"), more_lists)
    row = model.objects.order_by("pk").first()
    assert_flat(client, reverse(f"{name}_change", args=[row.pk]), more_lists)


def test_upload_pages():
    client = admin_browser()
    more_uploads(1)
    assert_flat(client, reverse("admin:compliance_sanctionsimport_changelist"), more_uploads)
    row = SanctionsImport.objects.first()
    assert_flat(client, reverse("admin:compliance_sanctionsimport_change", args=[row.pk]), more_uploads)
