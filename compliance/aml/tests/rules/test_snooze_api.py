"""Snoozes through the API: MLROs snooze and end, officers read, a bad body is a 400."""

import datetime as dt

from django.utils import timezone

from backoffice.models import AuditLog
from compliance.aml.models.governance import RuleSnooze
from kyc.tests.factories import PlatformUserFactory

URL = "/api/v1/admin/aml/rules"


def test_snooze_list_and_end(mlro, officer, make_rule):
    client, staff = mlro
    rule = make_rule()
    user = PlatformUserFactory()
    expires = (timezone.now() + dt.timedelta(days=5)).isoformat()
    body = {"userId": str(user.pk), "expiresAt": expires, "reason": "Known payroll pattern"}
    r = client.post(f"{URL}/{rule['ruleId']}/snoozes", body, format="json")
    assert r.status_code == 201, r.json()
    snooze = r.json()["data"]
    assert snooze["inForce"] is True and snooze["userId"] == str(user.pk)
    assert snooze["createdBy"]["id"] == str(staff.pk)
    listed = officer[0].get(f"{URL}/{rule['ruleId']}/snoozes").json()["data"]
    assert [s["id"] for s in listed] == [snooze["id"]]
    assert officer[0].post(f"{URL}/{rule['ruleId']}/snoozes", body, format="json").status_code == 403
    r = client.post(f"{URL}/{rule['ruleId']}/snoozes/{snooze['id']}/end", {}, format="json")
    assert r.status_code == 200 and r.json()["data"]["inForce"] is False
    assert client.post(f"{URL}/{rule['ruleId']}/snoozes/{snooze['id']}/end", {}, format="json").status_code == 409
    assert AuditLog.objects.filter(action__in=["aml_rule.snooze", "aml_rule.snooze_end"]).count() == 2


def test_bad_snoozes_are_refused(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    user = PlatformUserFactory()
    past = (timezone.now() - dt.timedelta(days=1)).isoformat()
    r = client.post(
        f"{URL}/{rule['ruleId']}/snoozes",
        {"userId": str(user.pk), "expiresAt": past, "reason": "x"},
        format="json",
    )
    assert r.status_code == 400 and "expiresAt" in r.json()["error"]["details"]
    r = client.post(f"{URL}/{rule['ruleId']}/snoozes", {"userId": "nope", "reason": ""}, format="json")
    assert r.status_code == 400 and {"userId", "expiresAt", "reason"} <= set(r.json()["error"]["details"])
    missing = {"userId": "00000000-0000-0000-0000-000000000000", "expiresAt": past, "reason": "x"}
    assert client.post(f"{URL}/{rule['ruleId']}/snoozes", missing, format="json").status_code in (400, 404)
    assert not RuleSnooze.objects.exists()
    assert client.post(f"{URL}/{rule['ruleId']}/snoozes/999/end", {}, format="json").status_code == 404
