"""Sanctions lists, their imported versions, their entries and what changed in each entry from version to version."""

from compliance.sanctions.models.lists import (
    ListVersion,
    SanctionsEntry,
    SanctionsEntryChange,
    SanctionsImport,
    SanctionsList,
)
from compliance.sanctions.models.match import SanctionsMatch, SanctionsMatchEvent

__all__ = [
    "ListVersion",
    "SanctionsEntry",
    "SanctionsEntryChange",
    "SanctionsImport",
    "SanctionsList",
    "SanctionsMatch",
    "SanctionsMatchEvent",
]
