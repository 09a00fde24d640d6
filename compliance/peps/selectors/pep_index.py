"""The active PEPs as an in-memory name index (``names.index``), one per server process.

Screening a name against the PEPs asks this index for candidates instead of the PEP name-key table: a few
hundred microseconds of array lookups instead of grouped queries over the key table. The index is rebuilt when
the list's version changes: the number of PEP rows and the latest ``updated_at`` (every write through the
services touches it, a delete changes the count), read at most every ``PEP_INDEX_CHECK_SECONDS`` by each
process, so every process follows an import or an edit within about that time. A write in this process
invalidates the holder at once (``pep_index_changed``).

The index only proposes candidates: the screening reads those PEP rows and compares them with the matcher as
before, so answers and explanations are the database's, and a candidate the index still holds after a delete
is simply not found.
"""

from django.conf import settings
from django.db.models import Count, Max

from compliance.peps.models.pep import PEP
from names.index import IndexHolder, IndexRecord, NameIndex


def _records():
    rows = PEP.objects.filter(is_active=True).values_list("pk", "name", "aliases", "date_of_birth", "country")
    for pk, name, aliases, date_of_birth, country in rows.iterator(chunk_size=5000):
        yield IndexRecord(
            key=pk,
            names=(name, *(alias for alias in aliases or () if alias)),
            birth_dates=(str(date_of_birth),) if date_of_birth else (),
            countries=(country,) if country else (),
        )


def pep_list_version() -> tuple:
    """A value that changes with every write to the PEP list (one aggregate query)."""
    found = PEP.objects.aggregate(rows=Count("pk"), changed=Max("updated_at"))
    return found["rows"], found["changed"]


_holder = IndexHolder(
    load=_records, version=pep_list_version, check_every=float(getattr(settings, "PEP_INDEX_CHECK_SECONDS", 1.0))
)


def pep_index() -> NameIndex:
    """This process's index of the active PEPs, rebuilt if the list changed since it was last asked."""
    return _holder.get()


def pep_index_changed() -> None:
    """The PEP list was written in this process: the next screen checks the version at once."""
    _holder.invalidate()
