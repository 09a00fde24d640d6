"""A SAR as a goAML ``report`` element, in the 5.0.2 element order of goaml.md.

Pass a SAR loaded by ``compliance.sars.selectors.sar.sar_for_report``: people,
transactions with their counterparties, alerts, history, and the comments
and attachments meant for the report are all prefetched, so building a
report costs no further query (the PEP lookup is one, for all persons).
"""

from xml.etree import ElementTree as ET

from django.conf import settings
from django.utils import timezone

from compliance.peps.selectors.pep_exposures import pep_exposures_by_user
from compliance.sars.goaml.codes import code
from compliance.sars.goaml.parties import HOME_COUNTRY, client_gaps, write_entity, write_person, write_staff
from compliance.sars.goaml.xml import add, add_optional, amount, country_code, iso_datetime
from compliance.sars.models.sar import SAR
from compliance.sars.selectors.sar import sar_for_report
from kyc.choices import CREDIT_TYPES, TransactionType

CURRENCY = "SZL"
DRAFT_MARKER = "DRAFT - NOT APPROVED"


def _funds(tx) -> str:
    return code("GOAML_FUNDS_CODES", tx.channel)


def _subject_side(parent: ET.Element, direction: str, tx, subject, peps: dict) -> None:
    """Our subject's side of a transaction; the wrapper follows how completely we know them."""
    side = add(parent, f"t_{direction}")  # renamed below once we know whether they are written as a client
    add(side, f"{direction}_funds_code", _funds(tx))
    client = write_person(side, f"{direction}_person", subject, peps=peps.get(subject.pk, []))
    add(side, f"{direction}_country", HOME_COUNTRY)
    if client:
        side.tag = f"t_{direction}_my_client"


def _other_side(parent: ET.Element, direction: str, tx, peps: dict) -> None:
    """The other side: another customer of ours, a vendor, or money from or to outside the platform."""
    side = add(parent, f"t_{direction}")
    add(side, f"{direction}_funds_code", _funds(tx))
    if tx.counterparty_user is not None:
        user = tx.counterparty_user
        if write_person(side, f"{direction}_person", user, peps=peps.get(user.pk, [])):
            side.tag = f"t_{direction}_my_client"
    elif tx.counterparty_vendor is not None:
        write_entity(side, f"{direction}_entity", tx.counterparty_vendor.business_name)
    elif tx.type == TransactionType.ADMIN_CREDIT:
        write_entity(side, f"{direction}_entity", "The reporting institution - credit by its staff")
    else:
        write_entity(side, f"{direction}_entity", f"{tx.get_channel_display()} - counterparty not identified")
    add(side, f"{direction}_country", country_code(tx.country) or HOME_COUNTRY)


def write_transaction(report: ET.Element, tx, subject, peps: dict) -> None:
    """One transaction of ``subject``, both sides in the order goaml.md gives (SARs and threshold reports)."""
    element = add(report, "transaction")
    add(element, "transactionnumber", tx.pk)
    add_optional(element, "internal_ref_number", tx.reference)
    add(element, "transaction_location", tx.region or "")
    add(element, "transaction_description", tx.get_type_display() + (f": {tx.reason}" if tx.reason else ""))
    add(element, "date_transaction", iso_datetime(tx.created_at))
    add(element, "transmode_code", code("GOAML_TRANSMODE_CODES", tx.channel))
    if settings.GOAML_TRANSMODE_COMMENT_REQUIRED:
        add(element, "transmode_comment", tx.get_channel_display())
    add(element, "amount_local", amount(tx.amount))
    if tx.type in CREDIT_TYPES:
        _other_side(element, "from", tx, peps)
        _subject_side(element, "to", tx, subject, peps)
    else:
        _subject_side(element, "from", tx, subject, peps)
        _other_side(element, "to", tx, peps)


def _activity(report: ET.Element, sar: SAR, peps: dict) -> None:
    """No transactions: the report names its subject as a party to the activity."""
    activity = add(report, "activity")
    party = add(add(activity, "report_parties"), "report_party")
    holder = ET.Element("holder")
    client = write_person(holder, "person", sar.entity_user, peps=peps.get(sar.entity_user_id, []))
    person = holder[0]
    if client:
        person.tag = "person_my_client"
    party.append(person)
    add(party, "significance", "10")
    add(party, "reason", sar.get_suspicious_activity_type_display())


def _info(parent: ET.Element, subject: str, *, text=None, numeric=None, date=None, boolean=None) -> None:
    """One additional_info, its children in the order goaml.md gives (info_type is not used)."""
    info = add(parent, "additional_info")
    add(info, "info_subject", subject)
    add_optional(info, "info_text", text)
    add_optional(info, "info_numeric", numeric)
    add_optional(info, "info_date", date)
    if boolean is not None:
        add(info, "info_boolean", "true" if boolean else "false")


def _additional_information(report: ET.Element, sar: SAR) -> None:
    info = add(report, "additional_information")
    if not sar.is_approved:
        _info(
            info,
            DRAFT_MARKER,
            text=f"Draft of {sar.sar_id} ({sar.status}): not approved by the MLRO; do not file.",
            boolean=True,
        )
    if sar.corrects is not None:
        rejected = sar.corrects
        reference = f" (FIU reference {rejected.fiu_reference})" if rejected.fiu_reference else ""
        _info(
            info,
            "Correction of a rejected report",
            text=f"Replaces {rejected.sar_id}{reference}, rejected by the FIU: {rejected.fiu_reason}",
            date=iso_datetime(rejected.fiu_answered_at) if rejected.fiu_answered_at else None,
        )
    _info(info, "Amount involved (SZL)", numeric=amount(sar.amount_involved))
    _info(info, "Date of the suspicious activity", date=iso_datetime(sar.date_of_suspicious_activity))
    gaps = client_gaps(sar.entity_user)
    if gaps:
        _info(info, "Subject's customer data incomplete", text="Not on file: " + ", ".join(gaps) + ".")
    for comment in sar.report_comments:
        who = comment.author.full_name or comment.author.email
        _info(info, f"Analyst note by {who}", text=comment.text, date=iso_datetime(comment.created_at))
    for attachment in sar.report_attachments:
        _info(
            info,
            f"Attachment {attachment.filename}",
            text=f"{attachment.content_type}, {attachment.size} bytes, sha256 {attachment.sha256}",
            date=iso_datetime(attachment.created_at),
        )
    # no workflow history: who drafted, reviewed and returned the report, and why, is the institution's own
    # record (the HTML and text exports keep it); what goes to the FIU is the report and the notes ticked for it


def _reporting_person(sar: SAR):
    """The approver, else the reviewer, else the filer; left out when that person's names are not on file."""
    staff = sar.approved_by or sar.reviewed_by or sar.filed_by
    return staff if staff is not None and staff.first_name and staff.last_name else None


def build_report(sar: SAR) -> ET.Element:
    """The ``report`` element of ``sar`` (loaded by ``selectors.sar.sar_for_report``)."""
    transactions = list(sar.related_transactions.all())
    people = {sar.entity_user_id, *(tx.counterparty_user_id for tx in transactions if tx.counterparty_user_id)}
    peps = pep_exposures_by_user(people)
    report = ET.Element("report")
    add(report, "rentity_id", settings.GOAML_RENTITY_ID if settings.GOAML_RENTITY_ID is not None else "")
    add_optional(report, "rentity_branch", settings.GOAML_RENTITY_BRANCH)
    add(report, "submission_code", settings.GOAML_SUBMISSION_CODE)
    add(report, "report_code", settings.GOAML_REPORT_CODE)
    add(report, "entity_reference", sar.sar_id)
    # a correction carries the rejected report's reference until the unit gives it its own
    add_optional(report, "fiu_ref_number", sar.fiu_reference or (sar.corrects.fiu_reference if sar.corrects else ""))
    add(report, "submission_date", iso_datetime(sar.submitted_at or timezone.now()))
    add(report, "currency_code_local", CURRENCY)
    reporter = _reporting_person(sar)
    if reporter is not None:
        write_staff(report, "reporting_person", reporter)
    add(report, "reason", sar.activity_description)
    if transactions:
        for tx in transactions:
            write_transaction(report, tx, sar.entity_user, peps)
    else:
        _activity(report, sar, peps)
    add(add(report, "report_indicators"), "indicator", code("GOAML_INDICATORS", sar.suspicious_activity_type))
    _additional_information(report, sar)
    return report


def render_goaml(sar: SAR) -> bytes:
    """The report as UTF-8 XML with its declaration; a draft also says so in a comment before the root.

    ``sar`` should come from ``sar_for_report``; a SAR loaded otherwise is loaded again that way.
    """
    if not hasattr(sar, "report_comments"):
        sar = sar_for_report(sar=sar)
    report = build_report(sar)
    ET.indent(report)
    body = ET.tostring(report, encoding="unicode")
    head = '<?xml version="1.0" encoding="utf-8"?>\n'
    if not sar.is_approved:
        head += f"<!-- {DRAFT_MARKER}: {sar.sar_id} is {sar.status}; do not file this report. -->\n"
    return (head + body + "\n").encode("utf-8")
