"""Importing versions: the delta against the last, all or nothing, the same file twice, a shrink, the hook."""

import pytest
from django.db import connection

from backoffice.models import AuditLog
from compliance.sanctions import hooks
from compliance.sanctions.errors import ListShrink, UnreadableListFile
from compliance.sanctions.models import ListVersion, SanctionsEntry, SanctionsEntryChange, SanctionsList
from compliance.sanctions.selectors.lists import sanctions_revision
from compliance.sanctions.services.imports import sanctions_import
from compliance.sanctions.tests.helpers import fixture, import_file

pytestmark = pytest.mark.django_db


def _state():
    """Everything an import may write, to compare before and after a refused one."""
    return (
        list(SanctionsList.objects.values_list("code", "current_version_id", "revision")),
        list(ListVersion.objects.values_list("pk", flat=True)),
        sorted(SanctionsEntry.objects.values_list("publisher_id", "content_hash", "record_hash", "removed_at")),
        SanctionsEntryChange.objects.count(),
    )


@pytest.fixture
def calls():
    seen = []

    def handler(**kwargs):
        seen.append(kwargs)
        return {"usersScanned": 7, "matchesCreated": 1}

    hooks.entries_changed.register(handler)
    yield seen
    hooks.entries_changed._functions.remove(handler)


def test_the_first_version_adds_everything(calls):
    result = import_file("UN", "un-small-v1.xml")
    assert (result.entries, result.added, result.removed, result.changed, result.unchanged) == (6, 6, 0, 0, 0)
    version = result.version
    assert version.number == 1 and len(version.sha256) == 64 and version.source_files == ["un-small-v1.xml"]
    assert (version.individuals, version.entities) == (4, 2)
    sipho = SanctionsEntry.objects.get(reference="QDi.901")
    assert sipho.name == "SIPHO BHEKI DLAMINI" and sipho.version == version
    assert sipho.aliases == [{"name": "Sipho the Fixer", "quality": "LOW", "kind": "aka"}]
    assert SanctionsEntry.objects.get(reference="QDi.903").dates_of_birth == ["1960/1962"]
    assert SanctionsEntry.objects.get(reference="QDi.904").dates_of_birth == ["1975"]
    assert sipho.history.get().kind == "ADDED"
    assert len(calls) == 1 and len(calls[0]["added_ids"]) == 6 and calls[0]["list_code"] == "UN"
    assert result.screening == {"usersScanned": 7, "matchesCreated": 1, "matchesReopened": 0, "matchesClosed": 0}
    assert AuditLog.objects.filter(action="sanctions_list.import").count() == 1


def test_a_second_version_counts_added_removed_changed_unchanged(calls):
    import_file("UN", "un-small-v1.xml")
    revision = sanctions_revision()
    result = import_file("UN", "un-small-v2.xml")
    assert (result.entries, result.added, result.removed, result.changed, result.unchanged) == (6, 1, 1, 1, 4)
    version = result.version
    assert version.number == 2
    removed = SanctionsEntry.objects.get(reference="QDi.903")
    assert removed.removed_at is not None and removed.version == version
    changed = SanctionsEntry.objects.get(reference="QDi.902")
    assert [a["name"] for a in changed.aliases] == ["Thandiwe Zwane", "Nomsa Zwane"]
    change = changed.history.get(version=version)
    assert change.kind == "CHANGED" and change.screening_relevant and set(change.changes) == {"aliases"}
    # a new programme alone is kept and shown, but re-screens nobody
    quiet = SanctionsEntry.objects.get(reference="QDi.904")
    assert quiet.programs == ["Taliban"] and quiet.version.number == 1
    assert not quiet.history.get(version=version).screening_relevant
    last = calls[-1]
    assert last["changed_ids"] == [changed.pk] and last["removed_ids"] == [removed.pk]
    assert last["added_ids"] == [SanctionsEntry.objects.get(reference="QDi.905").pk]
    assert sanctions_revision() == revision + 1


def test_a_removed_entry_listed_again_is_added_back():
    import_file("UN", "un-small-v1.xml")
    import_file("UN", "un-small-v2.xml")
    result = import_file("UN", "un-small-v1.xml")
    assert (result.added, result.removed, result.changed) == (1, 1, 1)
    back = SanctionsEntry.objects.get(reference="QDi.903")
    assert back.removed_at is None
    assert list(back.history.values_list("kind", flat=True)) == ["ADDED", "REMOVED", "ADDED"]


def test_the_same_file_again_changes_nothing_and_screens_nothing(calls):
    import_file("UN", "un-small-v1.xml")
    before = _state()
    result = import_file("UN", "un-small-v1.xml")
    assert (result.entries, result.added, result.removed, result.changed, result.unchanged) == (6, 0, 0, 0, 6)
    assert result.version is None and _state() == before and len(calls) == 1


@pytest.mark.parametrize(
    "code, name",
    [
        ("UN", "un-cut.xml"),
        ("UN", "empty.xml"),
        ("UN", "un-wrong-root.xml"),
        ("UN", "un-billion-laughs.xml"),
        ("UN", "ofac-small-sdn.csv"),
        ("OFAC", "un-small-v1.xml"),
        ("OFAC", "ofac-cut.csv"),
        ("EU_FSF", "ftm-cut.jsonl"),
    ],
)
def test_a_refused_file_leaves_the_list_exactly_as_it_was(code, name):
    import_file("UN", "un-small-v1.xml")
    import_file("OFAC", "ofac-small-sdn.csv")
    before = _state()
    with pytest.raises(UnreadableListFile) as caught:
        import_file(code, name)
    assert caught.value.status == 400 and caught.value.code == "VALIDATION_ERROR"
    assert caught.value.details and caught.value.message.startswith("The file file cannot be imported")
    assert _state() == before


def test_more_than_half_removed_is_refused_unless_allowed():
    import_file("UN", "un-small-v1.xml")
    before = _state()
    with pytest.raises(ListShrink) as caught:
        import_file("UN", "un-small-shrink.xml")
    assert caught.value.status == 409 and caught.value.code == "LIST_SHRINK"
    assert _state() == before
    result = import_file("UN", "un-small-shrink.xml", allow_shrink=True)
    assert (result.entries, result.removed) == (2, 4) and result.version.allowed_shrink


def test_a_dry_run_counts_and_writes_nothing():
    result = import_file("UN", "un-small-v1.xml", dry_run=True)
    assert result.added == 6 and result.version is None
    assert not SanctionsList.objects.exists() and not SanctionsEntry.objects.exists()
    import_file("UN", "un-small-v1.xml")
    before = _state()
    result = import_file("UN", "un-small-v2.xml", dry_run=True)
    assert (result.added, result.removed, result.changed) == (1, 1, 1) and _state() == before


def test_ofac_with_its_alt_and_add_files():
    result = sanctions_import(
        list_code="OFAC",
        file=fixture("ofac-small-sdn.csv"),
        alt=fixture("ofac-small-alt.csv"),
        add=fixture("ofac-small-add.csv"),
        actor=None,
    )
    assert result.entries == 4 and result.version.source_files == [
        "ofac-small-sdn.csv",
        "ofac-small-alt.csv",
        "ofac-small-add.csv",
    ]
    sipho = SanctionsEntry.objects.get(sanctions_list__code="OFAC", reference="101")
    assert sipho.name == "Sipho Bheki DLAMINI" and sipho.entry_type == "INDIVIDUAL"
    assert sipho.dates_of_birth == ["1975-06-14", "1976"] and sipho.nationalities == ["SZ", "ZA"]
    assert sipho.programs == ["SDGT", "SDT"] and [a["name"] for a in sipho.aliases] == ["Sipho DLAMINI"]
    assert SanctionsEntry.objects.get(reference="104").nationalities == ["KP"]
    assert SanctionsEntry.objects.get(reference="103").entry_type == "VESSEL"


def test_alt_and_add_files_belong_to_ofac_only():
    with pytest.raises(UnreadableListFile, match="Only OFAC"):
        sanctions_import(list_code="UN", file=fixture("un-small-v1.xml"), alt=fixture("ofac-small-alt.csv"), actor=None)


def test_a_list_code_outside_the_contract_is_refused():
    with pytest.raises(UnreadableListFile):
        import_file("eu", "ftm-small.jsonl")


def test_an_ftm_list_of_any_code():
    result = import_file("EU_FSF", "ftm-small.jsonl")
    assert result.entries == 6 and SanctionsList.objects.get(code="EU_FSF").format == "FTM_JSON"


@pytest.mark.django_db(transaction=True)
def test_the_hook_is_called_after_the_commit():
    seen = []

    def handler(**kwargs):
        # outside any transaction: what the import wrote is committed, and a worker sent from here would see it
        seen.append((connection.in_atomic_block, SanctionsEntry.objects.filter(pk__in=kwargs["added_ids"]).count()))

    hooks.entries_changed.register(handler)
    try:
        import_file("UN", "un-small-v1.xml")
    finally:
        hooks.entries_changed._functions.remove(handler)
    assert seen == [(False, 6)]
