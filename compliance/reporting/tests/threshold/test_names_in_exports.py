"""Threshold-report exports fit any name our data can hold: customers in every script the PEP matcher handles."""

import io
import uuid
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.reporting.models import ThresholdReport
from compliance.reporting.services.threshold import threshold_batch_export, threshold_batch_prepare
from compliance.reporting.tests.threshold.helpers import MORNING, cash
from compliance.sars.goaml.schema import load_schema, schema_errors
from compliance.sars.tests.goaml.helpers import SUBSET_XSD, any_script_name
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.slow
# no NUL in the occupation: PostgreSQL stores none in text, and the API refuses one before a row is written
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    first=any_script_name,
    last=any_script_name,
    occupation=st.text(st.characters(exclude_characters="\x00"), max_size=400),
)
def test_a_batch_on_customers_with_any_name_validates(rule, staff, first, last, occupation):
    n = uuid.uuid4().int
    person = PlatformUserFactory(
        first_name=first[:100],
        last_name=last[:100],
        occupation=occupation[:100],
        phone_number=f"+268761{n % 10**5:05d}",
    )
    cash(person, "25000")
    ThresholdReport.objects.exclude(user=person).update(status="ACCEPTED")  # earlier examples' reports are done
    batch = threshold_batch_prepare(actor=staff["officer"])
    archive = zipfile.ZipFile(io.BytesIO(threshold_batch_export(batch=batch, actor=staff["officer"])))
    [name] = archive.namelist()
    assert schema_errors(archive.read(name), load_schema(SUBSET_XSD)) == []


def test_accents_apostrophes_hyphens_and_parentheses_in_an_export(rule, staff):
    person = PlatformUserFactory(first_name="Zoë-Nomvula", last_name="O'Neil (Dlamini)")
    cash(person, "25000", at=MORNING)
    batch = threshold_batch_prepare(actor=staff["officer"])
    archive = zipfile.ZipFile(io.BytesIO(threshold_batch_export(batch=batch, actor=staff["officer"])))
    body = archive.read(archive.namelist()[0]).decode()
    assert "<first_name>Zoe-Nomvula</first_name>" in body and "<last_name>O'Neil Dlamini</last_name>" in body
    assert schema_errors(body.encode(), load_schema(SUBSET_XSD)) == []
