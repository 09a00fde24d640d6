"""Reads of SARs: the list, one report by either of its ids, what a staff member may do with it."""

import uuid

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery

from backoffice.errors import NotFound
from compliance.models import SAR, Alert, SARTransition

# Columns the list shows; the description is the only wide one and the list carries it.
LIST_COLUMNS = (
    "id",
    "sar_id",
    "status",
    "suspicious_activity_type",
    "activity_description",
    "date_of_suspicious_activity",
    "amount_involved",
    "drafted_at",
    "created_at",
    "submitted_at",
    "entity_user__id",
    "entity_user__first_name",
    "entity_user__last_name",
    "entity_user__email",
    "entity_user__phone_number",
    "filed_by__id",
    "filed_by__first_name",
    "filed_by__last_name",
    "filed_by__email",
)


def sar_list() -> QuerySet[SAR]:
    """SARs with their subject and filer in the same query, only the columns the list shows.

    Filtering and sorting are the list's filterset (``compliance.filtersets.SARFilterSet``).
    """
    return (
        SAR.objects.select_related("entity_user", "filed_by")
        .only(*LIST_COLUMNS)
        .annotate(first_alert_at=first_alert_at())
    )


def first_alert_at() -> Subquery:
    """When the first alert a SAR cites was raised (its detection date, compliance.deadlines), per row."""
    cited = Alert.objects.filter(sars=OuterRef("pk")).order_by("created_at").values("created_at")[:1]
    return Subquery(cited)


def sar_get(*, ref: str, for_update: bool = False) -> SAR:
    """The SAR whose UUID or human-readable ``sarId`` is ``ref``; 404 "SAR not found" otherwise."""
    queryset = SAR.objects.select_related("entity_user", "filed_by", "reviewed_by", "approved_by")
    if for_update:
        queryset = queryset.select_for_update()
    ref = (ref or "").strip()
    try:
        lookup = {"pk": uuid.UUID(ref)}
    except ValueError:
        lookup = {"sar_id": ref}
    sar = queryset.filter(**lookup).first() if ref and len(ref) <= 64 else None
    if sar is None:
        raise NotFound("SAR not found")
    return sar


def sar_for_report(*, sar: SAR) -> SAR:
    """``sar`` with everything a report shows (people, transactions, alerts, history) in a fixed number of queries."""
    return (
        SAR.objects.select_related("entity_user", "filed_by", "reviewed_by", "approved_by")
        .prefetch_related(
            Prefetch(
                "related_transactions",
                queryset=sar.related_transactions.model.objects.select_related(
                    "counterparty_user", "counterparty_vendor"
                ).order_by("created_at", "id"),
            ),
            Prefetch("related_alerts", queryset=sar.related_alerts.model.objects.select_related("rule")),
            Prefetch(
                "transitions", queryset=SARTransition.objects.select_related("actor").order_by("created_at", "id")
            ),
        )
        .get(pk=sar.pk)
    )


def sar_available_moves(*, sar: SAR, actor) -> list[str]:
    """The states ``actor`` may move ``sar`` into right now: the table, the role and four eyes all agree."""
    moves = []
    for transition in sar.get_available_user_status_transitions(actor):
        target = str(transition.target)
        if sar.four_eyes_breach(actor=actor, target=target) is None and target not in moves:
            moves.append(target)
    return moves


def user_under_sar_retention(*, user, **_) -> bool:
    """True while a SAR needs this user's records kept for the legal retention period.

    They are its subject, or it cites one of their ledger rows or alerts
    (purging those would cut the report's evidence). The KYC purge asks this.
    """
    return (
        SAR.objects.filter(entity_user=user).exists()
        or SAR.objects.filter(related_transactions__user=user).exists()
        or SAR.objects.filter(related_alerts__user=user).exists()
    )
