"""Reads of SARs: the list, one report by either of its ids, what a staff member may do with it and who acts next."""

import datetime as dt
import uuid

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery

from backoffice.errors import NotFound
from backoffice.services import Actor
from compliance.aml.models.alerts import Alert
from compliance.casework.models.casework import CaseAttachment, CaseComment
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import FIU_ANSWERS, SAR, SARDraftEdit, SARNarrativeVersion, SARTransition
from kyc.models import Transaction

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

    Filtering and sorting are the list's filterset (``compliance.sars.filtersets.SARFilterSet``).
    """
    return (
        SAR.objects.select_related("entity_user", "filed_by")
        .only(*LIST_COLUMNS)
        .annotate(first_alert_at=first_alert_at())
    )


def first_alert_at() -> Subquery:
    """When the first alert a SAR cites was raised (its detection date, compliance.casework.deadlines), per row."""
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


def sar_for_report(*, sar: SAR, as_of: dt.datetime | None = None) -> SAR:
    """``sar`` with everything its page and its exports show, in a fixed number of queries (ten).

    People, transactions with their counterparties, alerts with their rules
    (and the comments and files on them meant for the report), history,
    the thread, the files and the narrative versions. ``report_comments`` and
    ``report_attachments`` gather what goes into an export: the comments
    marked for the report and every evidence file, the SAR's own and its
    alerts', oldest first. ``as_of``: only what had been added by then (the
    report as filed, for one filed before filed copies were stored). The
    draft edits' authors come along for four eyes (``SAR.content_author_ids``).
    """
    by_time = ("created_at", "id")
    loaded = (
        SAR.objects.select_related("entity_user", "filed_by", "reviewed_by", "approved_by", "corrects")
        .prefetch_related(
            Prefetch(
                "related_transactions",
                queryset=Transaction.objects.select_related("counterparty_user", "counterparty_vendor").order_by(
                    *by_time
                ),
            ),
            Prefetch(
                "related_alerts",
                queryset=Alert.objects.select_related("rule")
                .order_by(*by_time)
                .prefetch_related(
                    Prefetch(
                        "comments",
                        queryset=CaseComment.objects.filter(for_report=True)
                        .select_related("author")
                        .order_by(*by_time),
                        to_attr="report_comments",
                    ),
                    Prefetch(
                        "attachments",
                        queryset=CaseAttachment.objects.select_related("uploaded_by").order_by(*by_time),
                        to_attr="evidence",
                    ),
                ),
            ),
            Prefetch("transitions", queryset=SARTransition.objects.select_related("actor").order_by(*by_time)),
            Prefetch("comments", queryset=CaseComment.objects.select_related("author").order_by(*by_time)),
            Prefetch("attachments", queryset=CaseAttachment.objects.select_related("uploaded_by").order_by(*by_time)),
            Prefetch("narrative_versions", queryset=SARNarrativeVersion.objects.select_related("author")),
            Prefetch("draft_edits", queryset=SARDraftEdit.objects.only("id", "sar_id", "author_id")),
        )
        .get(pk=sar.pk)
    )
    alerts = list(loaded.related_alerts.all())
    loaded.report_comments = sorted(
        [c for c in loaded.comments.all() if c.for_report] + [c for a in alerts for c in a.report_comments],
        key=lambda c: (c.created_at, str(c.pk)),
    )
    loaded.report_attachments = sorted(
        [*loaded.attachments.all(), *(f for a in alerts for f in a.evidence)], key=lambda f: (f.created_at, str(f.pk))
    )
    if as_of is not None:
        # the report as it stood then: what was added later is not part of it
        loaded.report_comments = [c for c in loaded.report_comments if c.created_at <= as_of]
        loaded.report_attachments = [f for f in loaded.report_attachments if f.created_at <= as_of]
    return loaded


def sar_available_moves(*, sar: SAR, actor: Actor) -> list[str]:
    """The states ``actor`` may move ``sar`` into right now: the table, the role and four eyes all agree.

    A return to DRAFT is not among them (``sar_may_return``): it is its own action, with a reason; nor is
    the FIU's rejection (``sar_fiu_response``), recorded with the unit's reason.
    """
    moves = []
    for transition in sar.get_available_user_status_transitions(actor):
        target = str(transition.target)
        if target == SARStatus.DRAFT or transition.name in FIU_ANSWERS:
            continue
        if sar.four_eyes_breach(actor=actor, target=target) is None and target not in moves:
            moves.append(target)
    return moves


def sar_may_return(*, sar: SAR, actor: Actor) -> bool:
    """Whether ``actor`` may send ``sar`` back to DRAFT now (state, role, and never the filer)."""
    if getattr(actor, "pk", None) == sar.filed_by_id:
        return False
    return any(str(t.target) == SARStatus.DRAFT for t in sar.get_available_user_status_transitions(actor))


def _name(staff) -> str:
    return (staff.full_name or staff.email) if staff is not None else "unknown"


def sar_next_step(*, sar: SAR) -> str:
    """Who must act next on ``sar``, in words ("Waiting for review by a compliance officer other than the filer")."""
    status = sar.status
    if status == SARStatus.DRAFT:
        return (
            "Waiting for the draft to be completed and submitted for review by a compliance officer "
            f"(filed by {_name(sar.filed_by)})."
        )
    if status == SARStatus.PENDING_REVIEW:
        return f"Waiting for review by a compliance officer other than the filer ({_name(sar.filed_by)})."
    if status == SARStatus.PENDING_APPROVAL:
        return (
            f"Waiting for approval by an MLRO who neither filed ({_name(sar.filed_by)}) "
            f"nor reviewed ({_name(sar.reviewed_by)}) the report."
        )
    return {
        SARStatus.SUBMITTED: "Waiting for the FIU to acknowledge the report; an MLRO records it.",
        SARStatus.ACKNOWLEDGED: "Waiting for the FIU: an MLRO records whether it investigates or closes the case.",
        SARStatus.UNDER_INVESTIGATION: "Waiting for the FIU to close its investigation; an MLRO records it.",
        SARStatus.CLOSED: "Nobody: the case is closed.",
    }[status]


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
