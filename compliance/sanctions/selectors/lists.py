"""The lists as the API and the admin site show them, and the cheap value every name index polls."""

import uuid

from django.db.models import Count, Prefetch, Q, QuerySet, Sum
from django.shortcuts import get_object_or_404

from backoffice.errors import NotFound
from compliance.sanctions.choices import EntryType
from compliance.sanctions.models import ListVersion, SanctionsEntry, SanctionsEntryChange, SanctionsList
from compliance.sanctions.models.lists import SanctionsImport
from compliance.sanctions.search import fold

ENTRY_NOT_FOUND = "Sanctions entry not found"


def sanctions_revision() -> int:
    """A number that rises whenever an import adds, changes or removes an entry of any list: one small query,
    cheap enough for every server process to ask every second and rebuild its index when it moved."""
    return SanctionsList.objects.aggregate(total=Sum("revision"))["total"] or 0


def active_entries() -> QuerySet[SanctionsEntry]:
    """The entries screening reads: every list's, not removed."""
    return SanctionsEntry.objects.filter(removed_at__isnull=True).select_related("sanctions_list")


def list_summaries() -> QuerySet[SanctionsList]:
    """Every list with its active entries counted by type and the version in force (one query)."""
    active = Q(entries__removed_at__isnull=True)
    return (
        SanctionsList.objects.select_related("current_version__imported_by")
        .annotate(
            active_entries=Count("entries", filter=active),
            active_individuals=Count("entries", filter=active & Q(entries__entry_type=EntryType.INDIVIDUAL)),
            active_entities=Count("entries", filter=active & Q(entries__entry_type=EntryType.ENTITY)),
            active_vessels=Count("entries", filter=active & Q(entries__entry_type=EntryType.VESSEL)),
            active_aircraft=Count("entries", filter=active & Q(entries__entry_type=EntryType.AIRCRAFT)),
        )
        .order_by("code")
    )


def list_versions(*, sanctions_list: SanctionsList) -> QuerySet[ListVersion]:
    return sanctions_list.versions.select_related("imported_by").order_by("-number")


def entry_list(*, include_removed: bool = False) -> QuerySet[SanctionsEntry]:
    """Entries with their list and version joined (the list's filters narrow them further)."""
    entries = SanctionsEntry.objects.select_related("sanctions_list", "version")
    return entries if include_removed else entries.filter(removed_at__isnull=True)


def entry_search(queryset: QuerySet[SanctionsEntry], term: str) -> QuerySet[SanctionsEntry]:
    """Entries one of whose names contains the term (case, accents and punctuation ignored), or whose
    publisher's reference or id (a UN DATAID) is the term."""
    folded = fold(term)
    if not folded:
        return queryset
    term = term.strip()
    return queryset.filter(Q(search_text__contains=folded) | Q(reference__iexact=term) | Q(publisher_id=term))


def entry_get(entry_id) -> SanctionsEntry:
    """One entry (removed ones too) with its history in version order; 404 for an unknown or malformed id."""
    try:
        pk = uuid.UUID(str(entry_id))
    except (TypeError, ValueError):
        raise NotFound(ENTRY_NOT_FOUND) from None
    history = SanctionsEntryChange.objects.select_related("version").order_by("version__number")
    entry = (
        SanctionsEntry.objects.select_related("sanctions_list", "version")
        .prefetch_related(Prefetch("history", queryset=history))
        .filter(pk=pk)
        .first()
    )
    if entry is None:
        raise NotFound(ENTRY_NOT_FOUND)
    return entry


def recent_imports(*, limit: int = 10):
    """The latest uploads, newest first, with their versions and who started them (the upload page)."""
    return SanctionsImport.objects.select_related("version", "created_by").order_by("-created_at")[:limit]


def import_get(*, import_id):
    """One upload with its version and who started it; 404 when unknown."""
    return get_object_or_404(SanctionsImport.objects.select_related("version", "created_by"), pk=import_id)
