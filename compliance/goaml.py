"""A SAR as goAML XML, the format UNODC's goAML system takes reports in.

The structure follows /work/shared/spec/goaml.md (schema 5.x element names,
no namespace): the report header with our reporting-entity id and the
reporting person, the reason, the related transactions (or, when there are
none, an activity naming the subject as a report party), and the report
indicators. The financial intelligence unit's code lists are settings
(``GOAML_*``, see docs/sars.md).

The subject's personal data appears only inside ``t_person_my_client``
elements (``from_person``, ``to_person``, ``person_my_client``); the rest of
the report refers to transactions by ledger id.
"""

import datetime as dt
import re
from decimal import Decimal
from xml.etree import ElementTree as ET

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from compliance.choices import ActivityType
from compliance.models import SAR
from kyc.choices import CREDIT_TYPES, Channel

CURRENCY = "SZL"
# goAML's gender codes
_GENDER = {"MALE": "M", "FEMALE": "F"}
# Characters XML 1.0 cannot carry at all, escaped or not; free text loses them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# Our defaults for the unit's code lists; GOAML_* settings override any entry (backoffice/settings/goaml.py).
INDICATOR_DEFAULTS = {
    ActivityType.STRUCTURING: "STRUCT",
    ActivityType.LARGE_CASH: "LCASH",
    ActivityType.UNUSUAL_PATTERN: "UNUSUAL",
    ActivityType.MONEY_LAUNDERING: "ML",
    ActivityType.FRAUD: "FRAUD",
    ActivityType.TERRORIST_FINANCING: "TF",
    ActivityType.SANCTIONS_VIOLATION: "SANCT",
    ActivityType.OTHER: "OTHER",
}
TRANSMODE_DEFAULTS = {Channel.WALLET: "EW", Channel.MOBILE_MONEY: "MM", Channel.CARD: "CC", Channel.BANK: "EFT"}
FUNDS_DEFAULTS = {Channel.WALLET: "E", Channel.MOBILE_MONEY: "M", Channel.CARD: "C", Channel.BANK: "B"}

# setting -> (defaults, the values its keys must name)
_CODE_LISTS = {
    "GOAML_INDICATORS": (INDICATOR_DEFAULTS, ActivityType.values),
    "GOAML_TRANSMODE_CODES": (TRANSMODE_DEFAULTS, Channel.values),
    "GOAML_FUNDS_CODES": (FUNDS_DEFAULTS, Channel.values),
}


def check_settings() -> None:
    """Refuse, at start-up, a GOAML_* code list whose keys are not activity types or ledger channels."""
    for name, (_defaults, keys) in _CODE_LISTS.items():
        unknown = sorted(set(getattr(settings, name)) - set(keys))
        if unknown:
            raise ImproperlyConfigured(f"{name}: unknown key(s) {', '.join(unknown)} (known: {', '.join(keys)})")


def code_list(name: str) -> dict[str, str]:
    """A code list: our defaults with the setting's overrides."""
    defaults, _keys = _CODE_LISTS[name]
    return {**{str(k): v for k, v in defaults.items()}, **getattr(settings, name)}


def _iso_datetime(value: dt.datetime | dt.date | None) -> str:
    """goAML dates are xs:dateTime without a zone; ours are UTC."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return timezone.localtime(value, dt.UTC).replace(tzinfo=None, microsecond=0).isoformat()
    return dt.datetime.combine(value, dt.time.min).isoformat()


def _amount(value: Decimal) -> str:
    return f"{Decimal(value).quantize(Decimal('0.01'))}"


def _add(parent: ET.Element, tag: str, text=None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = _NOT_XML.sub("", str(text))
    return element


def _add_optional(parent: ET.Element, tag: str, text) -> None:
    if text not in (None, ""):
        _add(parent, tag, text)


def _country_code(value: str, fallback: str = "SZ") -> str:
    value = (value or "").strip().upper()
    return value if len(value) == 2 and value.isalpha() else fallback


def person_my_client(parent: ET.Element, tag: str, user) -> ET.Element:
    """``user`` as a t_person_my_client element named ``tag``, in goaml.md's element order."""
    person = _add(parent, tag)
    _add_optional(person, "gender", _GENDER.get(user.sex))
    _add(person, "first_name", user.first_name)
    _add(person, "last_name", user.last_name)
    _add_optional(person, "birthdate", _iso_datetime(user.date_of_birth))
    _add_optional(person, "id_number", user.id_number)
    _add(person, "nationality1", _country_code(user.nationality, user.country))
    _add(person, "residence", _country_code(user.country))
    phones = _add(person, "phones")
    phone = _add(phones, "phone")
    _add(phone, "tph_contact_type", "PRIVATE")
    _add(phone, "tph_communication_type", "MOBILE")
    _add(phone, "tph_number", user.phone_number)
    identification = _add(person, "identification")
    _add(identification, "type", "NATIONAL_ID")
    _add(identification, "number", user.id_number or "NOT PROVIDED")
    _add(identification, "issue_country", _country_code(user.nationality, user.country))
    _add_optional(person, "email", user.email)
    return person


def _other_side(parent: ET.Element, direction: str, tx) -> None:
    """The side of a transaction that is not our subject: another client of ours, a vendor, or outside money."""
    if tx.counterparty_user is not None:
        side = _add(parent, f"t_{direction}_my_client")
        _add(side, f"{direction}_funds_code", code_list("GOAML_FUNDS_CODES").get(tx.channel, "E"))
        person_my_client(side, f"{direction}_person", tx.counterparty_user)
    else:
        side = _add(parent, f"t_{direction}")
        _add(side, f"{direction}_funds_code", code_list("GOAML_FUNDS_CODES").get(tx.channel, "E"))
        entity = _add(side, f"{direction}_entity")
        if tx.counterparty_vendor is not None:
            _add(entity, "name", tx.counterparty_vendor.business_name)
        else:
            _add(entity, "name", f"{tx.get_channel_display()} counterparty")
    _add(side, f"{direction}_country", _country_code(tx.country))


def _subject_side(parent: ET.Element, direction: str, tx, subject) -> None:
    side = _add(parent, f"t_{direction}_my_client")
    _add(side, f"{direction}_funds_code", code_list("GOAML_FUNDS_CODES").get(tx.channel, "E"))
    person_my_client(side, f"{direction}_person", subject)
    _add(side, f"{direction}_country", _country_code(tx.country))


def _transaction(report: ET.Element, tx, subject) -> None:
    element = _add(report, "transaction")
    _add(element, "transactionnumber", tx.pk)
    _add(element, "internal_ref_number", tx.reference)
    _add_optional(element, "transaction_location", tx.region)
    _add(element, "transaction_description", tx.get_type_display() + (f": {tx.reason}" if tx.reason else ""))
    _add(element, "date_transaction", _iso_datetime(tx.created_at))
    _add(element, "transmode_code", code_list("GOAML_TRANSMODE_CODES").get(tx.channel, tx.channel))
    _add(element, "amount_local", _amount(tx.amount))
    if tx.type in CREDIT_TYPES:
        _other_side(element, "from", tx)
        _subject_side(element, "to", tx, subject)
    else:
        _subject_side(element, "from", tx, subject)
        _other_side(element, "to", tx)


def _reporting_person(report: ET.Element, staff) -> None:
    if staff is None:
        return
    person = _add(report, "reporting_person")
    _add(person, "first_name", staff.first_name or "-")
    _add(person, "last_name", staff.last_name or "-")
    _add_optional(person, "email", staff.email)
    _add(person, "occupation", staff.get_role_display())


def _action(sar: SAR) -> str:
    return f"Account under enhanced monitoring; report {sar.sar_id} is {sar.status} in our workflow."


def _history(sar: SAR) -> str:
    lines = [f"Drafted {_iso_datetime(sar.drafted_at)} by {getattr(sar.filed_by, 'email', '') or 'unknown'}"]
    for move in sar.transitions.all():
        who = getattr(move.actor, "email", "") or "unknown"
        line = f"{move.from_status} -> {move.to_status} at {_iso_datetime(move.created_at)} by {who}"
        lines.append(line + (f" ({move.note})" if move.note else ""))
    return "\n".join(lines)


def build_report(sar: SAR) -> ET.Element:
    """The ``report`` element of ``sar``; pass a SAR loaded by ``selectors.sar.sar_for_report``."""
    report = ET.Element("report")
    _add(report, "rentity_id", settings.GOAML_RENTITY_ID)
    _add_optional(report, "rentity_branch", settings.GOAML_RENTITY_BRANCH)
    _add(report, "submission_code", settings.GOAML_SUBMISSION_CODE)
    _add(report, "report_code", settings.GOAML_REPORT_CODE)
    _add(report, "entity_reference", sar.sar_id)
    _add_optional(report, "fiu_ref_number", sar.fiu_reference)
    _add(report, "submission_date", _iso_datetime(sar.submitted_at or timezone.now()))
    _add(report, "currency_code_local", CURRENCY)
    _reporting_person(report, sar.approved_by or sar.reviewed_by or sar.filed_by)
    _add(report, "reason", sar.activity_description)
    _add(report, "action", _action(sar))
    transactions = list(sar.related_transactions.all())
    if transactions:
        for tx in transactions:
            _transaction(report, tx, sar.entity_user)
    else:
        activity = _add(report, "activity")
        parties = _add(activity, "report_parties")
        party = _add(parties, "report_party")
        person_my_client(party, "person_my_client", sar.entity_user)
        _add(party, "significance", "10")
        _add(party, "reason", sar.get_suspicious_activity_type_display())
    indicators = _add(report, "report_indicators")
    _add(indicators, "indicator", code_list("GOAML_INDICATORS").get(sar.suspicious_activity_type, "OTHER"))
    _add(
        report,
        "additional_information",
        f"Amount involved: {_amount(sar.amount_involved)} {CURRENCY}. "
        f"Date of suspicious activity: {sar.date_of_suspicious_activity.isoformat()}.\n{_history(sar)}",
    )
    return report


def render_goaml(sar: SAR) -> bytes:
    """The report as UTF-8 XML with its declaration."""
    report = build_report(sar)
    ET.indent(report)
    return ET.tostring(report, encoding="utf-8", xml_declaration=True)
