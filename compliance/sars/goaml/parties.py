"""The people and organisations of a goAML report, in the 5.0.2 element order of goaml.md.

A customer of ours is written as ``t_person_my_client`` when we hold every
fact that type requires (birth date, ID number, nationality and at least one
identity document with its issue date); the unit expects full due-diligence
data for its "my client" types. A customer whose record lacks some of them is
written as ``t_person``, the type for people the institution does not fully
know, with every fact we do hold: the report stays valid and never invents a
fact. ``client_gaps`` names what is missing; the report says so in its
additional information.
"""

import datetime as dt
from dataclasses import dataclass
from xml.etree import ElementTree as ET

import phonenumbers
from django.conf import settings

from compliance.peps.selectors.pep_exposures import PepExposure
from compliance.sars.goaml.codes import gender_code
from compliance.sars.goaml.xml import add, add_optional, country_code, iso_datetime, nationality_code
from kyc.models import PlatformUser

# Where our customers' wallets are held: the institution's country.
HOME_COUNTRY = "SZ"


@dataclass(frozen=True)
class IdentityDocument:
    """One t_person_identification: which code list entry, the number, the dates and the issuing country."""

    type_setting: str
    number: str
    issue_date: dt.date
    expiry_date: dt.date | None
    issue_country: str


def identity_documents(user: PlatformUser) -> list[IdentityDocument]:
    """The documents on file with every fact goAML requires of one (an undated document is left out)."""
    documents = []
    id_country = nationality_code(user.nationality) or country_code(user.passport_country)
    if user.id_number and user.id_issue_date and id_country:
        documents.append(
            IdentityDocument(
                "GOAML_NATIONAL_ID_TYPE", user.id_number, user.id_issue_date, user.id_expiry_date, id_country
            )
        )
    passport_country = country_code(user.passport_country)
    if user.passport_number and passport_country and user.passport_issue_date:
        documents.append(
            IdentityDocument(
                "GOAML_PASSPORT_ID_TYPE",
                user.passport_number,
                user.passport_issue_date,
                user.passport_expiry_date,
                passport_country,
            )
        )
    return documents


def _nationality(user: PlatformUser) -> str | None:
    return nationality_code(user.nationality) or country_code(user.passport_country)


def client_gaps(user: PlatformUser) -> list[str]:
    """The facts t_person_my_client requires that ``user``'s record lacks (empty: write them as a client)."""
    gaps = []
    if not user.date_of_birth:
        gaps.append("date of birth")
    if not user.id_number:
        gaps.append("ID number")
    if not _nationality(user):
        gaps.append("nationality")
    if not identity_documents(user):
        gaps.append("an identity document with its issue date")
    return gaps


def _phone(parent: ET.Element, number: str) -> None:
    """One t_phone: the settings' contact and communication types, the country prefix split off the E.164 number."""
    try:
        parsed = phonenumbers.parse(number, None)
        prefix, national = str(parsed.country_code), str(parsed.national_number)
    except phonenumbers.NumberParseException:
        prefix, national = "", number
    phone = add(parent, "phone")
    add(phone, "tph_contact_type", settings.GOAML_PHONE_CONTACT_TYPE)
    add(phone, "tph_communication_type", settings.GOAML_PHONE_COMMUNICATION_TYPE)
    add_optional(phone, "tph_country_prefix", prefix)
    add(phone, "tph_number", national)


def _address(parent: ET.Element, user: PlatformUser) -> None:
    """One t_address; ``state`` is the region (written empty when unknown, as the type requires)."""
    address = add(parent, "address")
    add(address, "address_type", settings.GOAML_ADDRESS_TYPE)
    add(address, "address", user.address_line)
    add(address, "city", user.city)
    add(address, "country_code", country_code(user.country) or HOME_COUNTRY)
    add(address, "state", user.region or "")


def _identification(parent: ET.Element, document: IdentityDocument) -> None:
    element = add(parent, "identification")
    add(element, "type", getattr(settings, document.type_setting))
    add(element, "number", document.number)
    add(element, "issue_date", iso_datetime(document.issue_date))
    add(element, "expiry_date", iso_datetime(document.expiry_date or settings.GOAML_NO_EXPIRY_DATE))
    add(element, "issue_country", document.issue_country)


def _peps(parent: ET.Element, exposures: list[PepExposure]) -> None:
    valid = [e for e in exposures if country_code(e.country)]
    if not valid:
        return
    peps = add(parent, "peps")
    for exposure in valid:
        pep = add(peps, "pep")
        add(pep, "pep_country", country_code(exposure.country))
        add_optional(pep, "function_name", exposure.function_name)
        add_optional(pep, "function_description", exposure.function_description)


def write_person(parent: ET.Element, tag: str, user: PlatformUser, *, peps: list[PepExposure] = ()) -> bool:
    """``user`` as an element named ``tag``: t_person_my_client when their record is complete, else t_person.

    Returns True when written as a client (the caller picks the ``_my_client``
    wrapper to match). Both types share goaml.md's order; t_person only
    requires the names, so it leaves out what is unknown.
    """
    client = not client_gaps(user)
    person = add(parent, tag)
    if client or user.sex:
        add(person, "gender", gender_code(user.sex))
    add(person, "first_name", user.first_name)
    add(person, "last_name", user.last_name)
    if user.date_of_birth:
        add(person, "birthdate", iso_datetime(user.date_of_birth))
    passport_country = country_code(user.passport_country)
    if user.passport_number and passport_country:
        add(person, "passport_number", user.passport_number)
        add(person, "passport_country", passport_country)
    add_optional(person, "id_number", user.id_number)
    add_optional(person, "nationality1", _nationality(user))
    residence = country_code(user.country)
    if client or residence:
        add(person, "residence", residence or HOME_COUNTRY)
    phones = add(person, "phones")
    if user.phone_number:
        _phone(phones, user.phone_number)
    if user.address_line and user.city:
        _address(add(person, "addresses"), user)
    add_optional(person, "email", user.email)
    add_optional(person, "occupation", user.occupation)
    for document in identity_documents(user):
        _identification(person, document)
    _peps(person, list(peps))
    return client


def write_staff(parent: ET.Element, tag: str, staff) -> None:
    """A member of our staff as t_person_registration_in_report (the reporting person): names, e-mail, role."""
    person = add(parent, tag)
    add(person, "first_name", staff.first_name)
    add(person, "last_name", staff.last_name)
    add_optional(person, "email", staff.email)
    add_optional(person, "occupation", staff.get_role_display())


def write_entity(parent: ET.Element, tag: str, name: str) -> None:
    """An organisation (a vendor, or money from outside whose owner the ledger does not name) as t_entity."""
    entity = add(parent, tag)
    add(entity, "name", name)
