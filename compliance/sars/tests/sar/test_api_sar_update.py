"""PATCH /api/v1/admin/aml/sars/:sarId: a DRAFT's fields, checked as on create, every narrative kept."""

import datetime as dt
import uuid

import pytest

from backoffice.models import AuditLog
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SARNarrativeVersion
from compliance.sars.tests.sar.helpers import sar_in
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

CREATED_KEYS = {
    "id", "sarId", "status", "suspiciousActivityType", "activityDescription", "dateOfSuspiciousActivity",
    "amountInvolved", "draftedAt", "createdAt", "entityUserId", "relatedTransactionIds", "relatedAlertIds",
    "filedById",
}  # fmt: skip


def url(ref):
    return f"/api/v1/admin/aml/sars/{ref}"


def patch(client, ref, **body):
    return client.patch(url(ref), body, format="json")


def test_a_draft_is_edited_and_answers_like_create(clients, make_sar, subject, subject_alert):
    sar = make_sar()
    txs = TransactionFactory.create_batch(2, user=subject)
    r = patch(
        clients["filer"],
        sar.sar_id,
        activityDescription="WHO: ...\n\nWHAT: nine deposits",
        suspiciousActivityType="money_laundering",
        dateOfSuspiciousActivity="2026-01-02",
        amountInvolved=1234.5,
        relatedTransactionIds=[str(t.pk) for t in txs],
        relatedAlertIds=[str(subject_alert.pk)],
    )
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["success"] is True and body["message"] == "SAR updated"
    data = body["data"]
    assert CREATED_KEYS <= set(data)
    assert data["status"] == "DRAFT" and data["suspiciousActivityType"] == "money_laundering"
    assert data["amountInvolved"] == 1234.5 and data["dateOfSuspiciousActivity"] == "2026-01-02"
    assert sorted(data["relatedTransactionIds"]) == sorted(str(t.pk) for t in txs)
    assert data["relatedAlertIds"] == [str(subject_alert.pk)]
    subject_alert.refresh_from_db()
    assert subject_alert.status == "ESCALATED"


def test_every_change_of_the_narrative_keeps_the_previous_one(clients, crew, make_sar):
    sar = make_sar()
    first = sar.activity_description
    patch(clients["filer"], sar.pk, activityDescription="second")
    patch(clients["reviewer"], sar.pk, activityDescription="third")
    patch(clients["reviewer"], sar.pk, amountInvolved=1)  # no narrative change, no version
    versions = list(SARNarrativeVersion.objects.filter(sar=sar).order_by("number"))
    assert [(v.number, v.text) for v in versions] == [(1, first), (2, "second"), (3, "third")]
    assert [v.author for v in versions] == [crew["filer"], crew["filer"], crew["reviewer"]]
    entry = AuditLog.objects.filter(action="sar.update", object_id=str(sar.pk)).order_by("created_at").last()
    assert entry.changes["amount_involved"] == {"from": "44100.00", "to": "1.00"}


def test_only_the_given_fields_change(clients, make_sar, subject):
    tx = TransactionFactory(user=subject)
    sar = make_sar()
    sar.related_transactions.add(tx)
    r = patch(clients["filer"], sar.pk, amountInvolved=10)
    data = r.json()["data"]
    assert data["relatedTransactionIds"] == [str(tx.pk)] and data["activityDescription"] == sar.activity_description


@pytest.mark.parametrize(
    "body, field",
    [
        ({"entityUserId": str(uuid.uuid4())}, "entityUserId"),
        ({"status": "SUBMITTED"}, "status"),
        ({"filedById": "me"}, "filedById"),
        ({"sarId": "SAR-1"}, "sarId"),
        ({"suspiciousActivityType": "jaywalking"}, "suspiciousActivityType"),
        ({"amountInvolved": -1}, "amountInvolved"),
        ({"amountInvolved": 1.234}, "amountInvolved"),
        ({"amountInvolved": True}, "amountInvolved"),
        ({"dateOfSuspiciousActivity": "2999-01-01"}, "dateOfSuspiciousActivity"),
        ({"dateOfSuspiciousActivity": "01/02/2026"}, "dateOfSuspiciousActivity"),
        ({"activityDescription": ""}, "activityDescription"),
        ({"relatedAlertIds": [str(uuid.uuid4())]}, "relatedAlertIds"),
        ({"relatedTransactionIds": ["nope"]}, "relatedTransactionIds"),
    ],
)
def test_the_same_validation_as_create_and_no_other_field(clients, make_sar, body, field):
    sar = make_sar()
    r = patch(clients["filer"], sar.pk, **body)
    assert r.status_code == 400, r.content
    details = r.json()["error"]["details"]
    assert r.json()["error"]["code"] == "VALIDATION_ERROR" and any(k.split(".")[0] == field for k in details)
    sar.refresh_from_db()
    assert sar.narrative_versions.count() == 1


def test_another_users_transaction_is_refused(clients, make_sar):
    foreign = TransactionFactory(user=PlatformUserFactory())
    r = patch(clients["filer"], make_sar().pk, relatedTransactionIds=[str(foreign.pk)])
    assert r.status_code == 400 and "relatedTransactionIds" in r.json()["error"]["details"]


def test_an_empty_body_is_400(clients, make_sar):
    assert patch(clients["filer"], make_sar().pk).status_code == 400


@pytest.mark.parametrize("state", [s for s in SARStatus.values if s != SARStatus.DRAFT])
def test_outside_draft_it_is_409_sar_not_editable(clients, subject, crew, state):
    sar = sar_in(state, subject, crew)
    r = patch(clients["admin"], sar.pk, activityDescription="late change")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "SAR_NOT_EDITABLE"
    sar.refresh_from_db()
    assert sar.activity_description != "late change"


def test_unknown_sar_is_404(clients):
    r = patch(clients["filer"], "SAR-0-NOPE", activityDescription="x")
    assert r.status_code == 404 and r.json()["message"] == "SAR not found"


def test_a_returned_sar_is_editable_again(clients, crew, subject):
    sar = sar_in(SARStatus.PENDING_REVIEW, subject, crew)
    assert patch(clients["filer"], sar.pk, amountInvolved=1).status_code == 409
    clients["reviewer"].post(f"{url(sar.pk)}/return", {"reason": "Amount is wrong"}, format="json")
    r = patch(clients["filer"], sar.pk, amountInvolved=1, dateOfSuspiciousActivity=str(dt.date.today()))
    assert r.status_code == 200 and r.json()["data"]["amountInvolved"] == 1
