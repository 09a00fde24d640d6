"""Rule conditions and actions are stored JSON: nested past the shared depth limit, they are refused everywhere."""

import json

import pytest
from django.test import Client

from backoffice.jsondepth import MAX_STORED_JSON_DEPTH
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.rules import AMLRule
from compliance.aml.tests.rules.helpers import rule_body

URL = "/api/v1/admin/aml/rules"


def nested(depth: int):
    value: object = {"createAlert": True}
    for _ in range(depth - 1):
        value = {"next": value}
    return value


def post_json(client, body: dict):
    return client.generic("POST", URL, json.dumps(body).encode(), content_type="application/json")


def test_actions_900_levels_deep_are_refused_before_anything_is_decoded(mlro):
    client, _ = mlro
    response = post_json(client, rule_body(actions=nested(900)))
    assert response.status_code == 400 and "levels deep" in response.json()["message"]
    assert not AMLRule.objects.exists()


@pytest.mark.parametrize("field", ["actions", "conditions"])
def test_stored_json_past_the_limit_is_400_naming_the_field(mlro, field):
    client, _ = mlro
    body = rule_body()
    body[field] = {**body[field], "extra": nested(MAX_STORED_JSON_DEPTH + 1)}
    response = post_json(client, body)
    assert response.status_code == 400
    assert field in response.json()["error"]["details"]
    assert not AMLRule.objects.exists()


def test_the_admin_form_takes_no_json_a_deep_paste_is_ignored(db):
    staff = StaffFactory(role="mlro")
    browser = Client()
    browser.force_login(staff)
    form = {
        "rule_id": "DEEP-1",
        "name": "Deep",
        "severity": "MEDIUM",
        "priority": "10",
        "param_thresholdAmount": "5000",
        # conditions are one input per parameter and actions are choices (issue 31): no input reads JSON, so a
        # deep document posted under the old name reaches nothing
        "on_hit": "ALERT",
        "create_alert": "on",
        "actions": "[" * 5000 + "]" * 5000,
    }
    response = browser.post("/admin/compliance/amlrule/add/?rule_type=threshold", form)
    assert response.status_code == 302
    assert AMLRule.objects.get(rule_id="DEEP-1").actions == {}
