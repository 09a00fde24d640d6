"""POST /api/v1/admin/aml/sars: filing a SAR and every validation of the contract."""

import datetime as dt
import re
import uuid

import pytest

from backoffice.models import AuditLog
from compliance.sars.models.sar import SAR
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

URL = "/api/v1/admin/aml/sars"
SAR_ID_RE = re.compile(r"^SAR-\d{13}-[A-Z0-9]{6}$")


def body(user, **overrides):
    data = {
        "entityUserId": str(user.pk),
        "suspiciousActivityType": "structuring",
        "activityDescription": "Repeated deposits just below the reporting threshold",
        "dateOfSuspiciousActivity": (dt.date.today() - dt.timedelta(days=10)).isoformat(),
        "amountInvolved": 45999.5,
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_filing_a_sar_answers_201_with_the_whole_record(clients, crew, subject, subject_transactions):
    tx_ids = [str(t.pk) for t in subject_transactions]
    r = clients["filer"].post(URL, body(subject, relatedTransactionIds=tx_ids), format="json")
    assert r.status_code == 201, r.content
    b = r.json()
    assert b["success"] is True and b["message"] == "SAR created"
    data = b["data"]
    assert SAR_ID_RE.match(data["sarId"])
    assert data["status"] == "DRAFT"
    assert data["entityUserId"] == str(subject.pk)
    assert data["filedById"] == str(crew["filer"].pk)
    assert data["amountInvolved"] == 45999.5
    assert sorted(data["relatedTransactionIds"]) == sorted(tx_ids)
    assert data["relatedAlertIds"] == []
    assert data["dateOfSuspiciousActivity"] == body(subject)["dateOfSuspiciousActivity"]
    assert data["createdAt"].endswith("Z") and data["draftedAt"].endswith("Z")
    assert AuditLog.objects.filter(action="sar.create", object_id=data["id"]).exists()


def test_sar_ids_are_unique_and_timestamped(clients, subject):
    ids = {clients["filer"].post(URL, body(subject), format="json").json()["data"]["sarId"] for _ in range(5)}
    assert len(ids) == 5


def test_an_empty_body_names_each_missing_field(clients):
    r = clients["filer"].post(URL, {}, format="json")
    assert r.status_code == 400
    details = r.json()["error"]["details"]
    for field in (
        "entityUserId",
        "suspiciousActivityType",
        "activityDescription",
        "dateOfSuspiciousActivity",
        "amountInvolved",
    ):
        assert field in details


@pytest.mark.parametrize(
    "field,value",
    [
        ("suspiciousActivityType", "littering"),
        ("amountInvolved", -1),
        ("amountInvolved", 10.123),
        ("amountInvolved", "lots"),
        ("amountInvolved", True),
        ("dateOfSuspiciousActivity", "2026-13-01"),
        ("dateOfSuspiciousActivity", "21/11/2026"),
        ("activityDescription", ""),
        ("relatedTransactionIds", ["not-a-uuid"]),
        ("relatedAlertIds", "not-a-list"),
    ],
)
def test_invalid_values_are_400_naming_the_field(clients, subject, field, value):
    r = clients["filer"].post(URL, body(subject, **{field: value}), format="json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["code"] == "VALIDATION_ERROR"
    # list items are named by position: relatedTransactionIds.0
    assert any(key.split(".")[0] == field for key in r.json()["error"]["details"])
    assert not SAR.objects.exists()


def test_a_future_date_of_activity_is_refused(clients, subject):
    tomorrow = (dt.date.today() + dt.timedelta(days=2)).isoformat()
    r = clients["filer"].post(URL, body(subject, dateOfSuspiciousActivity=tomorrow), format="json")
    assert r.status_code == 400 and "dateOfSuspiciousActivity" in r.json()["error"]["details"]


def test_zero_is_an_acceptable_amount(clients, subject):
    assert clients["filer"].post(URL, body(subject, amountInvolved=0), format="json").status_code == 201


def test_an_unknown_subject_is_404_user_not_found(clients, subject):
    r = clients["filer"].post(URL, body(subject, entityUserId=str(uuid.uuid4())), format="json")
    assert r.status_code == 404 and r.json()["message"] == "User not found"


def test_unknown_alerts_are_400_with_details(clients, subject):
    r = clients["filer"].post(URL, body(subject, relatedAlertIds=[str(uuid.uuid4())]), format="json")
    assert r.status_code == 400 and "relatedAlertIds" in r.json()["error"]["details"]


def test_transactions_of_another_user_are_refused(clients, subject):
    stranger_tx = TransactionFactory(user=PlatformUserFactory())
    r = clients["filer"].post(URL, body(subject, relatedTransactionIds=[str(stranger_tx.pk)]), format="json")
    assert r.status_code == 400 and "relatedTransactionIds" in r.json()["error"]["details"]
    assert not SAR.objects.exists()


def test_filed_by_may_name_the_caller(clients, crew, subject):
    r = clients["filer"].post(URL, body(subject, filedById=str(crew["filer"].pk)), format="json")
    assert r.status_code == 201 and r.json()["data"]["filedById"] == str(crew["filer"].pk)


def test_filed_by_naming_someone_else_is_403(clients, crew, subject):
    r = clients["filer"].post(URL, body(subject, filedById=str(crew["reviewer"].pk)), format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "FORBIDDEN"
    assert not SAR.objects.exists()


def test_a_json_array_body_is_400(clients):
    assert clients["filer"].post(URL, [1, 2, 3], format="json").status_code == 400


def test_malformed_json_is_400_in_the_envelope(clients):
    r = clients["filer"].post(URL, data=b'{"entityUserId": ', content_type="application/json")
    assert r.status_code == 400 and r.json()["success"] is False


def test_related_alerts_are_linked_and_returned(clients, subject, subject_alert):
    r = clients["filer"].post(URL, body(subject, relatedAlertIds=[str(subject_alert.pk)] * 2), format="json")
    assert r.status_code == 201, r.content
    assert r.json()["data"]["relatedAlertIds"] == [str(subject_alert.pk)]
    assert list(SAR.objects.get(pk=r.json()["data"]["id"]).related_alerts.all()) == [subject_alert]


def test_alerts_a_sar_cites_are_escalated_while_it_is_in_progress(clients, subject, subject_alert):
    from compliance.aml.models.alerts import Alert

    closed_earlier = Alert.objects.create(
        user=subject, severity="LOW", status="CLOSED_FALSE_POSITIVE", dedup_key=f"test:closed:{subject.pk}"
    )
    r = clients["filer"].post(
        URL, body(subject, relatedAlertIds=[str(subject_alert.pk), str(closed_earlier.pk)]), format="json"
    )
    assert r.status_code == 201
    sar_id = r.json()["data"]["sarId"]
    subject_alert.refresh_from_db()
    closed_earlier.refresh_from_db()
    assert subject_alert.status == "ESCALATED"
    assert subject_alert.events.get().note == f"Cited by SAR {sar_id}: SAR in progress."
    assert closed_earlier.status == "CLOSED_FALSE_POSITIVE" and not closed_earlier.events.exists()
