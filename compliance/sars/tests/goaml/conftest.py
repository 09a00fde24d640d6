"""Fixtures of the goAML tests: the subset schema written from goaml.md, and reports parsed back."""

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from compliance.sars.goaml import render_goaml
from compliance.sars.goaml.schema import load_schema, schema_errors
from compliance.sars.selectors.sar import sar_for_report
from compliance.sars.tests.sar.conftest import clients, crew, make_sar, subject, subject_alert  # noqa: F401 - fixtures

SUBSET_XSD = Path(__file__).with_name("goaml_5_0_2_subset.xsd")


@pytest.fixture
def subset_schema():
    return load_schema(SUBSET_XSD)


def goaml_of(sar) -> bytes:
    return render_goaml(sar_for_report(sar=sar))


def report_of(sar) -> ET.Element:
    return ET.fromstring(goaml_of(sar))


def errors_of(sar) -> list[str]:
    return schema_errors(goaml_of(sar), load_schema(SUBSET_XSD))
