"""Names in every script the PEP matcher handles, and punctuation the unit refuses, still make valid reports.

The unit's schema restricts names to ``[a-zA-Z0-9 .'-]`` (goaml_5_0_2_subset.xsd, t_name*): the export
transliterates, replaces and cuts them (compliance.sars.goaml.fit). Property tests draw names from each
script's letters; the examples pin what a reader of the report sees.
"""

import re
import uuid
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.sars.goaml.fit import NAME_UNKNOWN, fit, fit_name, fit_text
from compliance.sars.tests.goaml.helpers import any_script_name, errors_of, report_of
from compliance.sars.tests.sar.helpers import file_sar
from kyc.tests.factories import TransactionFactory
from vendors.models import Vendor

NAME = re.compile(r"[a-zA-Z0-9 .'\-]+")


@given(any_script_name)
def test_a_fitted_name_matches_the_units_pattern_and_length(name):
    for limit in (50, 100, 255):
        fitted = fit_name(name, limit)
        assert NAME.fullmatch(fitted) and 1 <= len(fitted) <= limit


@given(st.text(max_size=5000))
def test_fitted_free_text_is_within_its_length(text):
    assert len(fit_text(text)) <= 4000
    assert len(fit("city", text)) <= 255


@pytest.mark.parametrize(
    ("stored", "written"),
    [
        ("José María", "Jose Maria"),
        ("O'Brien-Dlamini", "O'Brien-Dlamini"),
        ("Nkosi (Jr.)", "Nkosi Jr."),
        ("Владимир", "Vladimir"),
        ("Ελένη", "Eleni"),
        ("习近平", "XiJinPing"),
        ("김정은", "GimJeongEun"),
        ("Ngozi & Sons, Ltd/Pty", "Ngozi and Sons Ltd Pty"),
        ("Đặng Thị", "Dang Thi"),
        ("😀", "grinning"),
        ("()", NAME_UNKNOWN),
    ],
)
def test_names_as_the_unit_reads_them(stored, written):
    assert fit_name(stored) == written


def test_a_long_name_is_cut_at_a_word_boundary():
    assert fit_name("Sibusiso " * 20, 50) == ("Sibusiso " * 5).strip()


@pytest.mark.django_db
@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=any_script_name, last=any_script_name, vendor=any_script_name)
def test_a_sar_on_anyone_with_any_name_validates(subject, crew, subset_schema, first, last, vendor):
    subject.first_name, subject.last_name = first[:100], last[:100]
    subject.save(update_fields=["first_name", "last_name"])
    n = uuid.uuid4().int % 10**6
    shop = Vendor.objects.create(
        business_name=vendor[:200], email=f"shop-{n}@example.com", phone_number=f"+268240{n:06d}"
    )
    tx = TransactionFactory(user=subject, amount=Decimal("10"), type="VENDOR_PAYMENT", counterparty_vendor=shop)
    sar = file_sar(subject, crew["filer"], related_transaction_ids=[tx.pk], activity_description=first + " " + last)
    assert errors_of(sar) == []


@pytest.mark.django_db
def test_the_report_writes_the_fitted_names_and_the_unidentified_counterparty(subject, crew):
    subject.first_name, subject.last_name = "Zoë", "N'wa-Mbhele (née Ngcobo)"
    subject.save(update_fields=["first_name", "last_name"])
    tx = TransactionFactory(user=subject, amount=Decimal("10"), type="TOP_UP", channel="MOBILE_MONEY")
    sar = file_sar(subject, crew["filer"], related_transaction_ids=[tx.pk])
    report = report_of(sar)
    person = report.find(".//to_person")
    assert person.findtext("first_name") == "Zoe"
    assert person.findtext("last_name") == "N'wa-Mbhele nee Ngcobo"
    assert report.findtext(".//from_entity/name") == "Mobile money - counterparty not identified"
    assert errors_of(sar) == []
