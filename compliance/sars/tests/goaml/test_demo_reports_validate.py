"""Every demo SAR, exported through the API as goAML, validates against the subset schema of goaml.md."""

import pytest
from lxml import etree

from backoffice.models import Staff
from compliance.sars.choices import SARStatus
from compliance.sars.goaml.schema import schema_errors
from compliance.sars.models.sar import SAR
from compliance.sars.tests.sar.helpers import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_every_demo_sar_exports_a_valid_goaml_report(demo_data, subset_schema):
    sars = list(SAR.objects.filter(sar_id__contains="-DEMO").order_by("sar_id"))
    assert {s.status for s in sars} == set(SARStatus.values)
    mlro = client_for(Staff.objects.get(email="mlro@vikela.demo"))
    client_reports = 0
    for sar in sars:
        response = mlro.get(f"/api/v1/admin/aml/sars/{sar.sar_id}/export", {"format": "goaml"})
        assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
        assert schema_errors(response.content, subset_schema) == [], sar.sar_id
        report = etree.fromstring(response.content)
        client_reports += bool(report.xpath("//t_from_my_client|//t_to_my_client|//person_my_client"))
    assert client_reports == len(sars)  # the demo subjects' records are complete: written as our clients
