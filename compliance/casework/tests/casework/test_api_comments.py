"""GET|POST /admin/aml/alerts/:id/comments and /admin/aml/sars/:sarId/comments: an append-only thread."""

import uuid

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.casework.models.casework import CaseComment
from compliance.sars.tests.sar.helpers import client_for

COMMENT_KEYS = {"id", "author", "text", "forReport", "createdAt"}


@pytest.fixture
def cases(make_sar, subject_alert):
    """The two kinds of case, each as the path prefix that reaches it (a SAR by its sarId)."""
    sar = make_sar()
    return {
        "alert": f"/api/v1/admin/aml/alerts/{subject_alert.pk}",
        "sar": f"/api/v1/admin/aml/sars/{sar.sar_id}",
    }


@pytest.mark.parametrize("kind", ["alert", "sar"])
def test_a_comment_is_created_and_listed_oldest_first(clients, crew, cases, kind):
    url = f"{cases[kind]}/comments"
    r = clients["filer"].post(url, {"text": "First look: pattern matches structuring."}, format="json")
    assert r.status_code == 201, r.content
    created = r.json()["data"]
    assert set(created) == COMMENT_KEYS and created["forReport"] is False
    assert created["author"] == {
        "id": str(crew["filer"].pk),
        "firstName": crew["filer"].first_name,
        "lastName": crew["filer"].last_name,
    }
    assert created["createdAt"].endswith("Z")
    clients["reviewer"].post(url, {"text": "For the FIU: customer admitted it.", "forReport": True}, format="json")

    r = clients["approver"].get(url)
    assert r.status_code == 200
    thread = r.json()["data"]
    assert [c["text"] for c in thread] == [
        "First look: pattern matches structuring.",
        "For the FIU: customer admitted it.",
    ]
    assert [c["forReport"] for c in thread] == [False, True]
    assert thread[0]["id"] == created["id"]
    entry = AuditLog.objects.get(action="case.comment", changes__comment_id=created["id"])
    assert entry.object_type == kind


@pytest.mark.parametrize("kind", ["alert", "sar"])
@pytest.mark.parametrize(
    "body", [{}, {"text": ""}, {"text": "   "}, {"text": "x" * 4001}, {"text": "ok", "forReport": "perhaps"}]
)
def test_a_comment_without_text_or_with_a_bad_flag_is_400(clients, cases, kind, body):
    r = clients["filer"].post(f"{cases[kind]}/comments", body, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"
    assert not CaseComment.objects.exists()


@pytest.mark.parametrize("kind", ["alert", "sar"])
@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_get_403(cases, kind, role):
    client = client_for(StaffFactory(role=role))
    for r in (client.get(f"{cases[kind]}/comments"), client.post(f"{cases[kind]}/comments", {"text": "hi"})):
        assert r.status_code == 403 and r.json()["error"]["code"] == "FORBIDDEN"


@pytest.mark.parametrize("role", [StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN])
def test_every_compliance_role_comments(cases, role):
    client = client_for(StaffFactory(role=role))
    for url in cases.values():
        assert client.post(f"{url}/comments", {"text": "seen"}, format="json").status_code == 201


def test_an_unknown_case_is_404(clients):
    assert clients["filer"].get(f"/api/v1/admin/aml/alerts/{uuid.uuid4()}/comments").status_code == 404
    assert clients["filer"].post("/api/v1/admin/aml/sars/SAR-0-NONE/comments", {"text": "x"}).status_code == 404


def test_a_thread_has_no_way_to_change_or_remove_a_comment(clients, cases):
    url = f"{cases['sar']}/comments"
    clients["filer"].post(url, {"text": "kept"}, format="json")
    assert clients["filer"].delete(url).status_code == 405
    assert clients["filer"].put(url, {"text": "changed"}, format="json").status_code == 405
    comment = CaseComment.objects.get()
    comment.text = "changed"
    with pytest.raises(ValueError, match="append-only"):
        comment.save()
    with pytest.raises(ValueError, match="append-only"):
        comment.delete()
    assert CaseComment.objects.get().text == "kept"
