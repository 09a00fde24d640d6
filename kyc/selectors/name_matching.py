"""The name index that PEP screening searches: users as the matcher sees them, key sizes, name weights."""

import datetime as dt
import uuid
from dataclasses import dataclass
from functools import cached_property

from django.core.cache import cache
from django.db import connection
from django.db.models import Count

from kyc.models import PlatformUser, UserNameKey, UserNamePart
from kyc.name_index import stored, user_names
from names import DEFAULT_FREQUENCIES, NameFrequencies, Person, compare, lookup_keys

NAME_FREQUENCIES_CACHE_KEY = "kyc:user-name-frequencies:v1"
NAME_FREQUENCIES_STAMP_KEY = "kyc:user-name-frequencies:stamp"
NAME_FREQUENCIES_SECONDS = 15 * 60
# The prior (names.DEFAULT_FREQUENCIES) counts as this many people beside our users: with few users it
# keeps "dlamini" common, with a million it is 1% of the evidence.
PRIOR_PEOPLE = 10_000
# A part held by fewer than one user in 10,000 weighs as much as an unseen one, so rarer parts are not kept.
RARE_SHARE = 10_000
LOOKUP_CHUNK = 500
PEOPLE_CHUNK = 5000
PEOPLE_CHUNK_PG = 20_000
PERSON_FIELDS = ("id", "first_name", "last_name", "names", "surname", "date_of_birth", "country")


@dataclass
class UserPerson:
    """A user as the name matcher sees them: ``names`` (name and aliases only, shared by namesakes and
    cached) and ``person`` (with date of birth and country, built when first asked for). ``key`` is the id as
    text, as the index lookups give it (a million UUID objects cost more than the comparisons)."""

    key: str
    first_name: str
    last_name: str
    legacy_names: str
    legacy_surname: str
    date_of_birth: dt.date | None
    country: str

    @property
    def id(self) -> uuid.UUID:
        return uuid.UUID(self.key)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def names_key(self) -> tuple[str, str, str, str]:
        return (self.first_name, self.last_name, self.legacy_names or "", self.legacy_surname or "")

    @property
    def names(self) -> Person:
        return user_names(*self.names_key)

    @cached_property
    def person(self) -> Person:
        known = self.names
        return Person(known.name, known.aliases, date_of_birth=self.date_of_birth, country=self.country or None)


def _postgres() -> bool:
    return connection.vendor == "postgresql"


def user_people(*, user_ids) -> dict[str, UserPerson]:
    """{user id as text: UserPerson} for these users (ids as text or UUIDs; unknown ones left out).

    On PostgreSQL one query per 20,000 ids, the ids passed as one array; elsewhere the ORM in chunks.
    """
    found: dict[str, UserPerson] = {}
    ids = [str(user_id) for user_id in user_ids]
    if _postgres():
        columns = ", ".join(f'"{name}"' for name in PERSON_FIELDS[1:])
        with connection.cursor() as cursor:
            for start in range(0, len(ids), PEOPLE_CHUNK_PG):
                cursor.execute(
                    f"SELECT id::text, {columns} FROM kyc_platformuser WHERE id = ANY(%s::uuid[])",
                    [ids[start : start + PEOPLE_CHUNK_PG]],
                )
                for row in cursor.fetchall():
                    found[row[0]] = UserPerson(*row)
        return found
    chunk = min(PEOPLE_CHUNK, connection.features.max_query_params or PEOPLE_CHUNK)
    for start in range(0, len(ids), chunk):
        pks = [uuid.UUID(user_id) for user_id in ids[start : start + chunk]]
        for row in PlatformUser.objects.filter(pk__in=pks).values_list(*PERSON_FIELDS):
            found[str(row[0])] = UserPerson(str(row[0]), *row[1:])
    return found


def user_key_sizes(*, keys) -> dict[str, int]:
    """{key: how many users hold it} for these keys (read from the index alone; keys nobody holds left out)."""
    sizes: dict[str, int] = {}
    wanted = sorted(stored(keys))
    for start in range(0, len(wanted), LOOKUP_CHUNK):
        chunk = wanted[start : start + LOOKUP_CHUNK]
        sizes.update(UserNameKey.objects.filter(key__in=chunk).values_list("key").annotate(n=Count("pk")).order_by())
    return sizes


NAME_COLUMNS = ("user__first_name", "user__last_name", "user__names", "user__surname")


def user_name_groups(*, keys) -> dict[str, list[tuple[tuple[str, str, str, str], int]]]:
    """{key: [(names, how many users bear them), ...]}: the distinct sets of name fields behind each key.

    One join grouped by the database per 500 keys: the names travel, not the millions of users who share them.
    ``names`` is ``UserPerson.names_key`` (first name, last name, legacy names, legacy surname).
    """
    groups: dict[str, list] = {}
    wanted = sorted(stored(keys))
    for start in range(0, len(wanted), LOOKUP_CHUNK):
        rows = (
            UserNameKey.objects.filter(key__in=wanted[start : start + LOOKUP_CHUNK])
            .values_list("key", *NAME_COLUMNS)
            .annotate(n=Count("pk"))
            .order_by()
        )
        for key, first, last, names, surname, n in rows:
            groups.setdefault(key, []).append(((first, last, names or "", surname or ""), n))
    return groups


def users_named(*, keys, names) -> dict[str, list[UserPerson]]:
    """{key: [UserPerson, ...]}: the users holding these keys whose names are among ``names`` (names_key tuples)."""
    found: dict[str, list[UserPerson]] = {}
    wanted = sorted(stored(keys))
    names = set(names)
    if not wanted or not names:
        return found
    firsts = sorted({n[0] for n in names})
    lasts = sorted({n[1] for n in names})
    fields = ("key", "user_id", *NAME_COLUMNS, "user__date_of_birth", "user__country")
    for start in range(0, len(wanted), LOOKUP_CHUNK):
        rows = UserNameKey.objects.filter(
            key__in=wanted[start : start + LOOKUP_CHUNK], user__first_name__in=firsts, user__last_name__in=lasts
        ).values_list(*fields)
        for key, user_id, first, last, legacy, surname, born, country in rows:
            person = UserPerson(str(user_id), first, last, legacy or "", surname or "", born, country)
            if person.names_key in names:
                found.setdefault(key, []).append(person)
    return found


def user_count() -> int:
    return PlatformUser.objects.count()


def _counted_parts() -> tuple[int, dict[str, int]]:
    total = PlatformUser.objects.count()
    floor = max(1, total // RARE_SHARE)
    rows = (
        UserNamePart.objects.values("part")
        .annotate(n=Count("user_id"))
        .filter(n__gte=floor)
        .values_list("part", "n")
        .order_by()
    )
    return total, dict(rows)


def user_name_frequencies(*, fresh: bool = False) -> NameFrequencies:
    """How common each name part is among our users, for weighing parts (``names.NameFrequencies``).

    Counted by the database (one GROUP BY over the parts table) and kept 15 minutes in the shared cache: a
    screening must not count a million users, and weights that lag a few registrations behind change nothing.
    Each process also keeps the blended counts under the cached stamp, so a screen costs one small cache read.
    Blended with the regional prior as ``PRIOR_PEOPLE`` extra people, so a young user base with three
    Dlaminis does not make Dlamini look rare.
    """
    stamp = None if fresh else cache.get(NAME_FREQUENCIES_STAMP_KEY)
    if stamp is not None and _memo and _memo[0] == stamp:
        return _memo[1]
    cached = None if stamp is None else cache.get(NAME_FREQUENCIES_CACHE_KEY)
    if cached is None or cached[0] != stamp:
        stamp = uuid.uuid4().hex
        cached = (stamp, *_counted_parts())
        cache.set(NAME_FREQUENCIES_CACHE_KEY, cached, NAME_FREQUENCIES_SECONDS)
        cache.set(NAME_FREQUENCIES_STAMP_KEY, stamp, NAME_FREQUENCIES_SECONDS)
    _, total, counts = cached
    prior = DEFAULT_FREQUENCIES
    blended = {part: count * PRIOR_PEOPLE / prior.total for part, count in prior.counts.items()}
    for part, count in counts.items():
        blended[part] = blended.get(part, 0) + count
    frequencies = NameFrequencies(counts=blended, total=total + PRIOR_PEOPLE)
    _memo[:] = [stamp, frequencies]
    return frequencies


# (stamp, frequencies) of the counts this process last blended
_memo: list = []


# The admin's typo-tolerant search compares at most this many people found by the name index's keys.
NAMED_LIKE_CANDIDATES = 2000


def users_named_like(*, term: str, limit: int = 100) -> list[uuid.UUID]:
    """The users whose name the matcher finds ``term`` to be (case, accents, word order, one or two typos), best
    first: the people behind the name index's keys for ``term`` (the keys PEP screening searches), each compared
    with the matcher. For the admin's customer search when the plain search finds nobody ("Thabo Dlamni")."""
    query = Person(term)
    keys = sorted(stored(lookup_keys(query)))
    if not keys:
        return []
    ids: list = []
    for start in range(0, len(keys), LOOKUP_CHUNK):
        ids.extend(
            UserNameKey.objects.filter(key__in=keys[start : start + LOOKUP_CHUNK])
            .values_list("user_id", flat=True)
            .distinct()[:NAMED_LIKE_CANDIDATES]
        )
        if len(ids) >= NAMED_LIKE_CANDIDATES:
            break
    scored = []
    for person in user_people(user_ids=set(ids[:NAMED_LIKE_CANDIDATES])).values():
        match = compare(query, person.names)
        if match.is_match:
            scored.append((-match.score, person.full_name, person.key))
    return [uuid.UUID(key) for _, _, key in sorted(scored)[:limit]]
