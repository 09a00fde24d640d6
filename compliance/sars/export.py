"""A SAR as a downloadable file: a printable HTML report, plain text, or goAML XML.

What each carries beyond the report's facts: the comments marked for the
report (never the internal thread) and the list of evidence files, with their
hashes. A SAR the MLRO has not approved is marked DRAFT in every format.
"""

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import timezone

from compliance.sars.goaml import render_goaml
from compliance.sars.models.sar import SAR
from compliance.sars.selectors.sar import sar_for_report


@dataclass(frozen=True)
class ExportFormat:
    extension: str
    content_type: str


FORMATS: dict[str, ExportFormat] = {
    "html": ExportFormat("html", "text/html; charset=utf-8"),
    "text": ExportFormat("txt", "text/plain; charset=utf-8"),
    "goaml": ExportFormat("xml", "application/xml; charset=utf-8"),
}


def _context(sar: SAR) -> dict:
    transactions = list(sar.related_transactions.all())
    return {
        "sar": sar,
        "subject": sar.entity_user,
        "transactions": transactions,
        "transactions_total": sum((t.amount for t in transactions), start=0),
        "alerts": list(sar.related_alerts.all()),
        "history": list(sar.transitions.all()),
        "report_comments": sar.report_comments,
        "attachments": sar.report_attachments,
        "is_draft": not sar.is_approved,
        "generated_at": timezone.now(),
    }


def render_sar(sar: SAR, fmt: str) -> bytes:
    """``sar`` (loaded by ``selectors.sar.sar_for_report``, else loaded so here) in ``fmt``, one of ``FORMATS``."""
    if not hasattr(sar, "report_comments"):
        sar = sar_for_report(sar=sar)
    if fmt == "goaml":
        return render_goaml(sar)
    template = "compliance/sar_export.html" if fmt == "html" else "compliance/sar_export.txt"
    return render_to_string(template, _context(sar)).encode("utf-8")
