"""A user's history: their records as one timeline, the risk changes and the ledger totals."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Avg, Count, QuerySet, Sum
from django.utils import timezone

from backoffice.models import AuditLog
from backoffice.money import money
from kyc import events as kyc_events
from kyc.choices import TransactionStatus
from kyc.models import PlatformUser, Transaction
from kyc.selectors.users import user_documents, user_transactions, user_verifications

TWO_PLACES = Decimal("0.01")


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
