"""What sanctions screening reads: the active entries as one name index per server process, and the matches.

The index (``names.index``) holds every active entry of every list. Each process keeps its own
(``IndexHolder``) and asks the database at most every ``SANCTIONS_INDEX_CHECK_SECONDS`` whether a list's revision
moved (one aggregate over the lists), rebuilding when it did: an import reaches every process within seconds,
and this process at once (``sanctions_index_reset``, after its own import commits).
"""

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Sum

from backoffice.errors import NotFound
from compliance.sanctions.choices import EntryType
from compliance.sanctions.match_choices import MatchParty, MatchStatus
from compliance.sanctions.models import SanctionsEntry, SanctionsList
from compliance.sanctions.models.match import SanctionsMatch
from names.index import IndexHolder, IndexRecord, NameIndex

MATCH_NOT_FOUND = "Sanctions match not found"
LOAD_CHUNK = 5000


def match_threshold() -> float:
    return float(settings.SANCTIONS_MATCH_THRESHOLD)


def entry_kind(entry_type: str) -> str:
    return "person" if entry_type == EntryType.INDIVIDUAL else "entity"


def _alias_names(aliases) -> list[str]:
    names = []
    for alias in aliases or ():
        name = alias.get("name") if isinstance(alias, dict) else alias
        if isinstance(name, str) and name.strip():
            names.append(name)
    return names


def entry_record(*, pk, name: str, aliases, dates_of_birth, nationalities, entry_type: str) -> IndexRecord:
    """An entry as the index holds it: its name first, then its aliases, dates of birth, nationalities, kind."""
    return IndexRecord(
        key=pk,
        names=tuple(dict.fromkeys([name, *_alias_names(aliases)])),
        birth_dates=tuple(str(d) for d in dates_of_birth or () if d),
        countries=tuple(str(c).upper() for c in nationalities or () if c),
        kind=entry_kind(entry_type),
    )


RECORD_FIELDS = ("pk", "name", "aliases", "dates_of_birth", "nationalities", "entry_type")


def entry_records(queryset=None):
    """The active entries (or those of ``queryset``) as index records, read in chunks."""
    queryset = SanctionsEntry.objects.filter(removed_at__isnull=True) if queryset is None else queryset
    for row in queryset.values_list(*RECORD_FIELDS).iterator(chunk_size=LOAD_CHUNK):
        yield entry_record(**dict(zip(RECORD_FIELDS, row, strict=True)))


def sanctions_version() -> tuple:
    """What changes whenever an import changes an entry of any list (cheap: one aggregate over the lists)."""
    row = SanctionsList.objects.aggregate(lists=Count("pk"), revisions=Sum("revision"))
    return (row["lists"], row["revisions"] or 0)


class _Index:
    """This process's holder, made again when this process's own import committed (no waiting for the check)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._holder: IndexHolder | None = None

    def _new(self) -> IndexHolder:
        return IndexHolder(
            load=entry_records, version=sanctions_version, check_every=settings.SANCTIONS_INDEX_CHECK_SECONDS
        )

    def get(self) -> NameIndex:
        with self._lock:
            if self._holder is None:
                self._holder = self._new()
            holder = self._holder
        return holder.get()

    def reset(self) -> None:
        with self._lock:
            self._holder = None


_index = _Index()


def sanctions_index() -> NameIndex:
    """The active entries' name index of this process (rebuilt when a list's revision moved)."""
    return _index.get()


def sanctions_index_reset(**_) -> None:
    """Forget this process's index: the next screening builds it again (after an import here committed)."""
    _index.reset()


@dataclass(frozen=True)
class EntryHit:
    """An active entry matching a name: the entry, the score and, in plain words, why."""

    entry: SanctionsEntry
    score: float
    matched_name: str
    explanation: str


class _Answers:
    """The index's answers to recent questions (the entries they hit), for the index that gave them: payments name
    the same counterparties again and again, and an index never changes (a new version is a new index), so an
    answer holds until then."""

    SIZE = 20_000

    def __init__(self):
        self._lock = threading.Lock()
        self._index = None
        self._answers: OrderedDict = OrderedDict()

    def get(self, index, question):
        with self._lock:
            if self._index is not index:
                self._index, self._answers = index, OrderedDict()
                return None
            answer = self._answers.get(question)
            if answer is not None:
                self._answers.move_to_end(question)
            return answer

    def put(self, index, question, answer) -> None:
        with self._lock:
            if self._index is index:
                self._answers[question] = answer
                if len(self._answers) > self.SIZE:
                    self._answers.popitem(last=False)


_answers = _Answers()


def _entry_hits(hits) -> list[EntryHit]:
    if not hits:
        return []
    # the search text is the admin site's search column, a copy of every name: never read with a hit; and no order
    # (the hits are ranked already): the model's order (list, name) made every query join and sort, and compiling
    # it was a third of the query's cost in Python
    entries = (
        SanctionsEntry.objects.select_related("sanctions_list")
        .defer("search_text")
        .order_by()
        .in_bulk([hit.key for hit in hits])
    )
    return [
        EntryHit(entries[hit.key], round(hit.score, 4), hit.matched_name, hit.explanation)
        for hit in hits
        if hit.key in entries and entries[hit.key].removed_at is None
    ]


def screen_name(
    name: str, *, date_of_birth: str | None = None, country: str | None = None, kind: str | None = None, limit: int = 20
) -> list[EntryHit]:
    """The active entries matching ``name`` at or above the threshold, best first (one index search, one query).

    The answer, entries included, is kept for the index that gave it (``_Answers``): an entry changes only by an
    import, and an import is a new index, so a counterparty named again costs neither a search nor a query."""
    name = (name or "").strip()
    if not name:
        return []
    index = sanctions_index()
    threshold = match_threshold()
    question = (" ".join(name.split()), threshold, limit, date_of_birth, country, kind)
    found = _answers.get(index, question)
    if found is None:
        hits = index.search(
            name, threshold=threshold, limit=limit, birth_date=date_of_birth, country=country, kind=kind
        )
        found = _entry_hits(hits)
        _answers.put(index, question, found)
    return list(found)


# ---------------------------------------------------------------- matches


def matches_queryset():
    return SanctionsMatch.objects.select_related("user", "entry", "entry__sanctions_list", "decided_by", "alert")


def match_get(match_id) -> SanctionsMatch:
    """One match with its customer, entry, list, alert and decider; 404 MATCH_NOT_FOUND for unknown or malformed ids."""
    try:
        pk = uuid.UUID(str(match_id))
    except (TypeError, ValueError):
        raise NotFound(MATCH_NOT_FOUND) from None
    match = matches_queryset().filter(pk=pk).first()
    if match is None:
        raise NotFound(MATCH_NOT_FOUND)
    return match


def user_sanctions_state(user_id) -> str | None:
    """The strongest open sanctions state of a customer: CONFIRMED, POTENTIAL, or None (one indexed read)."""
    states = set(
        SanctionsMatch.objects.filter(
            party=MatchParty.USER, user_id=user_id, status__in=(MatchStatus.POTENTIAL, MatchStatus.CONFIRMED)
        ).values_list("status", flat=True)[:2]
    )
    if MatchStatus.CONFIRMED in states:
        return MatchStatus.CONFIRMED
    return MatchStatus.POTENTIAL if states else None
