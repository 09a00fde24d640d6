"""PEP screening: comparing PEPs with users, and what a match does.

Two directions, one matcher (``names``), one set of effects:

* **PEPs against users** (``screen_peps``): a PEP created, changed, bulk-uploaded or imported is looked up in
  the users' name index (``kyc.selectors.name_matching.users_named``) with its lookup keys, and compared only
  with the users found there. PEPs go in chunks of ``PEP_SCREENING_CHUNK``, each chunk in its own transaction, so
  memory stays bounded however long the list.
* **A user against the PEPs** (``screen_user``): a user who registers or changes name is looked up in the
  PEPs' name index, after the commit of the registration (``screen_user_after_commit``).

Every match is the pair (user, PEP name), one ``PEPMatch`` row. A new pair flags the user as a potential PEP,
has their risk score recomputed from the facts (``kyc.services.user_risk_refresh_many``, the one risk
function: compliance never writes a user row itself) and raises one PEP_MATCH alert whose dedup key is the
pair, so no re-run, re-import or delete-and-re-add ever raises it twice. A DISMISSED pair is left alone
unless the PEP's matching content changed since the dismissal: then it returns to POTENTIAL with one new
alert (its key carries the content).
Each run is recorded (``ScreeningRun``).
"""

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from backoffice.models import Staff
from backoffice.services import history_record_many
from backoffice.tasks import QueueUnavailable, dispatch
from compliance.aml.choices import AlertType
from compliance.aml.services.alerts import NewAlert, alert_raise_many, dedup_key
from compliance.casework.choices import Severity
from compliance.peps import metrics as peps_metrics
from compliance.peps.choices import PEPMatchStatus, ScreeningStatus, ScreeningTrigger
from compliance.peps.models.pep import PEP, PEPMatch, PEPMatchEvent, ScreeningRun, UserScreening
from compliance.peps.selectors.pep import match_threshold, pending_peps, pep_person, peps_matching
from kyc.models import PlatformUser
from kyc.name_index import stored, user_names, worth_searching
from kyc.selectors.name_matching import (
    UserPerson,
    user_count,
    user_key_sizes,
    user_name_frequencies,
    user_name_groups,
    user_people,
    users_named,
)
from kyc.services import user_risk_refresh_many
from names import MATCHER_VERSION, MAX_ADJUSTMENT_GAIN, Match, NameFrequencies, Person, compare, lookup_keys

logger = logging.getLogger("compliance.screening")

# The task that screens one chunk of a run, by its registered name (compliance.peps.tasks defines it and imports
# these services).
SCREEN_CHUNK = "compliance.peps.screen_chunk"

CHUNK = 500
# A match this strong raises a HIGH alert, a weaker one MEDIUM.
HIGH_SCORE = 0.9
# The response of a bulk upload lists at most this many matches (the counts always cover all).
SUMMARY_MATCHES_MAX = 1000


@dataclass
class MatchingSummary:
    """What a screening found and did; the API's ``matching`` object."""

    users_scanned: int = 0
    peps_screened: int = 0
    candidates: int = 0
    pairs: int = 0
    users_matched: set = field(default_factory=set)
    users_updated: set = field(default_factory=set)
    alerts_created: int = 0
    matches: list[dict] = field(default_factory=list)
    matches_omitted: int = 0
    run_id: int | None = None

    def add(self, other: "MatchingSummary") -> None:
        self.users_scanned = max(self.users_scanned, other.users_scanned)
        self.peps_screened += other.peps_screened
        self.candidates += other.candidates
        self.pairs += other.pairs
        self.users_matched |= other.users_matched
        self.users_updated |= other.users_updated
        self.alerts_created += other.alerts_created
        room = SUMMARY_MATCHES_MAX - len(self.matches)
        self.matches.extend(other.matches[:room])
        self.matches_omitted += other.matches_omitted + max(0, len(other.matches) - room)


@dataclass(frozen=True)
class _Found:
    user: UserPerson
    pep: PEP
    match: Match


# ---------------------------------------------------------------- runs


def _open_run(trigger: str, actor, subject: str, pep_ids: list[str] = ()) -> ScreeningRun:
    ids = [str(pk) for pk in pep_ids]
    now = timezone.now()
    return ScreeningRun.objects.create(
        trigger=trigger,
        subject=subject[:300],
        actor=actor if isinstance(actor, Staff) else None,
        matcher_version=MATCHER_VERSION,
        threshold=match_threshold(),
        started_at=now,
        progressed_at=now,
        pep_ids=ids,
        chunk_size=settings.PEP_SCREENING_CHUNK,
        chunks_total=-(-len(ids) // settings.PEP_SCREENING_CHUNK),
        users_scanned=user_count() if ids else 0,
    )


def _close_run(run: ScreeningRun, summary: MatchingSummary, error: BaseException | None = None) -> None:
    run.status = ScreeningStatus.FAILED if error else ScreeningStatus.COMPLETED
    run.error = f"{type(error).__name__}: {error}"[:2000] if error else ""
    run.peps_screened = summary.peps_screened
    run.users_scanned = summary.users_scanned
    run.candidates = summary.candidates
    run.matches = summary.pairs
    run.users_matched = len(summary.users_matched)
    run.users_updated = len(summary.users_updated)
    run.alerts_created = summary.alerts_created
    run.finished_at = timezone.now()
    run.save()
    _observe(run)


def _observe(run: ScreeningRun) -> None:
    if run.finished_at:
        peps_metrics.SCREENING_DURATION.labels(run.trigger, run.status.lower()).observe(run.seconds)


# ---------------------------------------------------------------- PEPs against users, in chunks


def screening_start(*, pep_ids: Iterable, trigger: str, actor=None, subject: str = "") -> ScreeningRun:
    """Open a run over these PEPs (each once, in this order), to be done chunk by chunk (``screening_chunk``)."""
    ids = list(dict.fromkeys(str(pk) for pk in pep_ids))
    run = _open_run(trigger, actor, subject or f"{len(ids)} PEP(s)", ids)
    if not ids:
        _close_run(run, MatchingSummary(run_id=run.pk))
    return run


_RUN_ACTOR = object()


def screening_chunk(*, run_id: int, index: int, actor=_RUN_ACTOR) -> MatchingSummary | None:
    """Do chunk ``index`` of a run: match its PEPs, apply the matches, record the progress, in one transaction.

    The run's row is locked first, and a chunk that is not the run's next one (done already: a task delivered
    twice, a resumed run) or of a run that is over does nothing and answers None. So a chunk's effects and its
    progress commit together or not at all, and run once. The last chunk completes the run.
    """
    with transaction.atomic():
        run = ScreeningRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.status != ScreeningStatus.RUNNING or run.chunks_done != index:
            return None
        if actor is _RUN_ACTOR:
            actor = run.actor
        ids = run.pep_ids[index * run.chunk_size : (index + 1) * run.chunk_size]
        summary = MatchingSummary(run_id=run.pk, users_scanned=run.users_scanned)
        batch = list(PEP.objects.filter(pk__in=ids, is_active=True))
        found = _users_matching(batch, user_name_frequencies(), run.threshold, summary)
        _apply(found, summary, actor)
        _mark_screened(batch)
        summary.peps_screened = len(batch)
        run.peps_screened += summary.peps_screened
        run.candidates += summary.candidates
        run.matches += summary.pairs
        run.alerts_created += summary.alerts_created
        run.matched_user_ids = sorted(set(run.matched_user_ids) | {str(pk) for pk in summary.users_matched})
        run.updated_user_ids = sorted(set(run.updated_user_ids) | {str(pk) for pk in summary.users_updated})
        run.users_matched, run.users_updated = len(run.matched_user_ids), len(run.updated_user_ids)
        run.chunks_done = index + 1
        run.progressed_at = timezone.now()
        if run.chunks_done >= run.chunks_total:
            run.status = ScreeningStatus.COMPLETED
            run.finished_at = run.progressed_at
        run.save()
    _observe(run)
    return summary


def screening_fail(*, run_id: int, error: BaseException) -> None:
    """A chunk failed for good: the run stops FAILED; its unscreened PEPs stay pending for the next re-screening."""
    ScreeningRun.objects.filter(pk=run_id, status=ScreeningStatus.RUNNING).update(
        status=ScreeningStatus.FAILED, error=f"{type(error).__name__}: {error}"[:2000], finished_at=timezone.now()
    )
    run = ScreeningRun.objects.filter(pk=run_id).first()
    if run is not None:
        _observe(run)


def screening_summary(run: ScreeningRun) -> MatchingSummary:
    """The counts a run recorded (without the per-match list, which only an inline run keeps)."""
    return MatchingSummary(
        users_scanned=run.users_scanned,
        peps_screened=run.peps_screened,
        candidates=run.candidates,
        pairs=run.matches,
        users_matched=set(run.matched_user_ids),
        users_updated=set(run.updated_user_ids),
        alerts_created=run.alerts_created,
        run_id=run.pk,
    )


def screen_peps(
    *, pep_ids: Iterable, trigger: str, actor=None, subject: str = "", progress=None, background: bool = False
) -> MatchingSummary:
    """Screen these PEPs (the active ones) against every user, through the users' name index.

    The run goes in chunks of ``PEP_SCREENING_CHUNK`` PEPs (``screening_chunk``), each in its own transaction, so memory
    stays bounded however long the list and a run cut short can be resumed. Inline (the default) the chunks run
    here, ``progress(done)`` after each, and the summary lists the matches. With ``background`` they run as
    the task ``compliance.peps.screen_chunk`` once this transaction commits (on a worker when a broker is
    configured, here otherwise) and the summary returned holds only the run's id.
    """
    run = screening_start(pep_ids=pep_ids, trigger=trigger, actor=actor, subject=subject)
    summary = MatchingSummary(run_id=run.pk, users_scanned=run.users_scanned)
    if run.status != ScreeningStatus.RUNNING:
        return summary
    if background:
        transaction.on_commit(lambda: screening_dispatch(run_id=run.pk, index=0))
        return summary
    try:
        for index in range(run.chunks_total):
            part = screening_chunk(run_id=run.pk, index=index, actor=actor)
            if part is not None:
                summary.add(part)
            if progress:
                progress(min(len(run.pep_ids), (index + 1) * run.chunk_size))
    except Exception as exc:
        screening_fail(run_id=run.pk, error=exc)
        raise
    return summary


def screening_dispatch(*, run_id: int, index: int) -> None:
    """Send a run's chunk ``index`` to the queue; a broker that is down leaves it for ``screening_resume_stale``."""
    try:
        dispatch(SCREEN_CHUNK, args=(run_id, index))
    except QueueUnavailable:
        logger.warning("screening run %s: chunk %s not sent (queue down); re-screening resumes it", run_id, index)


def screening_resume_stale(*, older_than_seconds: int) -> list[int]:
    """Runs still RUNNING with no chunk done for this long (their worker died, a send was lost): send their
    next chunk again. A run that was only slow does that chunk once anyway (``screening_chunk``)."""
    cutoff = timezone.now() - dt.timedelta(seconds=older_than_seconds)
    stale = list(
        ScreeningRun.objects.filter(status=ScreeningStatus.RUNNING, chunks_total__gt=0, progressed_at__lt=cutoff)
        .order_by("pk")
        .values_list("pk", "chunks_done")
    )
    for run_id, done in stale:
        ScreeningRun.objects.filter(pk=run_id).update(progressed_at=timezone.now())
        screening_dispatch(run_id=run_id, index=done)
    return [run_id for run_id, _ in stale]


def _users_matching(
    batch: list[PEP], frequencies: NameFrequencies, threshold: float, summary: MatchingSummary
) -> list[_Found]:
    """The users whose names match these PEPs, found through the index in three reads per batch.

    1. how many users each lookup key holds (the index alone): a key holding thousands (a common initial) is
       not searched (``worth_searching``);
    2. the distinct names behind the keys searched, with how many users bear each (a join grouped in the
       database: a million users share far fewer names, and only the names travel);
    3. each distinct name is scored once against the PEP without date of birth and country; only the users
       whose name could still reach the threshold with them (``MAX_ADJUSTMENT_GAIN``) are read, and compared
       person by person.
    """
    people = {pep.pk: pep_person(pep) for pep in batch}
    keys = {pk: stored(lookup_keys(person, frequencies=frequencies)) for pk, person in people.items()}
    sizes = user_key_sizes(keys=set().union(*keys.values()) if keys else set())
    total = summary.users_scanned
    chosen = {
        pk: worth_searching({k: sizes[k] for k in pep_keys if k in sizes}, total=total) for pk, pep_keys in keys.items()
    }
    groups = user_name_groups(keys=set().union(*chosen.values()) if chosen else set())
    promising: dict = {}  # pep pk -> {key: set of names}
    for pep in batch:
        names_only = Person(name=pep.name, aliases=tuple(pep.aliases or ()))
        bearers: dict[tuple, int] = {}
        scores: dict[tuple, float] = {}
        for key in chosen[pep.pk]:
            for names, count in groups.get(key, ()):
                bearers[names] = max(bearers.get(names, 0), count)
                if names not in scores:
                    scores[names] = _name_score(names, names_only, frequencies, threshold)
                if scores[names] + MAX_ADJUSTMENT_GAIN >= threshold:
                    promising.setdefault(pep.pk, {}).setdefault(key, set()).add(names)
        summary.candidates += sum(bearers.values())
    wanted_keys = {key for by_key in promising.values() for key in by_key}
    wanted_names = {names for by_key in promising.values() for names_set in by_key.values() for names in names_set}
    named = users_named(keys=wanted_keys, names=wanted_names)
    found = []
    for pep in batch:
        seen: set[str] = set()
        for key, names_set in promising.get(pep.pk, {}).items():
            for user in named.get(key, ()):
                if user.names_key not in names_set or user.key in seen:
                    continue
                seen.add(user.key)
                # always user against PEP, whichever side started: the same pair scores the same way every time
                match = compare(user.person, people[pep.pk], frequencies=frequencies, threshold=threshold)
                if match.is_match:
                    found.append(_Found(user, pep, match))
    return found


def _name_score(names: tuple, pep_names: Person, frequencies: NameFrequencies, threshold: float) -> float:
    return compare(user_names(*names), pep_names, frequencies=frequencies, threshold=threshold).score


def _mark_screened(batch: list[PEP]) -> None:
    """Record the content each PEP was screened with; a PEP changed meanwhile keeps differing, so stays pending."""
    if not batch:
        return
    # a PEP whose content changed meanwhile has a hash none of these has (names are unique): it stays pending
    PEP.objects.filter(pk__in=[pep.pk for pep in batch], content_hash__in=[pep.content_hash for pep in batch]).update(
        screened_hash=F("content_hash"), screened_matcher=MATCHER_VERSION, screened_at=timezone.now()
    )


def screen_pending(
    *, actor=None, trigger: str = ScreeningTrigger.PENDING, progress=None, background: bool = False
) -> MatchingSummary:
    """Screen the active PEPs whose current content was never screened (a failed run, a new matcher)."""
    ids = list(pending_peps().order_by("pk").values_list("pk", flat=True))
    return screen_peps(
        pep_ids=ids,
        trigger=trigger,
        actor=actor,
        subject=f"{len(ids)} unscreened PEP(s)",
        progress=progress,
        background=background,
    )


def rescreen_periodically(*, stale_seconds: int) -> int | None:
    """Beat's re-screening: resume runs that stalled, then screen the pending PEPs in the background.

    No second periodic run starts while one is still going (a period sent twice, a slow run): its PEPs are
    still pending until their chunk is done, and would be screened twice. Answers the new run's id, if any.
    """
    screening_resume_stale(older_than_seconds=stale_seconds)
    if ScreeningRun.objects.filter(trigger=ScreeningTrigger.PERIODIC, status=ScreeningStatus.RUNNING).exists():
        return None
    if not pending_peps().exists():
        return None
    return screen_pending(trigger=ScreeningTrigger.PERIODIC, background=True).run_id


def screen_everything(*, actor=None, progress=None) -> MatchingSummary:
    """The whole active list against all users; afterwards every user counts as screened against it."""
    started = timezone.now()
    ids = list(PEP.objects.filter(is_active=True).order_by("pk").values_list("pk", flat=True))
    summary = screen_peps(
        pep_ids=ids, trigger=ScreeningTrigger.FULL, actor=actor, subject="all active PEPs", progress=progress
    )
    last = None
    while True:
        qs = PlatformUser.objects.filter(created_at__lte=started).order_by("pk")
        if last is not None:
            qs = qs.filter(pk__gt=last)
        rows = list(qs.values_list("pk", "first_name", "last_name")[:CHUNK])
        if not rows:
            break
        _record_users_screened(rows, started)
        last = rows[-1][0]
    return summary


# ---------------------------------------------------------------- a user against the PEPs


def screen_user(*, user_id, trigger: str, actor=None) -> MatchingSummary:
    """Screen one user (under their current names) against the active PEPs, through the PEPs' name index."""
    run = _open_run(trigger, actor, f"user {user_id}")
    summary = MatchingSummary(run_id=run.pk, users_scanned=1)
    try:
        user = user_people(user_ids=[user_id]).get(str(user_id))
        if user is not None:
            frequencies = user_name_frequencies()
            hits, summary.candidates = peps_matching(user.person, frequencies=frequencies, threshold=match_threshold())
            with transaction.atomic():
                _apply([_Found(user, hit.pep, hit.match) for hit in hits], summary, actor)
                _record_users_screened([(user.id, user.first_name, user.last_name)], run.started_at)
    except Exception as exc:
        _close_run(run, summary, exc)
        raise
    _close_run(run, summary)
    return summary


def _record_users_screened(rows: list[tuple], moment) -> None:
    UserScreening.objects.bulk_create(
        [
            UserScreening(
                user_id=pk, first_name=first, last_name=last, screened_at=moment, matcher_version=MATCHER_VERSION
            )
            for pk, first, last in rows
        ],
        batch_size=CHUNK,
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["first_name", "last_name", "screened_at", "matcher_version"],
    )


def _screen_user_safely(user_id, trigger: str) -> None:
    try:
        screen_user(user_id=user_id, trigger=trigger)
    except Exception:
        # a sign-up or a rename must never fail because screening did; the run is recorded as FAILED and the
        # user stays uncovered until the next full run (run_pep_screening --all)
        logger.exception("PEP screening of user %s failed", user_id)


def _after_commit(user, trigger: str) -> None:
    user_id = user.pk
    transaction.on_commit(lambda: _screen_user_safely(user_id, trigger))


def screen_user_after_commit(*, user, **_) -> None:
    """``kyc.hooks.user_registered``: screen the new user once the registration is committed."""
    _after_commit(user, ScreeningTrigger.USER_REGISTERED)


def screen_renamed_user_after_commit(*, user, **_) -> None:
    """``kyc.hooks.user_name_changed``: screen the user under the new name once the change is committed."""
    _after_commit(user, ScreeningTrigger.USER_NAME_CHANGED)


# ---------------------------------------------------------------- effects of matches


def alert_key(match: PEPMatch, *, reopened: bool = False) -> str:
    """One alert per (user, PEP name), ever; a reopening after a dismissal gets one per change of the PEP's
    content (the content dismissed, the content now), so two runs reopening the same pair alert once."""
    if reopened:
        return dedup_key(
            AlertType.PEP_MATCH, match.user_id, match.pep_name_key, "reopened", match.dismissed_hash, match.content_hash
        )
    return dedup_key(AlertType.PEP_MATCH, match.user_id, match.pep_name_key)


def _existing(pairs: set[tuple]) -> dict[tuple, PEPMatch]:
    """The match rows of these (user, PEP name) pairs, locked for this transaction."""
    rows: dict[tuple, PEPMatch] = {}
    user_ids = sorted({user_id for user_id, _ in pairs}, key=str)
    keys = {key for _, key in pairs}
    for start in range(0, len(user_ids), CHUNK):
        qs = PEPMatch.objects.select_for_update().filter(user_id__in=user_ids[start : start + CHUNK])
        for row in qs.filter(pep_name_key__in=keys) if len(keys) <= CHUNK else qs:
            if (row.user_id, row.pep_name_key) in pairs:
                rows[(row.user_id, row.pep_name_key)] = row
    return rows


def _take(row: PEPMatch, found: _Found) -> None:
    row.pep = found.pep
    row.pep_name = found.pep.name
    row.score = round(found.match.score, 4)
    row.explanation = found.match.explanation
    row.matcher_version = MATCHER_VERSION
    row.content_hash = found.pep.content_hash


def _alert_for(row: PEPMatch, found: _Found, *, reopened: bool) -> NewAlert:
    pep = found.pep
    return NewAlert(
        user_id=row.user_id,
        dedup_key=alert_key(row, reopened=reopened),
        severity=Severity.HIGH if found.match.score >= HIGH_SCORE else Severity.MEDIUM,
        alert_type=AlertType.PEP_MATCH,
        details={
            "match_id": str(row.pk),
            "pep_id": str(pep.pk),
            "pep_name": pep.name,
            "category": pep.category,
            "position": pep.position,
            "country": pep.country,
            "score": round(found.match.score, 4),
            "reason": "PEP record changed after a dismissal" if reopened else "new match",
            "explanation": found.match.explanation,
        },
        note=f"PEP match {pep.name} at {found.match.score:.2f}",
    )


def _apply(found: list[_Found], summary: MatchingSummary, actor) -> None:
    """Record the matches found, and for each new or reopened pair flag the user and raise one alert."""
    best: dict[tuple, _Found] = {}
    for item in found:
        pair = (item.user.id, item.pep.name_key)
        if pair not in best or item.match.score > best[pair].match.score:
            best[pair] = item
    if not best:
        return
    for (user_id, _), item in best.items():
        summary.pairs += 1
        summary.users_matched.add(user_id)
        entry = {"pep_id": item.pep.pk, "user_id": user_id, "full_name": item.user.full_name, "score": item.match.score}
        if len(summary.matches) < SUMMARY_MATCHES_MAX:
            summary.matches.append(entry)
        else:
            summary.matches_omitted += 1

    existing = _existing(set(best))
    fresh, reopened, refreshed = [], [], []
    for pair, item in best.items():
        row = existing.get(pair)
        if row is None:
            row = PEPMatch(user_id=pair[0], pep_name_key=pair[1])
            _take(row, item)
            fresh.append(row)
        elif row.status == PEPMatchStatus.DISMISSED and row.content_hash != item.pep.content_hash:
            row.dismissed_hash = row.content_hash
            _take(row, item)
            row.reopen()
            reopened.append(row)
        elif row.status == PEPMatchStatus.DISMISSED:
            # the officer's decision stands for this content; only follow the PEP record if it was re-added
            row.pep, row.pep_name = item.pep, item.pep.name
            refreshed.append(row)
        else:
            _take(row, item)
            refreshed.append(row)

    # Alerts first (a fresh row's id is known before it is written): the alert's dedup key decides which run
    # owns a new pair, so a pair two runs find at once is alerted and flagged once; the rows are then written
    # complete, without a second pass over them.
    raised = [(row, False) for row in fresh] + [(row, True) for row in reopened]
    alerts = alert_raise_many(
        alerts=[_alert_for(row, best[(row.user_id, row.pep_name_key)], reopened=again) for row, again in raised],
        actor=actor,
        follow_risk=False,  # refreshed below, with the PEP flag
    )
    by_key = {alert.dedup_key: alert for alert in alerts}
    summary.alerts_created += len(alerts)
    raised = [(row, again) for row, again in raised if alert_key(row, reopened=again) in by_key]
    changes = user_risk_refresh_many(
        user_ids=[row.user_id for row, _ in raised],
        potential_pep={row.user_id: True for row, _ in raised},
        reason="PEP match",
        actor=actor,
    )
    counted: set = set()
    for row, again in raised:
        change = changes.get(row.user_id)
        # what the match (with its alert) added to the score: counted on the user's first new match of the run
        row.risk_points = max(0, change.applied) if change and row.user_id not in counted else 0
        counted.add(row.user_id)
        row.alert = by_key[alert_key(row, reopened=again)]
        if change and change.changed:
            summary.users_updated.add(row.user_id)
    owned = {row.pk for row, _ in raised}
    # a fresh pair whose alert another run raised is that run's row to write
    PEPMatch.objects.bulk_create([row for row in fresh if row.pk in owned], batch_size=CHUNK, ignore_conflicts=True)
    moment = timezone.now()
    for row in [*reopened, *refreshed]:
        row.updated_at = moment
    PEPMatch.objects.bulk_update(
        [*reopened, *refreshed],
        [
            "pep",
            "pep_name",
            "score",
            "explanation",
            "matcher_version",
            "content_hash",
            "status",
            "risk_points",
            "alert",
            "updated_at",
        ],
        batch_size=CHUNK,
    )
    history_record_many(
        (
            (
                row,
                PEPMatchStatus.DISMISSED if again else "",
                PEPMatchStatus.POTENTIAL,
                f"The PEP record changed after the dismissal; names still match at {row.score:.2f}."
                if again
                else f"Names match at {row.score:.2f} (matcher {MATCHER_VERSION}).",
            )
            for row, again in raised
        ),
        history=PEPMatchEvent,
        actor=actor if isinstance(actor, Staff) else None,
        batch_size=CHUNK,
    )
