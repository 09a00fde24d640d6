"""Reads of KYC users: lists, one user, the stats, their records. No writes here."""

import datetime as dt
import uuid
from dataclasses import dataclass

from django.db.models import Case, Count, F, Q, QuerySet, Value, When
from django.utils import timezone

from backoffice.errors import NotFound
from backoffice.phones import normalise_phone
from backoffice.visibility import Facet, sees
from kyc import hooks
from kyc.choices import HIGH_FROM, MEDIUM_FROM, RiskRating, VerificationStatus, risk_rating_for
from kyc.identity import id_number_key
from kyc.models import KycDocument, PlatformUser, Transaction, VerificationRecord

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
    "is_frozen",
    "created_at",
)


def user_list_queryset() -> QuerySet[PlatformUser]:
    return PlatformUser.objects.only(*LIST_FIELDS)


def users_seen_by(users, *, viewer) -> list[PlatformUser]:
    """The users, each with ``seen_risk_score`` and ``seen_risk_rating``: their risk as ``viewer`` may see it.

    A viewer without ``Facet.SAR_RISK`` (support, finance) sees the score less the points a SAR on file adds
    (compliance answers ``hooks.sar_risk_points``: two queries for a page, five more when it holds a SAR's
    subject), and the rating that score implies: the number does not move when a report is filed.
    """
    users = list(users)
    withheld = {} if sees(viewer, Facet.SAR_RISK) or not users else hooks.sar_risk_points.first(users=users) or {}
    for user in users:
        points = withheld.get(user.pk, 0)
        user.seen_risk_score = max(0, user.current_risk_score - points)
        user.seen_risk_rating = risk_rating_for(user.seen_risk_score) if points else user.risk_rating
    return users


def users_by_seen_risk(queryset: QuerySet, *, viewer) -> QuerySet:
    """``queryset`` annotated with the risk ``viewer`` may see, to filter and order by: ``seen_risk_floor``
    (the score) and ``seen_risk_band`` (the rating).

    For viewers without ``Facet.SAR_RISK`` the floor is the stored score less a SAR's points for a SAR's
    subject (compliance answers ``hooks.risk_floor_without_sar``); its band is exactly the rating
    ``users_seen_by`` shows (a score capped at 100 keeps at least 70 without the SAR: HIGH either way), so a
    rating filter never tells a SAR's subject apart. Other viewers get the stored columns.
    """
    floor = None if sees(viewer, Facet.SAR_RISK) else hooks.risk_floor_without_sar.first()
    if floor is None:
        return queryset.annotate(seen_risk_floor=F("current_risk_score"), seen_risk_band=F("risk_rating"))
    queryset = queryset.annotate(seen_risk_floor=floor)
    return queryset.annotate(
        seen_risk_band=Case(
            When(seen_risk_floor__gte=HIGH_FROM, then=Value(RiskRating.HIGH)),
            When(seen_risk_floor__gte=MEDIUM_FROM, then=Value(RiskRating.MEDIUM)),
            default=Value(RiskRating.LOW),
        )
    )


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


def user_by_phone(*, phone_number: str) -> PlatformUser:
    """The active user holding this number, given in any format libphonenumber reads (default region SZ).

    Something that is not a phone number at all is a 400 naming ``phoneNumber``.
    """
    phone = normalise_phone(phone_number)
    user = PlatformUser.objects.filter(phone_number=phone, is_archived=False).first()
    if user is None:
        raise NotFound("User not found")
    return user


@dataclass(frozen=True)
class UserStats:
    """How many active users there are, by verification status and by how recently they registered."""

    total_users: int
    verified_users: int
    pending_verification: int
    rejected_verification: int
    new_users_today: int
    new_users_this_week: int  # since Monday
    new_users_this_month: int


def user_stats(*, now: dt.datetime | None = None) -> UserStats:
    """Counts of the stats endpoint in one aggregate query (archived users excluded)."""
    now = now or timezone.now()
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    week = today - dt.timedelta(days=today.weekday())
    month = today.replace(day=1)
    counts = PlatformUser.objects.filter(is_archived=False).aggregate(
        total_users=Count("pk"),
        verified_users=Count("pk", filter=Q(verification_status=VerificationStatus.VERIFIED)),
        pending_verification=Count("pk", filter=Q(verification_status=VerificationStatus.PENDING)),
        rejected_verification=Count("pk", filter=Q(verification_status=VerificationStatus.REJECTED)),
        new_users_today=Count("pk", filter=Q(created_at__gte=today)),
        new_users_this_week=Count("pk", filter=Q(created_at__gte=week)),
        new_users_this_month=Count("pk", filter=Q(created_at__gte=month)),
    )
    return UserStats(**counts)


def user_verifications(*, user: PlatformUser) -> QuerySet[VerificationRecord]:
    return user.verifications.order_by("-created_at", "-pk")


def user_documents(*, user: PlatformUser) -> QuerySet[KycDocument]:
    return user.documents.order_by("type", "-uploaded_at")


def user_transactions(*, user: PlatformUser) -> QuerySet[Transaction]:
    return Transaction.objects.filter(user=user)


def users_with_id_number(*, id_number: str, exclude_user_id=None) -> list:
    """Ids of the users whose profile carries ``id_number``, compared as ``kyc.identity.id_number_key`` does."""
    key = id_number_key(id_number)
    if not key:
        return []
    queryset = PlatformUser.objects.filter(id_number_key=key)
    if exclude_user_id is not None:
        queryset = queryset.exclude(pk=exclude_user_id)
    return list(queryset.values_list("pk", flat=True)[:20])


def user_archived(user_id) -> bool | None:
    """Whether the user is archived; None when there is no such user."""
    return PlatformUser.objects.filter(pk=user_id).values_list("is_archived", flat=True).first()


def user_frozen(user_id) -> bool | None:
    """Whether the user's wallet is frozen; None when there is no such user."""
    return PlatformUser.objects.filter(pk=user_id).values_list("is_frozen", flat=True).first()
