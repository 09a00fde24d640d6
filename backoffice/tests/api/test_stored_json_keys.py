"""No camelCase key is stored in any JSON column of any model after the demo seed (issue 16): what Vikela
stores speaks snake_case; the API maps to the interface's camelCase in its serializers."""

import re

import pytest
from django.apps import apps
from django.db import models

from backoffice.jsonkeys import camel_key_paths

# Where a camelCase key is not ours to rename, by (model, field): a pattern of the key paths it may hold.
RULE_DOCUMENT = r"(^|.*\.)(conditions|actions)\."
NOT_OURS = {
    # an AML rule's conditions and actions are documents the interface defines and clients write
    # ("thresholdAmount", "createAlert"), read by the engine under those names; copies of a rule's text (its
    # versions, a proposed change, the audit entries of a change) carry them as they are
    ("compliance.AMLRule", "conditions"): r".",
    ("compliance.AMLRule", "actions"): r".",
    ("compliance.AMLRuleVersion", "snapshot"): RULE_DOCUMENT,
    ("compliance.RuleProposal", "changes"): RULE_DOCUMENT,
    ("backoffice.AuditLog", "changes"): RULE_DOCUMENT,
    # keyed by the image's role, a stored choice value ("idFront", as in the documents' role column)
    ("verification.VerificationJob", "quality"): r"(idFront|idBack|selfie)(\.|$)",
}


def json_fields():
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, models.JSONField):
                yield model, field


def stored_camel_keys() -> dict[str, set[str]]:
    """``{"app.Model.field": {key paths}}`` of every camelCase key in the database, less those ``NOT_OURS``."""
    found: dict[str, set[str]] = {}
    for model, field in json_fields():
        label = model._meta.label
        allowed = NOT_OURS.get((label, field.name))
        for value in model._default_manager.values_list(field.name, flat=True).iterator():
            paths = {p for p in camel_key_paths(value) if not (allowed and re.match(allowed, p))}
            if paths:
                found.setdefault(f"{label}.{field.name}", set()).update(paths)
    return found


def test_the_exceptions_name_real_json_columns():
    assert set(NOT_OURS) <= {(model._meta.label, field.name) for model, field in json_fields()}


def test_key_paths_name_where_a_camel_case_key_is():
    value = {"ok": 1, "explanation": {"matcherVersion": 4, "parts": [{"queryPart": "x"}]}, "a_b": [{"cD": 1}]}
    assert camel_key_paths(value) == {"explanation.matcherVersion", "explanation.parts[].queryPart", "a_b[].cD"}
    assert re.match(RULE_DOCUMENT, "fields.conditions.from.ruleType")
    assert re.match(RULE_DOCUMENT, "snapshot.actions.createAlert")
    assert not re.match(RULE_DOCUMENT, "snapshot.ruleId")


@pytest.mark.django_db
@pytest.mark.slow
def test_no_camel_case_key_is_stored_after_the_demo_seed(demo_data):
    filled = {
        f"{m._meta.label}.{f.name}" for m, f in json_fields() if m._default_manager.exclude(**{f.name: None}).exists()
    }
    # the seed reaches the JSON that matters: alert details, match explanations, rule versions, OCR results
    assert {
        "compliance.Alert.details",
        "compliance.PEPMatch.explanation",
        "compliance.AMLRuleVersion.snapshot",
        "kyc.Transaction.hits",
        "verification.VerificationJob.ocr_result",
    } <= filled, filled
    found = stored_camel_keys()
    assert found == {}, "\n".join(f"{where}: {sorted(paths)}" for where, paths in sorted(found.items()))
