"""Reads of PEPs: lookup, lists, search, stats, the ad-hoc screen, matches, and screening coverage."""

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, F, Min, Prefetch, Q, QuerySet

from backoffice.errors import NotFound
from compliance.peps.choices import PEPCategory, ScreeningStatus
from compliance.peps.models.pep import (
    PEP,
    PEPMatch,
    PEPMatchEvent,
    ScreeningRun,
    UserScreening,
    normalise_name,
)
from compliance.peps.selectors.pep_index import pep_index
from kyc.selectors.name_matching import user_count, user_name_frequencies
from names import DEFAULT_THRESHOLD, MATCHER_VERSION, Match, NameFrequencies, Person, compare

PEP_NOT_FOUND = "PEP not found"
MATCH_NOT_FOUND = "PEP match not found"
SEARCH_RESULTS_MAX = 100
KEY_CHUNK = 500


def match_threshold() -> float:
    """The score from which two names are the same person: ``PEP_MATCH_THRESHOLD``, else the matcher's default."""
    value = getattr(settings, "PEP_MATCH_THRESHOLD", None)
    return DEFAULT_THRESHOLD if value is None else float(value)


def pep_person(pep: PEP) -> Person:
    """A PEP as the name matcher sees it."""
    return Person(
        name=pep.name,
        aliases=tuple(pep.aliases or ()),
        date_of_birth=pep.date_of_birth or None,
        country=pep.country or None,
    )


def pep_get(pep_id) -> PEP:
    """The PEP with this id; 404 "PEP not found" for an unknown or malformed id."""
    try:
        pk = uuid.UUID(str(pep_id))
    except (TypeError, ValueError):
        raise NotFound(PEP_NOT_FOUND) from None
    pep = PEP.objects.filter(pk=pk).first()
    if pep is None:
        raise NotFound(PEP_NOT_FOUND)
    return pep


def pep_list() -> QuerySet[PEP]:
    return PEP.objects.all()


def search_q(term: str) -> Q:
    """A substring of the name (accents and case ignored, through ``name_key``), an alias, the position or
    the country. Served by trigram indexes on PostgreSQL (migration 0006)."""
    term = " ".join(term.split())
    q = Q(name__icontains=term) | Q(position__icontains=term) | Q(country__icontains=term)
    key = normalise_name(term)
    if key:
        q |= Q(name_key__contains=key)
    return q


def pep_search(*, term: str) -> tuple[list[PEP], int]:
    """PEP records matching ``term`` (at most 100, names in order) and how many match in all."""
    qs = PEP.objects.filter(search_q(term)).order_by("name_key", "pk")
    found = list(qs[:SEARCH_RESULTS_MAX])
    return found, (len(found) if len(found) < SEARCH_RESULTS_MAX else qs.count())


def pep_stats() -> dict:
    """{total, active, inactive, byCountry, byCategory}, counted by the database (three grouped queries)."""
    totals = PEP.objects.aggregate(total=Count("pk"), active=Count("pk", filter=Q(is_active=True)))
    by_country: dict[str, int] = {}
    for country, n in PEP.objects.values_list("country").annotate(n=Count("pk")).order_by("country"):
        by_country[country or "Unknown"] = by_country.get(country or "Unknown", 0) + n
    by_category = dict.fromkeys(PEPCategory.values, 0)
    by_category.update(dict(PEP.objects.values_list("category").annotate(n=Count("pk")).order_by("category")))
    return {
        "total": totals["total"],
        "active": totals["active"],
        "inactive": totals["total"] - totals["active"],
        "byCountry": by_country,
        "byCategory": by_category,
    }


# ---------------------------------------------------------------- screening a name (no writes)


@dataclass(frozen=True)
class ScreenHit:
    pep: PEP
    match: Match


def peps_matching(person: Person, *, frequencies: NameFrequencies, threshold: float) -> tuple[list[ScreenHit], int]:
    """Active PEPs whose names match ``person``, best first, and how many candidates the index gave.

    This process's index of the PEPs (``pep_index``) proposes the candidates for the person's names; only those
    PEP rows are read and compared, so the cost follows the few candidates, not the length of the list, and
    the answer is the matcher's on the rows as they are now.
    """
    keys = pep_index().candidates(person.names, threshold=threshold)
    hits = []
    candidates = 0
    if keys:
        for pep in PEP.objects.filter(pk__in=keys, is_active=True):
            candidates += 1
            match = compare(person, pep_person(pep), frequencies=frequencies, threshold=threshold)
            if match.is_match:
                hits.append(ScreenHit(pep, match))
    hits.sort(key=lambda hit: (-hit.match.score, hit.pep.name_key))
    return hits, candidates


def pep_screen(*, name: str, date_of_birth=None, country: str | None = None, aliases=()) -> list[ScreenHit]:
    """The active PEPs a name matches at or above the threshold, best first, each with its explanation."""
    person = Person(name=name, aliases=tuple(aliases or ()), date_of_birth=date_of_birth, country=country)
    hits, _ = peps_matching(person, frequencies=user_name_frequencies(), threshold=match_threshold())
    return hits


# ---------------------------------------------------------------- matches


def match_list() -> QuerySet[PEPMatch]:
    return PEPMatch.objects.select_related("user", "pep", "reviewed_by")


def match_get(match_id, *, with_events: bool = False) -> PEPMatch:
    try:
        pk = uuid.UUID(str(match_id))
    except (TypeError, ValueError):
        raise NotFound(MATCH_NOT_FOUND) from None
    qs = match_list()
    if with_events:
        qs = qs.prefetch_related(Prefetch("events", queryset=PEPMatchEvent.objects.select_related("actor")))
    match = qs.filter(pk=pk).first()
    if match is None:
        raise NotFound(MATCH_NOT_FOUND)
    return match


def pep_matched_users(pep: PEP) -> list[PEPMatch]:
    """The matches of one PEP with their users, best score first (one query)."""
    return list(PEPMatch.objects.filter(pep=pep).select_related("user", "reviewed_by").order_by("-score", "pk"))


# ---------------------------------------------------------------- coverage


@dataclass(frozen=True)
class Coverage:
    """How current screening is: users screened against the current list, PEPs still waiting to be screened."""

    users: int
    users_covered: int
    peps_active: int
    peps_pending: int
    pending_since: object
    last_run: ScreeningRun | None

    @property
    def share(self) -> float:
        return self.users_covered / self.users if self.users else 1.0


def pending_peps() -> QuerySet[PEP]:
    """Active PEPs whose current content (or the current matcher) has not yet been screened against all users."""
    return PEP.objects.filter(is_active=True).filter(
        ~Q(screened_hash=F("content_hash")) | ~Q(screened_matcher=MATCHER_VERSION)
    )


def screening_coverage() -> Coverage:
    """Users screened against the current list, in four aggregate queries.

    A user is covered when they were screened (at registration, a name change or a full run) under their
    current names, by the current matcher, and after the oldest change of the list that is still waiting to
    be screened; every screened PEP change has been compared with all users who existed then.
    """
    pending = pending_peps().aggregate(n=Count("pk"), since=Min("updated_at"))
    users = user_count()
    covered = UserScreening.objects.filter(
        first_name=F("user__first_name"), last_name=F("user__last_name"), matcher_version=MATCHER_VERSION
    )
    if pending["since"] is not None:
        covered = covered.filter(screened_at__gte=pending["since"])
    return Coverage(
        users=users,
        users_covered=covered.count(),
        peps_active=PEP.objects.filter(is_active=True).count(),
        peps_pending=pending["n"],
        pending_since=pending["since"],
        last_run=ScreeningRun.objects.filter(status=ScreeningStatus.COMPLETED).order_by("-started_at").first(),
    )
