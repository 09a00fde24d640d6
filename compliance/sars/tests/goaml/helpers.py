"""Fixtures and helpers of the goAML tests: the subset schema written from goaml.md, reports parsed back, a SAR
ready for approval, and names drawn from every script the matcher handles."""

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from hypothesis import strategies as st

from compliance.sars.choices import SARStatus
from compliance.sars.goaml import render_goaml
from compliance.sars.goaml.schema import load_schema, schema_errors
from compliance.sars.selectors.sar import sar_for_report
from compliance.sars.tests.sar.helpers import file_sar, move

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


def submit(clients, crew, sar):
    body = {"status": "SUBMITTED", "approvedBy": str(crew["approver"].pk)}
    return clients["approver"].put(f"/api/v1/admin/aml/sars/{sar.pk}/status", body, format="json")


def ready_for_approval(subject, crew, **fields):
    sar = file_sar(subject, crew["filer"], **fields)
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    return move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)


# The scripts names.parse transliterates (Latin with diacritics, the alphabets, the abjads, the
# syllabic scripts), as Unicode ranges of their letters.
SCRIPTS = {
    "Latin with diacritics": (0x00C0, 0x024F),
    "Greek": (0x0391, 0x03C9),
    "Cyrillic": (0x0410, 0x044F),
    "Armenian": (0x0531, 0x0556),
    "Hebrew": (0x05D0, 0x05EA),
    "Arabic": (0x0621, 0x064A),
    "Syriac": (0x0710, 0x072F),
    "Thaana": (0x0780, 0x07A5),
    "NKo": (0x07CA, 0x07EA),
    "Devanagari": (0x0905, 0x0939),
    "Bengali": (0x0985, 0x09B9),
    "Gurmukhi": (0x0A05, 0x0A39),
    "Gujarati": (0x0A85, 0x0AB9),
    "Oriya": (0x0B05, 0x0B39),
    "Thai": (0x0E01, 0x0E2E),
    "Georgian": (0x10D0, 0x10FA),
    "Ethiopic": (0x1200, 0x1248),
    "Hangul": (0xAC00, 0xD7A3),
    "CJK": (0x4E00, 0x9FFF),
    "Hiragana": (0x3041, 0x3096),
    "Katakana": (0x30A1, 0x30FA),
}
PUNCTUATION = '()[]{},;:/\\&!?"`@#%*+=<>|~^_’‘“”–—'


def words_in(lo: int, hi: int):
    letters = st.characters(min_codepoint=lo, max_codepoint=hi, categories=["L", "M"])
    word = st.text(letters, min_size=1, max_size=12)
    return st.lists(word, min_size=1, max_size=4).map(" ".join)


any_script_name = st.one_of(
    *(words_in(lo, hi) for lo, hi in SCRIPTS.values()),
    # mixed with the punctuation people put in names and organisations' names
    st.text(st.sampled_from(list(PUNCTUATION) + list("aZ09 .'-éøßЖ李")), min_size=1, max_size=300),
    # anything at all, control characters and surrogate-free astral planes included, but NUL: PostgreSQL stores
    # none in text and the API refuses one before a row is written, so no stored name holds it
    st.text(st.characters(exclude_characters="\x00"), min_size=1, max_size=300),
)
