"""The unit's answer to a submitted SAR, and the correction of a rejected one that names it."""

import pytest
from lxml import etree

from compliance.sars.choices import SARStatus
from compliance.sars.goaml.schema import load_schema, schema_errors
from compliance.sars.models.sar import SAR
from compliance.sars.tests.goaml.helpers import SUBSET_XSD, goaml_of

pytestmark = pytest.mark.django_db


def answer(client, sar, **body):
    return client.post(f"/api/v1/admin/aml/sars/{sar.sar_id}/fiu-response", body, format="json")


def test_accepted_acknowledges_the_report_with_the_units_reference(make_sar, clients):
    sar = make_sar(SARStatus.SUBMITTED)
    r = answer(clients["approver"], sar, accepted=True, fiuReference="EFIU-2026-11")
    assert r.status_code == 200, r.content
    data = r.json()["data"]
    assert data["status"] == "ACKNOWLEDGED" and data["fiuOutcome"] == "ACCEPTED"
    assert data["fiuReference"] == "EFIU-2026-11" and data["fiuReason"] is None


def test_rejected_needs_the_reason_and_closes_the_report(make_sar, clients):
    sar = make_sar(SARStatus.SUBMITTED)
    assert answer(clients["approver"], sar, accepted=False).status_code == 400
    r = answer(clients["approver"], sar, accepted=False, reason="Narrative lacks the 5 Ws", fiuReference="EFIU-9")
    assert r.status_code == 200, r.content
    data = r.json()["data"]
    assert data["status"] == "CLOSED" and data["fiuOutcome"] == "REJECTED"
    assert data["fiuReason"] == "Narrative lacks the 5 Ws"
    again = answer(clients["approver"], sar, accepted=True)
    assert again.status_code == 409 and again.json()["error"]["code"] == "INVALID_TRANSITION"


def test_only_a_submitted_report_takes_an_answer_and_only_from_an_mlro_or_admin(make_sar, clients):
    draft = make_sar()
    assert answer(clients["approver"], draft, accepted=True).status_code == 409
    sar = make_sar(SARStatus.SUBMITTED)
    assert answer(clients["filer"], sar, accepted=True).status_code == 403
    assert answer(clients["admin"], sar, accepted=True).status_code == 200


def test_the_status_endpoint_still_refuses_a_move_from_submitted_to_closed(make_sar, clients):
    sar = make_sar(SARStatus.SUBMITTED)
    r = clients["approver"].put(f"/api/v1/admin/aml/sars/{sar.pk}/status", {"status": "CLOSED"}, format="json")
    assert r.status_code == 409


def test_a_rejected_report_is_corrected_and_filed_again_naming_the_rejected_one(make_sar, clients, crew):
    sar = make_sar(SARStatus.SUBMITTED)
    assert clients["filer"].post(f"/api/v1/admin/aml/sars/{sar.sar_id}/correction").status_code == 409
    answer(clients["approver"], sar, accepted=False, reason="Wrong subject ID", fiuReference="EFIU-41")
    r = clients["filer"].post(f"/api/v1/admin/aml/sars/{sar.sar_id}/correction")
    assert r.status_code == 201, r.content
    data = r.json()["data"]
    assert data["status"] == "DRAFT" and data["correctsSarId"] == sar.sar_id and data["sarId"] != sar.sar_id
    assert clients["filer"].post(f"/api/v1/admin/aml/sars/{sar.sar_id}/correction").status_code == 409
    correction = SAR.objects.get(sar_id=data["sarId"])
    report = etree.fromstring(goaml_of(correction))
    assert report.findtext("fiu_ref_number") == "EFIU-41"
    texts = [i.findtext("info_text") or "" for i in report.iter("additional_info")]
    assert any(sar.sar_id in t and "Wrong subject ID" in t for t in texts)
    assert schema_errors(goaml_of(correction), load_schema(SUBSET_XSD)) == []
