"""Sanctions lists as their publishers issue them: each import a version, each entry followed across versions.

An entry is identified within its list by the publisher's own id (UN ``DATAID``, OFAC ``ent_num``, FtM ``id``),
so the same person is one row however many times the list is imported. ``content_hash`` covers only what
screening reads (type, name, aliases, dates of birth, nationalities): an entry whose content hash moves is
"changed" and is screened again; ``record_hash`` covers everything stored, so a new programme or remark is
kept (and shown in the entry's history) without re-screening anyone.
"""

import re
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from backoffice.jsondepth import BoundedJSONField
from compliance.sanctions.choices import EntryChangeKind, EntryType, ImportStatus, ListFormat

LIST_CODE = re.compile(r"^[A-Z][A-Z0-9_]{1,29}$")
NAME_MAX = 500


def list_code_problem(code: str) -> str | None:
    """Why ``code`` cannot name a list (the contract's ``[A-Z][A-Z0-9_]{1,29}``), or None."""
    if not LIST_CODE.match(code or ""):
        return "A list code is 2 to 30 capital letters, digits or underscores, starting with a letter."
    return None


class SanctionsList(models.Model):
    """One publisher's list (``UN``, ``OFAC``, ``EU_FSF``...), its file format and the version now in force.

    ``revision`` rises with every import that changed an entry: a name index in every server process compares
    the sum over lists with the one it was built from (``selectors.sanctions_revision``) and rebuilds.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    code = models.CharField(max_length=30, unique=True)
    name = models.CharField(max_length=200, blank=True, default="")
    format = models.CharField(max_length=16, choices=ListFormat.choices)
    current_version = models.ForeignKey(
        "compliance.ListVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revision = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["code"]
        verbose_name = "sanctions list"

    def __str__(self):
        return self.code

    def clean(self):
        problem = list_code_problem(self.code)
        if problem:
            raise ValidationError({"code": problem})


class ListVersion(models.Model):
    """One import of a list: the files read (their names and SHA-256), who imported them, and the delta.

    ``entries`` is the number of active entries after the import; ``added``, ``removed``, ``changed`` and
    ``unchanged`` compare with the version before (the first version adds everything).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    sanctions_list = models.ForeignKey(SanctionsList, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64, help_text="SHA-256 over the files read, in order")
    source_files = BoundedJSONField(default=list, blank=True, help_text="The names of the files read")
    entries = models.PositiveIntegerField(default=0)
    individuals = models.PositiveIntegerField(default=0)
    entities = models.PositiveIntegerField(default=0)
    added = models.PositiveIntegerField(default=0)
    removed = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)
    allowed_shrink = models.BooleanField(default=False)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        app_label = "compliance"
        ordering = ["sanctions_list", "-number"]
        verbose_name = "sanctions list version"
        constraints = [
            models.UniqueConstraint(fields=["sanctions_list", "number"], name="sanctions_version_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="sanctions_version_number_positive"),
        ]

    def __str__(self):
        return f"{self.sanctions_list_id and self.sanctions_list.code} v{self.number}"


class SanctionsEntry(models.Model):
    """A listed individual, entity, vessel or aircraft, as the latest version of its list describes it.

    ``name`` is in reading order (OFAC's ``LAST, First`` becomes ``First Last``). ``aliases`` are
    ``{"name", "quality"}`` objects (quality ``GOOD`` or ``LOW``); ``dates_of_birth`` are strings: ``YYYY-MM-DD``
    exact, ``YYYY-MM``, ``YYYY`` a year, ``YYYY/YYYY`` a range; ``nationalities`` ISO 3166-1 alpha-2 codes.
    ``version`` is the version that last added, changed or removed the entry; a removed entry keeps its row
    with ``removed_at`` and is no longer screened.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    sanctions_list = models.ForeignKey(SanctionsList, on_delete=models.PROTECT, related_name="entries")
    publisher_id = models.CharField(max_length=200, help_text="UN DATAID, OFAC ent_num or FtM id")
    reference = models.CharField(max_length=200, help_text="UN REFERENCE_NUMBER, OFAC ent_num or FtM id")
    entry_type = models.CharField(max_length=10, choices=EntryType.choices, db_index=True)
    name = models.CharField(max_length=NAME_MAX)
    aliases = BoundedJSONField(default=list, blank=True)
    dates_of_birth = BoundedJSONField(default=list, blank=True)
    nationalities = BoundedJSONField(default=list, blank=True)
    programs = BoundedJSONField(default=list, blank=True)
    listed_on = models.DateField(null=True, blank=True)
    details = BoundedJSONField(
        default=dict, blank=True, help_text="What else the publisher says: remarks, addresses, documents, title"
    )
    search_text = models.TextField(
        blank=True, default="", editable=False, help_text="Name and aliases without case or accents, for search"
    )
    content_hash = models.CharField(max_length=64, editable=False, help_text="Over what screening reads")
    record_hash = models.CharField(max_length=64, editable=False, help_text="Over everything stored")
    version = models.ForeignKey(ListVersion, on_delete=models.PROTECT, related_name="entries_touched")
    removed_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "compliance"
        ordering = ["sanctions_list", "name"]
        verbose_name = "sanctions entry"
        verbose_name_plural = "sanctions entries"
        constraints = [
            models.UniqueConstraint(fields=["sanctions_list", "publisher_id"], name="sanctions_entry_publisher_id"),
            models.CheckConstraint(
                condition=models.Q(entry_type__in=EntryType.values), name="sanctions_entry_type_known"
            ),
        ]
        indexes = [
            models.Index(fields=["sanctions_list", "removed_at"], name="sanctions_entry_active"),
            models.Index(fields=["reference"], name="sanctions_entry_reference"),
        ]

    def __str__(self):
        return self.name

    @property
    def is_active(self) -> bool:
        return self.removed_at is None


class SanctionsEntryChange(models.Model):
    """What one version did to one entry: added it, changed it (``changes``: field -> [before, after]) or
    removed it. An entry's history is these rows in version order."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    entry = models.ForeignKey(SanctionsEntry, on_delete=models.CASCADE, related_name="history")
    version = models.ForeignKey(ListVersion, on_delete=models.PROTECT, related_name="entry_changes")
    kind = models.CharField(max_length=8, choices=EntryChangeKind.choices)
    changes = BoundedJSONField(default=dict, blank=True)
    screening_relevant = models.BooleanField(
        default=True, help_text="Whether what screening reads changed (else only programmes, remarks, dates)"
    )

    class Meta:
        app_label = "compliance"
        ordering = ["entry", "version__number"]
        verbose_name = "sanctions entry change"
        constraints = [
            models.UniqueConstraint(fields=["entry", "version"], name="sanctions_entry_change_once_per_version")
        ]
        indexes = [models.Index(fields=["version", "kind"], name="sanctions_change_version_kind")]

    def __str__(self):
        # the page's title: the list's own words ("Added in UN v3"), not the version row's UUID
        return f"{self.get_kind_display()} in {self.version}"


class SanctionsImport(models.Model):
    """An import started from the admin site and run in the background: its stage and progress, polled by the
    page, and its answer (the counts) or the error that refused the file."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    list_code = models.CharField(max_length=30)
    status = models.CharField(max_length=10, choices=ImportStatus.choices, default=ImportStatus.QUEUED)
    stage = models.CharField(max_length=100, blank=True, default="")
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    source_files = BoundedJSONField(default=list, blank=True)
    allow_shrink = models.BooleanField(default=False)
    result = BoundedJSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")
    version = models.ForeignKey(ListVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        verbose_name = "sanctions import"

    def __str__(self):
        return f"{self.list_code} import {self.status}"
