"""The audited actions of cash threshold reporting, one typed function each: a batch prepared, exported,
submitted; the FIU's answer for one report.

The action strings are stored in the audit log: written here once, never renamed (old entries keep theirs).
"""

from enum import StrEnum

from backoffice.models import AuditLog
from backoffice.services import Actor, audit_record
from compliance.reporting.models import ThresholdReport, ThresholdReportBatch


class Action(StrEnum):
    BATCH_PREPARE = "threshold_batch.prepare"
    BATCH_EXPORT = "threshold_batch.export"
    BATCH_SUBMIT = "threshold_batch.submit"
    REPORT_FIU_RESPONSE = "threshold_report.fiu_response"


BATCH = "threshold_batch"
REPORT = "threshold_report"


def batch_prepared(
    *, actor: Actor, batch: ThresholdReportBatch, reports: list[ThresholdReport], resubmitted: list
) -> AuditLog:
    """A batch gathered the reports due (``resubmitted``: the ids of those the FIU had rejected before)."""
    return audit_record(
        actor=actor,
        action=Action.BATCH_PREPARE,
        object_type=BATCH,
        object_id=batch.pk,
        changes={"report_ids": [str(r.pk) for r in reports], "resubmitted": [str(k) for k in resubmitted]},
    )


def batch_exported(*, actor: Actor, batch: ThresholdReportBatch, via: str) -> AuditLog:
    """Someone took the batch's goAML files (``via``: api or admin)."""
    return audit_record(
        actor=actor, action=Action.BATCH_EXPORT, object_type=BATCH, object_id=batch.pk, changes={"via": via}
    )


def batch_submitted(*, actor: Actor, batch: ThresholdReportBatch) -> AuditLog:
    """The batch was filed with the FIU, under the unit's reference."""
    return audit_record(
        actor=actor,
        action=Action.BATCH_SUBMIT,
        object_type=BATCH,
        object_id=batch.pk,
        changes={"fiu_reference": batch.fiu_reference},
    )


def report_answered(*, actor: Actor, report: ThresholdReport, outcome: str, reason: str) -> AuditLog:
    """The FIU accepted or rejected one report of a submitted batch (``reason``: the unit's, on a rejection)."""
    return audit_record(
        actor=actor,
        action=Action.REPORT_FIU_RESPONSE,
        object_type=REPORT,
        object_id=report.pk,
        changes={"outcome": outcome, "reason": reason, "batch_id": str(report.batch_id)},
    )
