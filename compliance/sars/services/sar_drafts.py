"""Editing a SAR while it is a DRAFT: narrative, activity type, date, amount, and the evidence it cites.

Once handed over for review a report changes only through its workflow (a
reviewer returns it to DRAFT to have it changed). Every change of the
narrative adds a version, so what the report said at each step stays on
record; the audit entry names every field that changed, before and after.
Every edit that changes something is a ``SARDraftEdit`` row: its author may
then neither review nor approve the report (four eyes).
"""

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal

from django.db import transaction

from backoffice.errors import Forbidden
from backoffice.models import Staff
from backoffice.services import model_update
from compliance.sars import events
from compliance.sars.choices import SARStatus
from compliance.sars.errors import SARNotEditable
from compliance.sars.models.sar import SAR, SARDraftEdit
from compliance.sars.services.sar import narrative_version_add, resolve_evidence
from compliance.sars.services.sar_alerts import alerts_escalate_for_sar

__all__ = ["sar_update"]


@transaction.atomic
def sar_update(
    *,
    sar: SAR,
    actor: Staff,
    suspicious_activity_type: str | None = None,
    activity_description: str | None = None,
    date_of_suspicious_activity: dt.date | None = None,
    amount_involved: Decimal | None = None,
    related_transaction_ids: Iterable | None = None,
    related_alert_ids: Iterable | None = None,
) -> SAR:
    """Change the fields given (None leaves a field as it is) of a DRAFT ``sar``; the same checks as filing.

    409 ``SAR_NOT_EDITABLE`` outside DRAFT. Transactions must be the subject's;
    alerts newly cited are escalated ("SAR in progress"); an alert no longer
    cited stays as it is, escalated, for an officer to decide.
    """
    if not actor.has_capability("sars.file"):
        raise Forbidden("Your role does not allow editing a SAR")
    locked = SAR.objects.select_for_update().select_related("entity_user").get(pk=sar.pk)
    if locked.status != SARStatus.DRAFT:
        raise SARNotEditable(f"SAR {locked.sar_id} is {locked.status}; only a SAR in DRAFT can be edited")

    given = {
        "suspicious_activity_type": suspicious_activity_type,
        "activity_description": activity_description,
        "date_of_suspicious_activity": date_of_suspicious_activity,
        "amount_involved": Decimal(amount_involved) if amount_involved is not None else None,
    }
    transactions = alerts = None
    if related_transaction_ids is not None or related_alert_ids is not None:
        transactions, alerts = resolve_evidence(
            user=locked.entity_user,
            related_transaction_ids=related_transaction_ids or (),
            related_alert_ids=related_alert_ids or (),
        )
    # status is left out of the cleaning: only transitions may set it (clean_or_refuse)
    wanted = {name: value for name, value in given.items() if value is not None}
    changes: dict = model_update(locked, fields=given, data=wanted, exclude=["status"])
    if "activity_description" in changes:
        # the narrative's text lives in its versions; the audit entry names the version, not the text twice
        changes["activity_description"] = {"version": narrative_version_add(sar=locked, author=actor).number}
    if related_transaction_ids is not None:
        changes.update(_relink(locked.related_transactions, transactions, "related_transaction_ids"))
    if related_alert_ids is not None:
        known = set(locked.related_alerts.values_list("pk", flat=True))
        changes.update(_relink(locked.related_alerts, alerts, "related_alert_ids"))
        alerts_escalate_for_sar(alerts=[a for a in alerts if a.pk not in known], sar=locked, actor=actor)
    if changes:
        # who changed the content is no longer independent of it: neither reviewer nor approver (SAR.four_eyes_breach)
        SARDraftEdit.objects.create(sar=locked, author=actor, fields=sorted(changes))
        events.sar_updated(actor=actor, sar=locked, changes=changes)
    return locked


def _relink(manager, rows: list, name: str) -> dict:
    """Point a many-to-many at exactly ``rows``; what was added and removed, for the audit entry."""
    old = set(manager.values_list("pk", flat=True))
    new = {row.pk for row in rows}
    if old == new:
        return {}
    manager.set(rows)
    return {name: {"added": sorted(str(i) for i in new - old), "removed": sorted(str(i) for i in old - new)}}
