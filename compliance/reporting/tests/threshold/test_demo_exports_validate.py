"""The whole demo's threshold reports, exported through the API, validate against the kept goAML 5.0.2 XSD.

Every demo report is exported: the filed batches as they are, and a last batch prepared here gathering
whatever is still pending. (The demo's SARs: compliance/sars/tests/goaml/test_demo_reports_validate.py.)
"""

import io
import zipfile

import pytest
from lxml import etree

from backoffice.models import Staff
from compliance import demo
from compliance.reporting.models import ThresholdReport, ThresholdReportBatch
from compliance.sars.goaml.schema import load_schema, schema_errors
from compliance.sars.tests.goaml.helpers import SUBSET_XSD
from compliance.sars.tests.sar.helpers import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
URL = "/api/v1/admin/aml/threshold-reports"


def test_every_demo_threshold_report_exports_a_valid_goaml_report_and_seeding_again_changes_nothing(demo_data):
    statuses = set(ThresholdReport.objects.values_list("status", flat=True))
    assert statuses == {"ACCEPTED", "BATCHED", "PENDING"}
    before = sorted(ThresholdReport.objects.values_list("id", "status", "total"))
    demo.seed(io.StringIO())
    assert sorted(ThresholdReport.objects.values_list("id", "status", "total")) == before

    officer = client_for(Staff.objects.get(email="compliance@vikela.demo"))
    assert officer.post(f"{URL}/batches", {}, format="json").status_code == 201  # the pending ones
    schema = load_schema(SUBSET_XSD)
    exported = set()
    for batch in ThresholdReportBatch.objects.all():
        r = officer.get(f"{URL}/batches/{batch.pk}/export")
        assert r.status_code == 200 and r["Content-Type"] == "application/zip"
        archive = zipfile.ZipFile(io.BytesIO(r.content))
        for name in archive.namelist():
            body = archive.read(name)
            assert schema_errors(body, schema) == [], name
            exported.add(etree.fromstring(body).findtext("entity_reference").split("-", 2)[2])
    # every report of the demo, in one batch or another (the rejected one in two)
    assert exported == {str(pk) for pk in ThresholdReport.objects.values_list("pk", flat=True)}
