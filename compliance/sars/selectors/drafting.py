"""Reads of the SAR drafting pages: subjects to pick, the evidence a draft may cite, a draft with its people."""

import datetime as dt
from functools import reduce
from operator import and_, or_

from django.db.models import Q

from compliance.aml.models.alerts import Alert
from compliance.sars.choices import ActivityType
from compliance.sars.models.sar import SAR
from kyc.models import PlatformUser, Transaction

LEDGER_ROWS = 200
ALERT_ROWS = 100
SUBJECT_RESULTS = 20


def sars_with_people():
    """SARs with their subject, filer and reviewer."""
    return SAR.objects.select_related("entity_user", "filed_by", "reviewed_by")


def sar_subjects(query: str) -> list[PlatformUser]:
    """Users whose names, phone, e-mail or ID number contain every word of ``query``."""
    words = query.split()[:5]
    if not words:
        return []
    fields = ("first_name", "last_name", "phone_number", "email", "id_number")
    condition = reduce(and_, (reduce(or_, (Q(**{f"{f}__icontains": w}) for f in fields)) for w in words))
    return list(PlatformUser.objects.filter(condition).order_by("last_name", "first_name")[:SUBJECT_RESULTS])


def sar_evidence_rows(subject: PlatformUser, sar: SAR | None) -> tuple[list[Transaction], list[Alert]]:
    """The subject's latest ledger rows and alerts, plus any the draft already cites (three queries at most)."""
    transactions = list(
        Transaction.objects.filter(user=subject)
        .select_related("counterparty_user", "counterparty_vendor")
        .order_by("-created_at", "-id")[:LEDGER_ROWS]
    )
    alerts = list(Alert.objects.filter(user=subject).select_related("rule").order_by("-created_at")[:ALERT_ROWS])
    if sar is not None:
        shown = {t.pk for t in transactions}
        transactions += [t for t in sar.related_transactions.all() if t.pk not in shown]
        shown_alerts = {a.pk for a in alerts}
        alerts += [a for a in sar.related_alerts.all() if a.pk not in shown_alerts]
    return transactions, alerts


def sar_draft_start(sar: SAR | None) -> tuple[dict, set[str], set[str]]:
    """What the draft form starts from: its values, and the ids of the transactions and alerts it cites."""
    if sar is None:
        initial = {
            "suspicious_activity_type": ActivityType.UNUSUAL_PATTERN,
            "date_of_suspicious_activity": dt.date.today(),
        }
        return initial, set(), set()
    initial = {
        "suspicious_activity_type": sar.suspicious_activity_type,
        "date_of_suspicious_activity": sar.date_of_suspicious_activity,
        "amount_involved": sar.amount_involved,
        "activity_description": sar.activity_description,
    }
    chosen_tx = {str(pk) for pk in sar.related_transactions.values_list("pk", flat=True)}
    chosen_alerts = {str(pk) for pk in sar.related_alerts.values_list("pk", flat=True)}
    return initial, chosen_tx, chosen_alerts
