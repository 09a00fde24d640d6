"""Batches: prepare (201, NOTHING_TO_REPORT), export (zip of goAML), submit under four eyes, the unit's answers,
and resubmission naming the rejected submission."""

import datetime as dt
import io
import zipfile

import pytest
from lxml import etree

from compliance.reporting.models import ThresholdReport, ThresholdReportFiling
from compliance.reporting.tests.threshold.helpers import MORNING, cash
from compliance.sars.goaml.schema import load_schema, schema_errors
from compliance.sars.tests.goaml.helpers import SUBSET_XSD

pytestmark = pytest.mark.django_db
URL = "/api/v1/admin/aml/threshold-reports"


@pytest.fixture
def two_reports(rule, customer):
    cash(customer, "25000")
    cash(customer, "1000", at=MORNING + dt.timedelta(hours=1))
    cash(customer, "26000", at=MORNING + dt.timedelta(days=1))
    return list(ThresholdReport.objects.order_by("day"))


def prepare(api, who="officer"):
    return api[who].post(f"{URL}/batches", {}, format="json")


def submit(api, who, batch_id, ref="FIU-2026-0001"):
    return api[who].post(f"{URL}/batches/{batch_id}/submit", {"fiuReference": ref}, format="json")


def answer(api, who, report_id, **body):
    return api[who].post(f"{URL}/{report_id}/fiu-response", body, format="json")


def test_nothing_pending_is_409(api, rule):
    r = prepare(api)
    assert r.status_code == 409 and r.json()["error"]["code"] == "NOTHING_TO_REPORT"


def test_prepare_gathers_the_pending_reports(api, staff, two_reports):
    r = prepare(api)
    assert r.status_code == 201, r.content
    data = r.json()["data"]
    assert data["status"] == "PREPARED" and data["createdBy"] == str(staff["officer"].pk)
    assert sorted(data["reportIds"]) == sorted(str(rep.pk) for rep in two_reports)
    assert data["createdAt"].endswith("Z")
    for rep in two_reports:
        detail = api["officer"].get(f"{URL}/{rep.pk}").json()["data"]
        assert detail["status"] == "BATCHED" and detail["batchId"] == data["id"]
    assert prepare(api).status_code == 409  # nothing left


def test_the_export_is_a_zip_of_valid_goaml_reports_one_per_report(api, two_reports, settings):
    batch_id = prepare(api).json()["data"]["id"]
    r = api["officer"].get(f"{URL}/batches/{batch_id}/export")
    assert r.status_code == 200 and r["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(r.content))
    names = archive.namelist()
    assert len(names) == 2 and all(n.endswith(".xml") for n in names)
    schema = load_schema(SUBSET_XSD)
    totals = []
    for name in names:
        body = archive.read(name)
        assert schema_errors(body, schema) == [], name
        report = etree.fromstring(body)
        assert report.findtext("report_code") == "CTR"
        assert report.findtext("indicator") is None and report.findtext("report_indicators/indicator") == "CTR"
        totals.append(sum(float(a) for a in report.xpath("transaction/amount_local/text()")))
        assert report.xpath("transaction/transmode_code/text()")[0] == "CASH"
    assert sorted(totals) == [26000.0, 26000.0]
    settings.GOAML_CTR_REPORT_CODE = "STR"
    body = zipfile.ZipFile(io.BytesIO(api["officer"].get(f"{URL}/batches/{batch_id}/export").content))
    assert etree.fromstring(body.read(body.namelist()[0])).findtext("report_code") == "STR"


def test_four_eyes_roles_and_submitting_twice(api, staff, two_reports):
    batch_id = prepare(api, "mlro").json()["data"]["id"]
    r = submit(api, "mlro", batch_id)
    assert r.status_code == 403 and r.json()["error"]["code"] == "FOUR_EYES_REQUIRED"
    assert submit(api, "officer", batch_id).status_code == 403  # a compliance officer does not submit
    r = api["mlro2"].post(f"{URL}/batches/{batch_id}/submit", {}, format="json")
    assert r.status_code == 400  # fiuReference required
    r = submit(api, "mlro2", batch_id)
    assert r.status_code == 200, r.content
    data = r.json()["data"]
    assert data["status"] == "SUBMITTED" and data["fiuReference"] == "FIU-2026-0001"
    assert data["submittedBy"] == str(staff["mlro2"].pk)
    assert {rep.status for rep in ThresholdReport.objects.all()} == {"SUBMITTED"}
    again = submit(api, "admin", batch_id)
    assert again.status_code == 409 and again.json()["error"]["code"] == "INVALID_TRANSITION"


def test_an_invalid_report_blocks_the_submission_when_the_schema_is_set(api, two_reports, settings):
    batch_id = prepare(api).json()["data"]["id"]
    settings.GOAML_SCHEMA_PATH = SUBSET_XSD
    settings.GOAML_CTR_INDICATOR = "NOT-IN-THE-LIST"
    r = submit(api, "mlro", batch_id)
    assert r.status_code == 409 and r.json()["error"]["code"] == "GOAML_INVALID"
    details = r.json()["error"]["details"]
    assert len(details) == 2 and all("NOT-IN-THE-LIST" in " ".join(errors) for errors in details.values())
    assert {rep.status for rep in ThresholdReport.objects.all()} == {"BATCHED"}
    settings.GOAML_CTR_INDICATOR = "CTR"
    assert submit(api, "mlro", batch_id).status_code == 200


def test_the_units_answers_and_the_resubmission_of_a_rejected_report(api, two_reports):
    first, second = two_reports
    assert answer(api, "mlro", first.pk, accepted=True).status_code == 409  # not submitted yet
    batch_id = prepare(api).json()["data"]["id"]
    assert answer(api, "mlro", first.pk, accepted=True).json()["error"]["code"] == "INVALID_TRANSITION"
    submit(api, "mlro", batch_id, ref="FIU-REF-77")

    assert answer(api, "officer", first.pk, accepted=True).status_code == 403  # the MLRO's or admin's
    r = answer(api, "mlro", first.pk, accepted=False)
    assert r.status_code == 400  # a rejection needs its reason
    r = answer(api, "mlro", first.pk, accepted=False, reason="Missing the conductor's ID")
    assert r.status_code == 200, r.content
    assert r.json()["data"]["status"] == "REJECTED" and r.json()["data"]["fiuReason"] == "Missing the conductor's ID"
    r = answer(api, "admin", second.pk, accepted=True)
    assert r.json()["data"]["status"] == "ACCEPTED"
    assert answer(api, "admin", second.pk, accepted=False, reason="x").status_code == 409

    again = prepare(api)
    assert again.status_code == 201 and again.json()["data"]["reportIds"] == [str(first.pk)]
    new_batch = again.json()["data"]["id"]
    archive = zipfile.ZipFile(io.BytesIO(api["officer"].get(f"{URL}/batches/{new_batch}/export").content))
    report = etree.fromstring(archive.read(archive.namelist()[0]))
    assert report.findtext("fiu_ref_number") == "FIU-REF-77"
    resubmission = [i for i in report.iter("additional_info") if i.findtext("info_subject").startswith("Resubmission")]
    assert "FIU-REF-77" in resubmission[0].findtext("info_text")
    assert "Missing the conductor's ID" in resubmission[0].findtext("info_text")
    assert schema_errors(etree.tostring(report), load_schema(SUBSET_XSD)) == []
    new_filing = ThresholdReportFiling.objects.get(batch_id=new_batch)
    assert new_filing.resubmits.batch_id is not None and str(new_filing.resubmits.batch_id) == batch_id
    submit(api, "admin", new_batch, ref="FIU-REF-78")
    assert answer(api, "mlro", first.pk, accepted=True).json()["data"]["status"] == "ACCEPTED"


@pytest.mark.parametrize("body", [{}, {"accepted": "yes"}, {"accepted": 1}, {"accepted": True, "extra": 1}])
def test_a_malformed_answer_is_400(api, two_reports, body):
    batch_id = prepare(api).json()["data"]["id"]
    submit(api, "mlro", batch_id)
    r = answer(api, "mlro", two_reports[0].pk, **body)
    assert r.status_code == 400, r.content


def test_batches_are_listed_and_readable(api, two_reports):
    batch_id = prepare(api).json()["data"]["id"]
    listed = api["officer"].get(f"{URL}/batches").json()
    assert [b["id"] for b in listed["data"]] == [batch_id]
    assert api["officer"].get(f"{URL}/batches/{batch_id}").json()["data"]["status"] == "PREPARED"
    assert api["officer"].get(f"{URL}/batches/nope").status_code == 404
