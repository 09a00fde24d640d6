"""Reads of KYC users: lists, stats, history, the name index that PEP screening searches. No writes here."""

import datetime as dt
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from django.core.cache import cache
from django.db import connection
from django.db.models import Avg, Count, Q, QuerySet, Sum
from django.utils import timezone

from backoffice.errors import NotFound
from backoffice.models import AuditLog
from backoffice.money import money
from backoffice.phones import normalise_phone
from kyc import events as kyc_events
from kyc.choices import CREDIT_TYPES, TransactionStatus, VerificationStatus
from kyc.identity import id_number_key
from kyc.models import (
    CreditRequest,
    KycDocument,
    PlatformUser,
    Transaction,
    UserNameKey,
    UserNamePart,
    VerificationRecord,
)
from kyc.name_index import stored, user_names
from names import DEFAULT_FREQUENCIES, NameFrequencies, Person
from vendors.models import Vendor

# Columns a list row needs; the password hash and other wide columns stay in the table.
LIST_FIELDS = (
    "id",
    "phone_number",
    "email",
    "first_name",
    "last_name",
    "verification_status",
    "risk_rating",
    "current_risk_score",
    "balance",
    "is_verified",
    "is_archived",
    "created_at",
)

TWO_PLACES = Decimal("0.01")


def user_list_queryset() -> QuerySet[PlatformUser]:
    return PlatformUser.objects.only(*LIST_FIELDS)


def user_get(*, user_id, queryset: QuerySet | None = None) -> PlatformUser:
    """The user with this id, archived or not; 404 "User not found" for unknown or malformed ids."""
    try:
        pk = uuid.UUID(str(user_id))
    except (TypeError, ValueError):
        raise NotFound("User not found") from None
    user = (queryset if queryset is not None else PlatformUser.objects.all()).filter(pk=pk).first()
    if user is None:
        raise NotFound("User not found")
    return user


def credit_requests() -> QuerySet[CreditRequest]:
    """Credit requests with the wallet holder and both people, newest first (filters: kyc.filtersets)."""
    return CreditRequest.objects.select_related("user", "requested_by", "decided_by").order_by("-created_at", "-id")


def credit_request_get(*, request_id) -> CreditRequest:
    """One credit request; 404 "Credit request not found" for unknown or malformed ids."""
    try:
        pk = uuid.UUID(str(request_id))
    except (TypeError, ValueError):
        raise NotFound("Credit request not found") from None
    request = credit_requests().filter(pk=pk).first()
    if request is None:
        raise NotFound("Credit request not found")
    return request


def user_by_phone(*, phone_number: str) -> PlatformUser:
    """The active user holding this number, given in any format libphonenumber reads (default region SZ).

    Something that is not a phone number at all is a 400 naming ``phoneNumber``.
    """
    phone = normalise_phone(phone_number)
    user = PlatformUser.objects.filter(phone_number=phone, is_archived=False).first()
    if user is None:
        raise NotFound("User not found")
    return user


def user_stats(*, now: dt.datetime | None = None) -> dict[str, int]:
    """Counts of the stats endpoint in one aggregate query (archived users excluded)."""
    now = now or timezone.now()
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    week = today - dt.timedelta(days=today.weekday())
    month = today.replace(day=1)
    return PlatformUser.objects.filter(is_archived=False).aggregate(
        totalUsers=Count("pk"),
        verifiedUsers=Count("pk", filter=Q(verification_status=VerificationStatus.VERIFIED)),
        pendingVerification=Count("pk", filter=Q(verification_status=VerificationStatus.PENDING)),
        rejectedVerification=Count("pk", filter=Q(verification_status=VerificationStatus.REJECTED)),
        newUsersToday=Count("pk", filter=Q(created_at__gte=today)),
        newUsersThisWeek=Count("pk", filter=Q(created_at__gte=week)),
        newUsersThisMonth=Count("pk", filter=Q(created_at__gte=month)),
    )


def user_verifications(*, user: PlatformUser) -> QuerySet[VerificationRecord]:
    return user.verifications.order_by("-created_at", "-pk")


def user_documents(*, user: PlatformUser) -> QuerySet[KycDocument]:
    return user.documents.order_by("type", "-uploaded_at")


def user_transactions(*, user: PlatformUser) -> QuerySet[Transaction]:
    return Transaction.objects.filter(user=user)


@dataclass
class TimelineEvent:
    at: dt.datetime
    type: str
    description: str


@dataclass
class UserHistory:
    profile: PlatformUser
    verifications: list
    transactions: list
    documents: list
    timeline: list[TimelineEvent] = field(default_factory=list)
    statistics: dict = field(default_factory=dict)


def user_statistics(*, user: PlatformUser, now: dt.datetime | None = None) -> dict:
    """Totals of the user's completed ledger rows, summed and averaged by the database."""
    now = now or timezone.now()
    agg = Transaction.objects.filter(user=user, status=TransactionStatus.COMPLETED).aggregate(
        total=Count("pk"), volume=Sum("amount"), average=Avg("amount")
    )
    return {
        "total_transactions": agg["total"],
        "total_volume": (agg["volume"] or Decimal("0")).quantize(TWO_PLACES),
        "avg_transaction": Decimal(agg["average"] or 0).quantize(TWO_PLACES),
        # whole days since registration, the day of registration counting as the first
        "days_active": (now.date() - user.created_at.date()).days + 1,
    }


def user_risk_changes(*, user: PlatformUser) -> QuerySet[AuditLog]:
    """The changes of the user's risk score, rating or PEP flag, newest first, each with its reason."""
    return AuditLog.objects.filter(
        object_type=kyc_events.KYC_USER, object_id=str(user.pk), action=kyc_events.Action.USER_RISK
    ).order_by("-created_at", "-id")


def risk_change_description(entry: AuditLog) -> str:
    """ "Risk score 43 → 22, rating MEDIUM → LOW: Alert raised (rule T-THR)" from a ``user.risk`` entry."""
    changes = entry.changes or {}
    score, rating, pep = (changes.get(k) or {} for k in ("current_risk_score", "risk_rating", "is_potential_pep"))
    parts = [f"Risk score {score.get('from')} → {score.get('to')}"]
    if rating.get("from") != rating.get("to"):
        parts.append(f"rating {rating.get('from')} → {rating.get('to')}")
    if pep.get("from") != pep.get("to"):
        parts.append("flagged as a potential PEP" if pep.get("to") else "potential-PEP flag cleared")
    return f"{', '.join(parts)}: {changes.get('reason') or 'no reason recorded'}"


def _timeline(user: PlatformUser, verifications, documents, transactions, risk_changes=()) -> list[TimelineEvent]:
    events = [TimelineEvent(user.created_at, "REGISTERED", "Account registered")]
    for entry in risk_changes:
        events.append(TimelineEvent(entry.created_at, "RISK_CHANGED", risk_change_description(entry)))
    if user.is_archived and user.archived_at:
        events.append(TimelineEvent(user.archived_at, "ARCHIVED", "Account archived"))
    for record in verifications:
        events.append(
            TimelineEvent(record.created_at, "VERIFICATION_STARTED", f"{record.type.title()} verification started")
        )
        if record.completed_at:
            events.append(
                TimelineEvent(
                    record.completed_at,
                    "VERIFICATION_COMPLETED",
                    f"{record.type.title()} verification {record.status.lower()}",
                )
            )
    for document in documents:
        events.append(
            TimelineEvent(document.uploaded_at, "DOCUMENT_UPLOADED", f"{document.get_type_display()} uploaded")
        )
    for tx in transactions:
        events.append(
            TimelineEvent(
                tx.created_at,
                f"TRANSACTION_{tx.type}",
                f"{tx.get_type_display()} of {money(tx.amount)} ({tx.status.lower()})",
            )
        )
    events.sort(key=lambda e: e.at, reverse=True)
    return events


def user_history(*, user: PlatformUser, risk_reasons: bool = False) -> UserHistory:
    """Everything about one user (the API's history: all of it), and one timeline of it, newest first.

    Five queries and one aggregate. ``risk_reasons``: the changes of the risk score with their reasons, which
    name alerts, SARs and PEP matches (investigation material, never for support or finance: tipping-off).
    For a page that shows a user, ``user_timeline`` reads a bounded slice.
    """
    verifications = list(user_verifications(user=user))
    documents = list(user_documents(user=user))
    transactions = list(user_transactions(user=user).order_by("-created_at", "-pk"))
    return UserHistory(
        profile=user,
        verifications=verifications,
        transactions=transactions,
        documents=documents,
        timeline=_timeline(
            user, verifications, documents, transactions, list(user_risk_changes(user=user)) if risk_reasons else []
        ),
        statistics=user_statistics(user=user),
    )


def user_timeline(*, user: PlatformUser, limit: int = 100, risk_reasons: bool = False) -> list[TimelineEvent]:
    """The newest ``limit`` events of a user, reading at most ``limit`` rows of each kind.

    A user with years of ledger costs the same three small queries as a new one.
    """
    verifications = list(user_verifications(user=user)[:limit])
    documents = list(user_documents(user=user).order_by("-uploaded_at", "-pk")[:limit])
    transactions = list(user_transactions(user=user).order_by("-created_at", "-pk")[:limit])
    risk_changes = list(user_risk_changes(user=user)[:limit]) if risk_reasons else []
    return _timeline(user, verifications, documents, transactions, risk_changes)[:limit]


# ---------------------------------------------------------------- the customer view: counterparties and flows


@dataclass(frozen=True)
class Counterparty:
    """Someone a wallet exchanged money with: a user or a vendor, and what went each way."""

    key: str
    name: str
    kind: str  # "user" or "vendor"
    pk: object
    sent: Decimal  # from the wallet to the counterparty
    received: Decimal  # from the counterparty to the wallet
    count: int

    @property
    def total(self) -> Decimal:
        return self.sent + self.received


def _flows_by_party(queryset) -> dict[tuple, dict]:
    """(owner id, counterparty user id, counterparty vendor id) -> sent, received, count, from one GROUP BY."""
    rows = (
        queryset.filter(status=TransactionStatus.COMPLETED)
        .filter(Q(counterparty_user__isnull=False) | Q(counterparty_vendor__isnull=False))
        .values("user_id", "counterparty_user_id", "counterparty_vendor_id")
        .annotate(
            received=Sum("amount", filter=Q(type__in=CREDIT_TYPES)),
            sent=Sum("amount", filter=~Q(type__in=CREDIT_TYPES)),
            n=Count("pk"),
        )
        .order_by()
    )
    return {
        (r["user_id"], r["counterparty_user_id"], r["counterparty_vendor_id"]): {
            "sent": r["sent"] or Decimal("0"),
            "received": r["received"] or Decimal("0"),
            "count": r["n"],
        }
        for r in rows
    }


def _named(flows: dict[tuple, dict]) -> list[tuple[object, Counterparty]]:
    """The flows with their counterparties' names: one query for the users, one for the vendors."""
    user_ids = {cp for (_, cp, _) in flows if cp}
    vendor_ids = {v for (_, _, v) in flows if v}
    users = {u.pk: u.full_name for u in PlatformUser.objects.filter(pk__in=user_ids).only("first_name", "last_name")}
    vendors = dict(Vendor.objects.filter(pk__in=vendor_ids).values_list("pk", "business_name"))
    named = []
    for (owner, cp_user, cp_vendor), f in flows.items():
        kind, pk = ("user", cp_user) if cp_user else ("vendor", cp_vendor)
        name = users.get(cp_user, "unknown user") if cp_user else vendors.get(cp_vendor, "unknown vendor")
        party = Counterparty(f"{kind}:{pk}", name, kind, pk, f["sent"], f["received"], f["count"])
        named.append((owner, party))
    return named


def user_counterparties(*, user: PlatformUser, limit: int = 8) -> list[Counterparty]:
    """Whom the wallet exchanged the most money with (completed rows), both directions: three queries."""
    parties = [party for _, party in _named(_flows_by_party(Transaction.objects.filter(user=user)))]
    return sorted(parties, key=lambda p: (-p.total, p.name))[:limit]


@dataclass(frozen=True)
class MoneyFlows:
    """The wallet's counterparties (one hop) and, for the users among them, their own (two hops)."""

    centre: PlatformUser
    first_hop: list[Counterparty]
    second_hop: dict[str, list[Counterparty]]  # first-hop key -> its counterparties


def user_money_flows(*, user: PlatformUser, first: int = 6, second: int = 3) -> MoneyFlows:
    """One and two hops of money around a wallet, in a fixed number of queries (five) whatever the ledger."""
    first_hop = user_counterparties(user=user, limit=first)
    hop_users = [p.pk for p in first_hop if p.kind == "user"]
    onward = (
        _named(_flows_by_party(Transaction.objects.filter(user_id__in=hop_users).exclude(counterparty_user_id=user.pk)))
        if hop_users
        else []
    )
    second_hop: dict[str, list[Counterparty]] = {}
    for owner, party in onward:
        second_hop.setdefault(f"user:{owner}", []).append(party)
    for key, parties in second_hop.items():
        second_hop[key] = sorted(parties, key=lambda p: (-p.total, p.name))[:second]
    return MoneyFlows(centre=user, first_hop=first_hop, second_hop=second_hop)


# ---------------------------------------------------------------- the name index (PEP screening)

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


def users_with_id_number(*, id_number: str, exclude_user_id=None) -> list:
    """Ids of the users whose profile carries ``id_number``, compared as ``kyc.identity.id_number_key`` does."""
    key = id_number_key(id_number)
    if not key:
        return []
    queryset = PlatformUser.objects.filter(id_number_key=key)
    if exclude_user_id is not None:
        queryset = queryset.exclude(pk=exclude_user_id)
    return list(queryset.values_list("pk", flat=True)[:20])
