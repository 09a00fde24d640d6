"""Rule version snapshots and PEP match explanations are stored snake_case (issue 16): convert the rows
written camelCase before.

A snapshot's own keys are the rule's field names ("ruleId" -> "rule_id", "isActive" -> "is_active"); its
``conditions`` and ``actions`` are the rule's documents in the interface's vocabulary and stay as written.
An explanation's keys all become snake_case ("matcherVersion" -> "matcher_version"). Frozen converters, not
``backoffice.jsonkeys``, so later changes there never change what this did. Reversible: camelCase back.
"""

import re

from django.db import migrations

_UPPER = re.compile(r"(?<=[a-z0-9])([A-Z])")
_UNDERSCORE = re.compile(r"_([a-z])")


def _snake(key):
    return _UPPER.sub(lambda m: "_" + m.group(1).lower(), key)


def _camel(key):
    return _UNDERSCORE.sub(lambda m: m.group(1).upper(), key)


def _deep(value, name):
    if isinstance(value, dict):
        return {(name(k) if isinstance(k, str) else k): _deep(v, name) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v, name) for v in value]
    return value


def _top(value, name):
    if not isinstance(value, dict):
        return value
    return {(name(k) if isinstance(k, str) else k): v for k, v in value.items()}


def _rewrite(model, field, convert):
    changed = []
    for row in model.objects.only("pk", field).iterator(chunk_size=2000):
        new = convert(getattr(row, field))
        if new != getattr(row, field):
            setattr(row, field, new)
            changed.append(row)
        if len(changed) >= 500:
            model.objects.bulk_update(changed, [field])
            changed = []
    if changed:
        model.objects.bulk_update(changed, [field])


def to_snake(apps, schema_editor):
    _rewrite(apps.get_model("compliance", "AMLRuleVersion"), "snapshot", lambda v: _top(v, _snake))
    _rewrite(apps.get_model("compliance", "PEPMatch"), "explanation", lambda v: _deep(v, _snake))


def to_camel(apps, schema_editor):
    _rewrite(apps.get_model("compliance", "AMLRuleVersion"), "snapshot", lambda v: _top(v, _camel))
    _rewrite(apps.get_model("compliance", "PEPMatch"), "explanation", lambda v: _deep(v, _camel))


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0019_threshold_report_and_batch_history"),
    ]

    operations = [migrations.RunPython(to_snake, to_camel)]
