"""A threshold report as a goAML ``report`` (schema 5.0.2, goaml.md): the SAR export's parts, another report code.

One report per customer-day: the report code (``GOAML_CTR_REPORT_CODE``) and
indicator (``GOAML_CTR_INDICATOR``) from settings, the reporting person (who
submitted the batch, else who prepared it), every cash transaction of the day
with the customer as our client, and the day, total and threshold as
additional information. A report filed again after the unit rejected it
carries the rejected submission's reference in ``fiu_ref_number`` and says
which submission it replaces and why it was rejected. Text goes through the
same fitting as SARs (``compliance.sars.goaml.fit``), so it validates wherever
a SAR does.
"""

from xml.etree import ElementTree as ET

from django.conf import settings
from django.utils import timezone

from compliance.peps.selectors.pep_exposures import pep_exposures_by_user
from compliance.sars.goaml import CURRENCY
from compliance.sars.goaml.parties import write_staff
from compliance.sars.goaml.report import write_transaction
from compliance.sars.goaml.xml import add, add_optional, amount, iso_datetime


def _info(parent: ET.Element, subject: str, *, text=None, numeric=None, date=None) -> None:
    info = add(parent, "additional_info")
    add(info, "info_subject", subject)
    add_optional(info, "info_text", text)
    add_optional(info, "info_numeric", numeric)
    add_optional(info, "info_date", date)


def entity_reference(report) -> str:
    return f"CTR-{report.day:%Y%m%d}-{report.pk}"


def _reporting_person(batch):
    staff = batch.submitted_by or batch.created_by
    return staff if staff is not None and staff.first_name and staff.last_name else None


def people_of(filings) -> set:
    """Everyone the reports of ``filings`` name: their customers and the other customers their transactions name."""
    return {
        person
        for filing in filings
        for person in (
            filing.report.user_id,
            *(tx.counterparty_user_id for tx in filing.report.transactions.all() if tx.counterparty_user_id),
        )
    }


def build_threshold_report(filing, *, peps: dict | None = None) -> ET.Element:
    """The ``report`` element of one filing (a report in a batch), loaded by ``selectors.batch_for_export``.

    ``peps`` (``pep_exposures_by_user`` of ``people_of`` the batch) saves a query per report in a batch.
    """
    report, batch = filing.report, filing.batch
    transactions = list(report.transactions.all())
    if peps is None:
        peps = pep_exposures_by_user(people_of([filing]))
    rejected = filing.resubmits
    root = ET.Element("report")
    add(root, "rentity_id", settings.GOAML_RENTITY_ID if settings.GOAML_RENTITY_ID is not None else "")
    add_optional(root, "rentity_branch", settings.GOAML_RENTITY_BRANCH)
    add(root, "submission_code", settings.GOAML_SUBMISSION_CODE)
    add(root, "report_code", settings.GOAML_CTR_REPORT_CODE)
    add(root, "entity_reference", entity_reference(report))
    add_optional(root, "fiu_ref_number", rejected.batch.fiu_reference if rejected else "")
    add(root, "submission_date", iso_datetime(batch.submitted_at or timezone.now()))
    add(root, "currency_code_local", CURRENCY)
    reporter = _reporting_person(batch)
    if reporter is not None:
        write_staff(root, "reporting_person", reporter)
    add(
        root,
        "reason",
        f"Cash transactions of one customer on {report.day:%Y-%m-%d} (Eswatini) total {CURRENCY} "
        f"{amount(report.total)}, at or above the reporting threshold of {CURRENCY} {amount(report.threshold)}.",
    )
    for tx in transactions:
        write_transaction(root, tx, report.user, peps)
    add(add(root, "report_indicators"), "indicator", settings.GOAML_CTR_INDICATOR)
    info = add(root, "additional_information")
    _info(info, "Day of the cash transactions", date=iso_datetime(report.day))
    _info(info, f"Total cash of the day ({CURRENCY})", numeric=amount(report.total))
    _info(info, f"Reporting threshold ({CURRENCY})", numeric=amount(report.threshold))
    if rejected is not None:
        _info(
            info,
            "Resubmission of a rejected report",
            text=(
                f"Replaces the submission with FIU reference {rejected.batch.fiu_reference} "
                f"(batch {rejected.batch_id}), rejected: {rejected.reason}"
            ),
            date=iso_datetime(rejected.answered_at) if rejected.answered_at else None,
        )
    return root


def render_threshold_report(filing, *, peps: dict | None = None) -> bytes:
    """The goAML XML of one filing, UTF-8 with its declaration."""
    root = build_threshold_report(filing, peps=peps)
    ET.indent(root)
    return ('<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n").encode()
