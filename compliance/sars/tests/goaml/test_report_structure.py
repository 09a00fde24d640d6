"""The goAML export parsed back: goaml.md's 5.0.2 element order, required elements, formats, where PII may be.

Every report here is also validated against the subset XSD written from goaml.md (strict order, required
elements, types, the default code lists), so a misplaced or missing element fails twice: by name here, and by
the schema.
"""

import datetime as dt
import re
from decimal import Decimal

import pytest

from compliance.sars.choices import SARStatus
from compliance.sars.tests.goaml.helpers import errors_of, goaml_of, report_of
from compliance.sars.tests.sar.helpers import file_sar, move
from kyc.choices import Channel, TransactionType
from kyc.tests.factories import PlatformUserFactory, TransactionFactory
from vendors.models import Vendor

# goaml.md, in order; the tests check that what we write is a subsequence of these.
HEADER = [
    "rentity_id", "rentity_branch", "submission_code", "report_code", "entity_reference", "fiu_ref_number",
    "submission_date", "currency_code_local", "reporting_person", "location", "reason", "action", "transaction",
    "activity", "report_indicators", "additional_information",
]  # fmt: skip
TRANSACTION = [
    "transactionnumber", "internal_ref_number", "transaction_location", "transaction_description",
    "date_transaction", "value_date", "transmode_code", "transmode_comment", "amount_local", "t_from_my_client",
    "t_from", "t_to_my_client", "t_to", "comments",
]  # fmt: skip
PERSON = [
    "gender", "title", "first_name", "middle_name", "prefix", "last_name", "birthdate", "birth_place",
    "country_of_birth", "mothers_name", "alias", "ssn", "passport_number", "passport_country", "id_number",
    "nationality1", "nationality2", "nationality3", "residence", "phones", "addresses", "email", "occupation",
    "employer_name", "identification", "tax_number", "tax_reg_number", "source_of_wealth", "peps",
]  # fmt: skip
PERSON_TAGS = {"from_person", "to_person", "person_my_client", "person", "t_conductor"}
ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$")

pytestmark = pytest.mark.django_db


def assert_in_order(element, order):
    tags = [child.tag for child in element]
    assert all(tag in order for tag in tags), f"unexpected elements {set(tags) - set(order)}"
    positions = [order.index(tag) for tag in tags]
    assert positions == sorted(positions), f"out of order: {tags}"


@pytest.fixture
def rich_subject(db):
    """A customer with every fact of due diligence on file, a passport included."""
    return PlatformUserFactory(
        first_name="Zodwa",
        last_name="Kunene",
        id_number="8505120600089",
        sex="FEMALE",
        date_of_birth=dt.date(1985, 5, 12),
        nationality="Swazi",
        phone_number="+26876555123",
        email="zodwa@example.com",
        occupation="Trader",
        region="Manzini",
        address_line="12 Ngwane Street",
        city="Manzini",
        id_issue_date=dt.date(2011, 3, 4),
        passport_number="SZ0091234",
        passport_country="SZ",
        passport_issue_date=dt.date(2020, 1, 15),
        passport_expiry_date=dt.date(2030, 1, 14),
    )


def test_a_report_with_transactions_follows_the_goaml_outline(rich_subject, crew, settings):
    settings.GOAML_RENTITY_ID = 4321
    top_up = TransactionFactory(
        user=rich_subject, type=TransactionType.TOP_UP, channel=Channel.MOBILE_MONEY, amount=Decimal("4900.5")
    )
    payout = TransactionFactory(user=rich_subject, type=TransactionType.WITHDRAWAL, amount=Decimal("4800"))
    sar = file_sar(rich_subject, crew["filer"], related_transaction_ids=[top_up.pk, payout.pk])
    for status, who in [
        (SARStatus.PENDING_REVIEW, "filer"),
        (SARStatus.PENDING_APPROVAL, "reviewer"),
        (SARStatus.SUBMITTED, "approver"),
    ]:
        move(sar, crew[who], status)
    move(sar, crew["approver"], SARStatus.ACKNOWLEDGED, fiu_reference="FIU-77")

    assert errors_of(sar) == []
    report = report_of(sar)
    assert report.tag == "report"
    assert_in_order(report, HEADER)
    assert report.findtext("rentity_id") == "4321"
    assert report.findtext("submission_code") == "E" and report.findtext("report_code") == "SAR"
    assert report.findtext("entity_reference") == sar.sar_id
    assert report.findtext("fiu_ref_number") == "FIU-77"
    assert report.findtext("currency_code_local") == "SZL"
    assert ISO_DATETIME.match(report.findtext("submission_date"))
    assert report.findtext("reporting_person/email") == crew["approver"].email
    assert report.findtext("reason") == sar.activity_description
    assert report.findtext("report_indicators/indicator") == "STRUCT"
    assert report.find("activity") is None

    transactions = report.findall("transaction")
    assert len(transactions) == 2
    for element in transactions:
        assert_in_order(element, TRANSACTION)
        assert re.fullmatch(r"\d+\.\d{2}", element.findtext("amount_local"))
        assert ISO_DATETIME.match(element.findtext("date_transaction"))
        assert element.find("transaction_location") is not None  # required, written even when empty
    by_number = {t.findtext("transactionnumber"): t for t in transactions}
    credit = by_number[str(top_up.pk)]
    assert credit.findtext("amount_local") == "4900.50"
    assert credit.findtext("transmode_code") == "MM"
    assert [c.tag for c in credit.find("t_from")] == ["from_funds_code", "from_entity", "from_country"]
    assert [c.tag for c in credit.find("t_to_my_client")] == ["to_funds_code", "to_person", "to_country"]
    debit = by_number[str(payout.pk)]
    assert debit.find("t_from_my_client/from_person") is not None and debit.find("t_to/to_entity") is not None


def test_our_customer_is_a_person_my_client_with_every_required_element_in_order(rich_subject, crew):
    sar = file_sar(rich_subject, crew["filer"])
    assert errors_of(sar) == []
    person = report_of(sar).find("activity/report_parties/report_party/person_my_client")
    assert [c.tag for c in person] == [
        "gender", "first_name", "last_name", "birthdate", "passport_number", "passport_country", "id_number",
        "nationality1", "residence", "phones", "addresses", "email", "occupation", "identification",
        "identification",
    ]  # fmt: skip
    assert_in_order(person, PERSON)
    assert person.findtext("gender") == "F" and person.findtext("birthdate") == "1985-05-12T00:00:00"
    assert person.findtext("nationality1") == "SZ"  # written "Swazi" in the record
    phone = person.find("phones/phone")
    assert [c.tag for c in phone] == ["tph_contact_type", "tph_communication_type", "tph_country_prefix", "tph_number"]
    assert (phone.findtext("tph_country_prefix"), phone.findtext("tph_number")) == ("268", "76555123")
    address = person.find("addresses/address")
    assert [c.tag for c in address] == ["address_type", "address", "city", "country_code", "state"]
    national, passport = person.findall("identification")
    assert [c.tag for c in national] == ["type", "number", "issue_date", "expiry_date", "issue_country"]
    assert (national.findtext("type"), national.findtext("number")) == ("NID", "8505120600089")
    assert national.findtext("expiry_date") == "9999-12-31T00:00:00"  # the ID card never expires
    assert (passport.findtext("type"), passport.findtext("expiry_date")) == ("PASSP", "2030-01-14T00:00:00")


def test_a_customer_with_incomplete_records_is_a_plain_person_and_the_report_says_what_is_missing(crew):
    newcomer = PlatformUserFactory(first_name="Sipho", last_name="Zwane", email="")  # registered: names and phone
    tx = TransactionFactory(user=newcomer, type=TransactionType.TRANSFER_OUT, amount=Decimal("100"))
    sar = file_sar(newcomer, crew["filer"], related_transaction_ids=[tx.pk])
    assert errors_of(sar) == []
    report = report_of(sar)
    side = report.find("transaction/t_from")
    assert side is not None and report.find("transaction/t_from_my_client") is None
    assert [c.tag for c in side.find("from_person")] == ["first_name", "last_name", "residence", "phones"]
    gaps = [i for i in report.iter("additional_info") if i.findtext("info_subject").startswith("Subject's customer")]
    assert "date of birth" in gaps[0].findtext("info_text") and "ID number" in gaps[0].findtext("info_text")


def test_the_other_side_is_a_client_a_plain_person_or_an_entity(rich_subject, crew):
    known = PlatformUserFactory(
        sex="MALE",
        date_of_birth=dt.date(1990, 1, 1),
        id_number="9001015800087",
        nationality="SZ",
        id_issue_date=dt.date(2012, 1, 1),
    )
    unknown = PlatformUserFactory()
    vendor = Vendor.objects.create(business_name="Lobamba Fuel", email="fuel@example.com", phone_number="+26824040001")
    rows = [
        TransactionFactory(user=rich_subject, type=TransactionType.TRANSFER_IN, counterparty_user=known),
        TransactionFactory(user=rich_subject, type=TransactionType.TRANSFER_IN, counterparty_user=unknown),
        TransactionFactory(user=rich_subject, type=TransactionType.VENDOR_PAYMENT, counterparty_vendor=vendor),
    ]
    sar = file_sar(rich_subject, crew["filer"], related_transaction_ids=[t.pk for t in rows])
    assert errors_of(sar) == []
    by_number = {t.findtext("transactionnumber"): t for t in report_of(sar).findall("transaction")}
    assert by_number[str(rows[0].pk)].find("t_from_my_client/from_person/identification") is not None
    assert by_number[str(rows[1].pk)].find("t_from/from_person/first_name").text == unknown.first_name
    assert by_number[str(rows[2].pk)].findtext("t_to/to_entity/name") == "Lobamba Fuel"


def test_the_subjects_personal_data_appears_only_in_person_elements(rich_subject, crew):
    tx = TransactionFactory(user=rich_subject, type=TransactionType.TRANSFER_OUT, amount=Decimal("100"))
    sar = file_sar(
        rich_subject,
        crew["filer"],
        related_transaction_ids=[tx.pk],
        activity_description="Transfers to many new recipients",
    )
    pii = {"Zodwa", "Kunene", "8505120600089", "76555123", "zodwa@example.com", "SZ0091234", "12 Ngwane Street"}

    def walk(element, inside_person):
        inside = inside_person or element.tag in PERSON_TAGS
        if not inside:
            for value in pii:
                assert value not in (element.text or ""), f"{value} leaked into <{element.tag}>"
        for child in element:
            walk(child, inside)

    walk(report_of(sar), False)


def test_free_text_cannot_break_the_xml(subject, crew):
    sar = file_sar(subject, crew["filer"], activity_description="<b>&</b> ]]> \x01 control")
    raw = goaml_of(sar)
    assert raw.startswith(b"<?xml")
    assert report_of(sar).findtext("reason") == "<b>&</b> ]]>  control"


def test_transmode_comment_is_written_when_the_unit_requires_it(rich_subject, crew, settings):
    settings.GOAML_TRANSMODE_COMMENT_REQUIRED = True
    tx = TransactionFactory(user=rich_subject, channel=Channel.CARD, type=TransactionType.CARD_PAYMENT)
    sar = file_sar(rich_subject, crew["filer"], related_transaction_ids=[tx.pk])
    element = report_of(sar).find("transaction")
    assert element.findtext("transmode_comment") == "Card"
    assert_in_order(element, TRANSACTION)
    assert errors_of(sar) == []
