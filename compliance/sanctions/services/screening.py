"""Sanctions screening: customers and counterparties against the active entries, and what a match opens.

* **A customer** is screened at registration and on a change of name (``kyc.hooks``, after the commit), through
  this process's index of every active entry (``selectors.screening.sanctions_index``).
* **After an import**, only the entries it added or changed are screened, against every customer: the delta goes
  into a small index of its own and the customers are read in chunks of ``SANCTIONS_SCREENING_CHUNK`` (each chunk
  one transaction; on the workers for a large base, ``compliance.sanctions.screen_chunk``). A removed entry closes
  its open matches.
* **A counterparty** named in a payment is screened while the payment is decided (``services.decision``).

Every match is a pair, one ``SanctionsMatch`` row, and a new pair raises one SANCTIONS_MATCH alert (CRITICAL)
whose dedup key is the pair: the alert is raised first, and only the run that raised it writes the row, so two
screenings finding the pair at once alert once. A DISMISSED pair stays dismissed while its entry's screening
content is the one it was judged on; when the content changed and the names still match it returns to POTENTIAL
with one new alert (the key carries both contents).
"""

import logging
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, fields

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from backoffice.models import Staff
from backoffice.services import Actor
from backoffice.tasks import QueueUnavailable, dispatch
from compliance.aml.choices import AlertStatus, AlertType, CloseReason
from compliance.aml.models.alerts import Alert
from compliance.aml.services.alerts import NewAlert, alert_raise_many, alert_transition, dedup_key
from compliance.casework.choices import Severity
from compliance.sanctions.match_choices import MatchParty, MatchStatus
from compliance.sanctions.models import SanctionsEntry
from compliance.sanctions.models.match import SanctionsMatch, SanctionsMatchEvent
from compliance.sanctions.selectors.screening import (
    EntryHit,
    entry_records,
    match_threshold,
    screen_name,
)
from kyc.models import PlatformUser
from names import MAX_ADJUSTMENT_GAIN, normalise_country
from names.index import NameIndex

# the worker task that screens customers in chunks after an import (queued by name: compliance/sanctions/tasks.py)
SCREEN_USERS = "compliance.sanctions.screen_users"
logger = logging.getLogger("compliance.sanctions.screening")

SEARCH_LIMIT = 20


@dataclass
class ScreeningCounts:
    """What a screening did; the import answer's ``screening`` object."""

    users_scanned: int = 0
    matches_created: int = 0
    matches_reopened: int = 0
    matches_closed: int = 0

    def add(self, other: "ScreeningCounts") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Found:
    """A pair found: a customer (USER) or a counterparty name (COUNTERPARTY, with the paying customer), and the
    entry hit."""

    party: str
    user_id: object
    hit: EntryHit
    counterparty_name: str = ""

    @property
    def subject(self) -> str:
        return str(self.user_id) if self.party == MatchParty.USER else name_key(self.counterparty_name)


_PUNCTUATION = re.compile(r"[^\w\s]", re.UNICODE)


def name_key(name: str) -> str:
    """A counterparty name as a pair compares it: accents, case, punctuation, spacing and word order ignored."""
    text = unicodedata.normalize("NFKD", name or "")
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(sorted(_PUNCTUATION.sub(" ", text.casefold()).split()))[:500]


# ---------------------------------------------------------------- recording matches


def alert_key(match: SanctionsMatch, *, reopened_from: str | None = None) -> str:
    """One alert per pair, ever; a reopening one per change of the entry's content (dismissed on, now)."""
    subject = str(match.user_id) if match.party == MatchParty.USER else match.name_key
    if reopened_from is not None:
        return dedup_key(
            AlertType.SANCTIONS_MATCH,
            match.party,
            subject,
            match.entry_id,
            "reopened",
            reopened_from,
            match.content_hash,
        )
    return dedup_key(AlertType.SANCTIONS_MATCH, match.party, subject, match.entry_id)


def _alert_for(row: SanctionsMatch, found: Found, *, reopened_from: str | None) -> NewAlert:
    entry = found.hit.entry
    who = row.counterparty_name if row.party == MatchParty.COUNTERPARTY else "the customer"
    return NewAlert(
        user_id=row.user_id,
        dedup_key=alert_key(row, reopened_from=reopened_from),
        severity=Severity.CRITICAL,
        alert_type=AlertType.SANCTIONS_MATCH,
        details={
            "match_id": str(row.pk),
            "party": row.party,
            "counterparty_name": row.counterparty_name,
            "entry_id": str(entry.pk),
            "list": entry.sanctions_list.code,
            "reference": entry.reference,
            "entry_name": entry.name,
            "score": row.score,
            "reason": "entry changed after a dismissal" if reopened_from is not None else "new match",
            "explanation": row.explanation,
        },
        note=f"Sanctions match: {who} ~ {entry.name} ({entry.sanctions_list.code} {entry.reference}), {row.score:.2f}",
    )


def _take(row: SanctionsMatch, found: Found) -> None:
    row.entry = found.hit.entry
    row.matched_name = found.hit.matched_name[:500]
    row.score = min(1.0, max(0.0, round(found.hit.score, 4)))
    row.explanation = found.hit.explanation
    row.content_hash = found.hit.entry.content_hash


def _existing(found: list[Found]) -> dict[tuple, SanctionsMatch]:
    """The rows of these pairs, locked for this transaction: {(party, subject, entry id): row}."""
    rows: dict[tuple, SanctionsMatch] = {}
    entry_ids = {f.hit.entry.pk for f in found}
    users = {f.user_id for f in found if f.party == MatchParty.USER}
    names = {f.subject for f in found if f.party == MatchParty.COUNTERPARTY}
    if users:
        qs = SanctionsMatch.objects.select_for_update().filter(
            party=MatchParty.USER, user_id__in=users, entry_id__in=entry_ids
        )
        rows.update({(MatchParty.USER, str(r.user_id), r.entry_id): r for r in qs})
    if names:
        qs = SanctionsMatch.objects.select_for_update().filter(
            party=MatchParty.COUNTERPARTY, name_key__in=names, entry_id__in=entry_ids
        )
        rows.update({(MatchParty.COUNTERPARTY, r.name_key, r.entry_id): r for r in qs})
    return rows


def _event(row: SanctionsMatch, *, source: str, note: str, actor: Actor) -> SanctionsMatchEvent:
    return SanctionsMatchEvent(
        match=row,
        from_status=source,
        to_status=row.status,
        actor=actor if isinstance(actor, Staff) else None,
        note=note,
    )


def record_matches(found: Iterable[Found], *, actor: Actor = None, counts: ScreeningCounts | None = None):
    """Open or refresh the matches of these pairs (inside the caller's transaction); returns
    {(party, subject, entry id): row} for every pair found, new or known.

    A new pair, a dismissed pair whose entry changed and a closed pair whose entry is listed again each raise one
    alert; a dismissed pair on unchanged content and a decided one are left as the officer left them.
    """
    counts = counts if counts is not None else ScreeningCounts()
    best: dict[tuple, Found] = {}
    for item in found:
        pair = (item.party, item.subject, item.hit.entry.pk)
        if pair not in best or item.hit.score > best[pair].hit.score:
            best[pair] = item
    if not best:
        return {}
    existing = _existing(list(best.values()))
    fresh, reopened, refreshed = [], [], []
    for pair, item in best.items():
        row = existing.get(pair)
        if row is None:
            row = SanctionsMatch(
                party=item.party,
                user_id=item.user_id,
                counterparty_name=item.counterparty_name[:500],
                name_key=item.subject if item.party == MatchParty.COUNTERPARTY else "",
            )
            _take(row, item)
            fresh.append(row)
        elif (row.status == MatchStatus.DISMISSED and row.content_hash != item.hit.entry.content_hash) or (
            row.status == MatchStatus.CLOSED
        ):
            previous = row.content_hash
            source = row.status
            _take(row, item)
            row.reopen()
            row.note, row.decided_by, row.decided_at = "", None, None
            reopened.append((row, previous, source))
        elif row.status == MatchStatus.POTENTIAL:
            _take(row, item)
            refreshed.append(row)
    raised = [(row, None) for row in fresh] + [(row, previous) for row, previous, _ in reopened]
    alerts = alert_raise_many(
        alerts=[_alert_for(row, best[_pair_of(row)], reopened_from=previous) for row, previous in raised],
        actor=actor,
    )
    by_key = {alert.dedup_key: alert for alert in alerts}
    for row, previous in raised:
        row.alert = by_key.get(alert_key(row, reopened_from=previous))
    # a fresh pair whose alert another screening raised (at the same moment) is that screening's row to write
    owned = [row for row in fresh if row.alert is not None]
    SanctionsMatch.objects.bulk_create(owned, ignore_conflicts=True)
    moved = [row for row, _, _ in reopened if row.alert is not None]
    now = timezone.now()
    for row in [*moved, *refreshed]:
        row.updated_at = now
    update = ["entry", "matched_name", "score", "explanation", "content_hash", "status", "note", "decided_by"]
    SanctionsMatch.objects.bulk_update(
        [*moved, *refreshed], [*update, "decided_at", "alert", "updated_at"], batch_size=500
    )
    SanctionsMatchEvent.objects.bulk_create(
        [
            _event(row, source="", note=f"Names match at {row.score:.2f}: {row.explanation}", actor=actor)
            for row in owned
        ]
        + [
            _event(
                row,
                source=source,
                note=f"The entry changed (or was listed again); names match at {row.score:.2f}.",
                actor=actor,
            )
            for row, _, source in reopened
            if row.alert is not None
        ]
    )
    counts.matches_created += len(owned)
    counts.matches_reopened += len(moved)
    # every pair's row as it stands now (a row another screening wrote is read back)
    rows = _existing(list(best.values()))
    return rows


def _pair_of(row: SanctionsMatch) -> tuple:
    subject = str(row.user_id) if row.party == MatchParty.USER else row.name_key
    return (row.party, subject, row.entry_id if row.entry_id else row.entry.pk)


# ---------------------------------------------------------------- a customer against every active entry


def _user_names(user) -> list[str]:
    names = [f"{user.first_name} {user.last_name}".strip()]
    legacy = f"{user.names or ''} {user.surname or ''}".strip()
    if legacy and legacy.casefold() != names[0].casefold():
        names.append(legacy)
    return [n for n in names if n]


def _user_country(user) -> str | None:
    return normalise_country(user.nationality or "") or None


def _user_hits(user, search) -> list[Found]:
    born = user.date_of_birth.isoformat() if user.date_of_birth else None
    found = []
    for name in _user_names(user):
        for hit in search(name, born, _user_country(user)):
            found.append(Found(MatchParty.USER, user.pk, hit))
    return found


def screen_user(*, user_id, actor: Actor = None) -> ScreeningCounts:
    """Screen one customer (under their current names) against every active entry; open what matches."""
    counts = ScreeningCounts(users_scanned=1)
    user = PlatformUser.objects.filter(pk=user_id).first()
    if user is None:
        return ScreeningCounts()

    def search(name, born, country):
        return screen_name(name, date_of_birth=born, country=country, kind="person", limit=SEARCH_LIMIT)

    found = _user_hits(user, search)
    with transaction.atomic():
        record_matches(found, actor=actor, counts=counts)
    return counts


def _screen_user_safely(user_id) -> None:
    try:
        screen_user(user_id=user_id)
    except Exception:
        # a sign-up or a rename never fails because screening did: the next import's delta or a full run finds them
        logger.exception("sanctions screening of user %s failed", user_id)


def screen_user_after_commit(*, user, **_) -> None:
    """``kyc.hooks.user_registered`` and ``user_name_changed``: screen the customer once the change commits."""
    user_id = user.pk
    transaction.on_commit(lambda: _screen_user_safely(user_id))


# ---------------------------------------------------------------- after an import: the delta against every customer


_delta_cache: dict = {}
# {id of a delta's index: {customer name: whether it can match an entry of the delta}}
_promising: dict = {}


def _delta_index(entry_ids: list) -> NameIndex:
    """A small index of these entries (the active ones), kept per process for the chunks of one delta."""
    key = tuple(sorted(str(pk) for pk in entry_ids))
    index = _delta_cache.get(key)
    if index is None:
        records = entry_records(SanctionsEntry.objects.filter(pk__in=entry_ids, removed_at__isnull=True))
        index = NameIndex.build(records)
        _delta_cache.clear()
        _promising.clear()
        _delta_cache[key] = index
    return index


USER_FIELDS = ("pk", "first_name", "last_name", "names", "surname", "date_of_birth", "nationality")


def screen_users_chunk(
    *, entry_ids: list, after=None, size: int, actor: Actor = None
) -> tuple[ScreeningCounts, object]:
    """Screen ``size`` customers (those after the id ``after``, in id order) against these entries, in one
    transaction; answers the counts and the last id read (None when no customer was left)."""
    index = _delta_index(entry_ids)
    counts = ScreeningCounts()
    qs = PlatformUser.objects.order_by("pk").only(*USER_FIELDS)
    if after is not None:
        qs = qs.filter(pk__gt=after)
    users = list(qs[:size])
    if not users:
        return counts, None
    counts.users_scanned = len(users)
    if len(index):
        threshold = match_threshold()
        found: list[Found] = []
        by_key: dict = {}
        # a million customers share far fewer names: each name is searched once without date of birth and
        # country, at the lowest score they could lift to a match; only the bearers of a name that can match are
        # searched one by one with theirs
        names_of = {user.pk: _user_names(user) for user in users}
        rough = max(0.0, threshold - MAX_ADJUSTMENT_GAIN)
        # kept with the delta's index, so the chunks of one delta in this process search each name once
        promising: dict[str, bool] = _promising.setdefault(id(index), {})
        for names in names_of.values():
            for name in names:
                if name not in promising:
                    promising[name] = bool(index.search(name, threshold=rough, limit=1, kind="person"))
        for user in users:
            born = user.date_of_birth.isoformat() if user.date_of_birth else None
            for name in names_of[user.pk]:
                if not promising[name]:
                    continue
                for hit in index.search(
                    name,
                    threshold=threshold,
                    limit=SEARCH_LIMIT,
                    birth_date=born,
                    country=_user_country(user),
                    kind="person",
                ):
                    by_key.setdefault(hit.key, []).append((user.pk, hit))
        if by_key:
            entries = SanctionsEntry.objects.select_related("sanctions_list").in_bulk(list(by_key))
            for key, pairs in by_key.items():
                for user_id, hit in pairs:
                    entry_hit = EntryHit(entries[key], round(hit.score, 4), hit.matched_name, hit.explanation)
                    found.append(Found(MatchParty.USER, user_id, entry_hit))
        with transaction.atomic():
            record_matches(found, actor=actor, counts=counts)
    return counts, users[-1].pk


@transaction.atomic
def close_removed(*, entry_ids: Iterable, actor: Actor = None) -> int:
    """The open (potential or dismissed) matches of entries that left their list become CLOSED; their open
    alerts close too. Confirmed matches stay: a freeze is lifted by a person, never by a list."""
    rows = list(
        SanctionsMatch.objects.select_for_update()
        .filter(entry_id__in=list(entry_ids), status__in=(MatchStatus.POTENTIAL, MatchStatus.DISMISSED))
        .select_related("entry", "entry__sanctions_list")
    )
    for row in rows:
        source = row.status
        row.close()
        row.save(update_fields=["status", "updated_at"])
        _event(row, source=source, note="The entry left its list.", actor=actor).save()
        if row.alert_id and source == MatchStatus.POTENTIAL:
            alert = Alert.objects.filter(
                pk=row.alert_id, status__in=(AlertStatus.OPEN, AlertStatus.UNDER_REVIEW)
            ).first()
            if alert is not None:
                alert_transition(
                    alert=alert,
                    actor=actor,
                    to_status=AlertStatus.CLOSED_FALSE_POSITIVE,
                    note=f"The entry {row.entry.name} ({row.entry.sanctions_list.code}) left its list.",
                    reason_code=CloseReason.SANCTIONS_ENTRY_REMOVED,
                )
    return len(rows)


def screen_delta(
    *, added: Iterable = (), changed: Iterable = (), removed: Iterable = (), actor: Actor = None, background=None
) -> ScreeningCounts:
    """After an import: close the removed entries' matches, and screen every customer against the entries added
    or changed only. A base above ``SANCTIONS_SCREEN_INLINE_MAX`` customers is screened on the workers when a
    broker is configured (the answer then counts the customers to scan; the matches follow)."""
    counts = ScreeningCounts()
    counts.matches_closed = close_removed(entry_ids=list(removed), actor=actor) if removed else 0
    entry_ids = list(dict.fromkeys([*added, *changed]))
    if not entry_ids:
        return counts
    total = PlatformUser.objects.count()
    if background is None:
        background = total > settings.SANCTIONS_SCREEN_INLINE_MAX and bool(getattr(settings, "CELERY_BROKER_URL", ""))
    if background:
        ids = [str(pk) for pk in entry_ids]
        transaction.on_commit(lambda: _dispatch(SCREEN_USERS, ids))
        counts.users_scanned = total
        return counts
    after = None
    while True:
        part, after = screen_users_chunk(
            entry_ids=entry_ids, after=after, size=settings.SANCTIONS_SCREENING_CHUNK, actor=actor
        )
        counts.add(part)
        if after is None:
            return counts


def _dispatch(task: str, ids) -> None:
    try:
        dispatch(task, args=(ids, None))
    except QueueUnavailable:
        logger.error("sanctions re-screening of %d entries not sent (queue down)", len(ids))


def on_entries_changed(*, added_ids=(), changed_ids=(), removed_ids=(), actor=None, **_) -> dict:
    """The lists' ``entries_changed`` hook (after an import commits): the delta screened, the counts answered."""
    counts = screen_delta(added=added_ids, changed=changed_ids, removed=removed_ids, actor=actor)
    return {
        "usersScanned": counts.users_scanned,
        "matchesCreated": counts.matches_created,
        "matchesReopened": counts.matches_reopened,
        "matchesClosed": counts.matches_closed,
    }
