"""Reads of "my work" on SARs: whose next step a report waits for, and the reports overdue for filing."""

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from compliance.casework import deadlines
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, SARDraftEdit, SARNarrativeVersion
from compliance.sars.selectors.sar import first_alert_at

# States in which the filing deadline still runs (the report is not with the FIU yet).
BEFORE_FILING = (SARStatus.DRAFT, SARStatus.PENDING_REVIEW, SARStatus.PENDING_APPROVAL)


def waiting_for(staff) -> Q:
    """SARs whose next step is ``staff``'s: their own drafts to hand over, reviews and approvals four eyes allows."""
    q = Q(status=SARStatus.DRAFT, filed_by=staff)
    # who wrote a narrative version or edited the draft is not independent of it either (SAR.four_eyes_breach)
    independent = (
        ~Q(filed_by=staff)
        & Q(~Exists(SARNarrativeVersion.objects.filter(sar=OuterRef("pk"), author=staff)))
        & Q(~Exists(SARDraftEdit.objects.filter(sar=OuterRef("pk"), author=staff)))
    )
    if staff.has_capability("sars.review"):
        q |= Q(status=SARStatus.PENDING_REVIEW) & independent
    if staff.has_capability("sars.approve"):
        q |= Q(status=SARStatus.PENDING_APPROVAL) & independent & ~Q(reviewed_by=staff)
    return q


def overdue_sars() -> list[SAR]:
    """Reports not yet with the FIU whose filing deadline has passed (one query; few reports are before filing)."""
    now = timezone.now()
    pending = SAR.objects.filter(status__in=BEFORE_FILING).annotate(first_alert_at=first_alert_at())
    return [sar for sar in pending if deadlines.sar_due_at(detected_at=deadlines.sar_detected_at(sar)) < now]


def sars_waiting_for(staff) -> int:
    """How many reports wait for ``staff``'s next step."""
    return SAR.objects.filter(waiting_for(staff)).count()


def sar_card_counts() -> dict:
    """Drafts, reports awaiting review and awaiting approval, in one query."""
    return SAR.objects.aggregate(
        drafts=Count("id", filter=Q(status=SARStatus.DRAFT)),
        review=Count("id", filter=Q(status=SARStatus.PENDING_REVIEW)),
        approval=Count("id", filter=Q(status=SARStatus.PENDING_APPROVAL)),
    )


def sar_may_record_rejection(*, sar: SAR, actor) -> bool:
    """Whether ``actor`` may record the FIU's rejection of ``sar`` now: a submitted report, an approver."""
    return sar.status == SARStatus.SUBMITTED and actor.has_capability("sars.approve")


def sar_may_correct(*, sar: SAR, actor) -> bool:
    """Whether ``actor`` may file the correction of ``sar``: the FIU rejected it, and they file reports."""
    return sar.fiu_outcome == "REJECTED" and actor.has_capability("sars.file")
