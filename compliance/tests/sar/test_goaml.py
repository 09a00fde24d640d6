"""The goAML export parsed back: element order of goaml.md, mandatory elements, formats, where PII may be."""

import datetime as dt
import re
from decimal import Decimal
from xml.etree import ElementTree as ET

import pytest

from compliance.choices import SARStatus
from compliance.goaml import render_goaml
from compliance.selectors.sar import sar_for_report
from compliance.tests.sar.conftest import file_sar, move
from kyc.choices import Channel, TransactionType
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

HEADER = [
    "rentity_id",
    "rentity_branch",
    "submission_code",
    "report_code",
    "entity_reference",
    "fiu_ref_number",
    "submission_date",
    "currency_code_local",
    "reporting_person",
    "location",
    "reason",
    "action",
    "transaction",
    "activity",
    "report_indicators",
    "additional_information",
]
TRANSACTION = [
    "transactionnumber",
    "internal_ref_number",
    "transaction_location",
    "transaction_description",
    "date_transaction",
    "transmode_code",
    "amount_local",
    "t_from_my_client",
    "t_from",
    "t_to_my_client",
    "t_to",
]
PERSON = [
    "gender",
    "first_name",
    "last_name",
    "birthdate",
    "id_number",
    "nationality1",
    "residence",
    "phones",
    "addresses",
    "identification",
    "email",
]
PERSON_TAGS = {"from_person", "to_person", "person_my_client"}
ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$")


def assert_in_order(element, order):
    tags = [child.tag for child in element]
    assert all(tag in order for tag in tags), f"unexpected elements {set(tags) - set(order)}"
    positions = [order.index(tag) for tag in tags]
    assert positions == sorted(positions), f"out of order: {tags}"


@pytest.fixture
def rich_subject(db):
    return PlatformUserFactory(
        first_name="Zodwa",
        last_name="Kunene",
        id_number="8505120600089",
        sex="FEMALE",
        date_of_birth=dt.date(1985, 5, 12),
        nationality="SZ",
        phone_number="+26876555123",
        email="zodwa@example.com",
    )


def export(sar):
    return ET.fromstring(render_goaml(sar_for_report(sar=sar)))


def test_a_report_with_transactions_follows_the_goaml_outline(rich_subject, crew, settings):
    settings.GOAML_RENTITY_ID = "4321"
    settings.GOAML_TRANSMODE_CODES = {"MOBILE_MONEY": "MMX", "WALLET": "EW", "CARD": "C", "BANK": "B"}
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

    report = export(sar)
    assert report.tag == "report"
    assert_in_order(report, HEADER)
    for mandatory in (
        "rentity_id",
        "submission_code",
        "report_code",
        "entity_reference",
        "submission_date",
        "currency_code_local",
        "reason",
        "report_indicators",
    ):
        assert report.find(mandatory) is not None, mandatory
    assert report.findtext("rentity_id") == "4321"
    assert report.findtext("submission_code") == "E" and report.findtext("report_code") == "SAR"
    assert report.findtext("entity_reference") == sar.sar_id
    assert report.findtext("fiu_ref_number") == "FIU-77"
    assert report.findtext("currency_code_local") == "SZL"
    assert ISO_DATETIME.match(report.findtext("submission_date"))
    assert report.findtext("reporting_person/email") == crew["approver"].email
    assert report.findtext("report_indicators/indicator") == "STRUCT"
    assert report.find("activity") is None

    transactions = report.findall("transaction")
    assert len(transactions) == 2
    for element in transactions:
        assert_in_order(element, TRANSACTION)
        assert re.fullmatch(r"\d+\.\d{2}", element.findtext("amount_local"))
        assert ISO_DATETIME.match(element.findtext("date_transaction"))
    by_number = {t.findtext("transactionnumber"): t for t in transactions}
    credit = by_number[str(top_up.pk)]
    assert credit.findtext("amount_local") == "4900.50"
    assert credit.findtext("transmode_code") == "MMX"
    assert credit.find("t_from") is not None and credit.find("t_to_my_client/to_person") is not None
    debit = by_number[str(payout.pk)]
    assert debit.find("t_from_my_client/from_person") is not None and debit.find("t_to") is not None


def test_the_subject_is_a_person_with_identification_in_goaml_order(rich_subject, crew):
    sar = file_sar(rich_subject, crew["filer"])
    person = export(sar).find("activity/report_parties/report_party/person_my_client")
    assert person is not None
    assert_in_order(person, PERSON)
    assert person.findtext("gender") == "F"
    assert person.findtext("birthdate") == "1985-05-12T00:00:00"
    assert person.findtext("phones/phone/tph_number") == "+26876555123"
    assert [c.tag for c in person.find("phones/phone")] == ["tph_contact_type", "tph_communication_type", "tph_number"]
    identification = person.find("identification")
    assert [c.tag for c in identification] == ["type", "number", "issue_country"]
    assert identification.findtext("number") == "8505120600089"


def test_the_subjects_personal_data_appears_only_in_person_elements(rich_subject, crew):
    tx = TransactionFactory(user=rich_subject, type=TransactionType.TRANSFER_OUT, amount=Decimal("100"))
    sar = file_sar(
        rich_subject,
        crew["filer"],
        related_transaction_ids=[tx.pk],
        activity_description="Transfers to many new recipients",
    )
    root = export(sar)
    pii = {"Zodwa", "Kunene", "8505120600089", "+26876555123", "zodwa@example.com"}

    def walk(element, inside_person):
        inside = inside_person or element.tag in PERSON_TAGS
        if not inside:
            for value in pii:
                assert value not in (element.text or ""), f"{value} leaked into <{element.tag}>"
        for child in element:
            walk(child, inside)

    walk(root, False)


def test_free_text_cannot_break_the_xml(subject, crew):
    sar = file_sar(subject, crew["filer"], activity_description="<b>&</b> ]]> \x01 control")
    raw = render_goaml(sar_for_report(sar=sar))
    assert raw.startswith(b"<?xml")
    assert ET.fromstring(raw).findtext("reason") == "<b>&</b> ]]>  control"
