"""Alert details are stored snake_case (issue 16): convert the rows written camelCase before.

The conversion is frozen here rather than imported, so that later changes to ``backoffice.jsonkeys`` never
change what this migration did. Keys only, at any depth; values are untouched. Reversible: camelCase back.
"""

import re

from django.db import migrations

_UPPER = re.compile(r"(?<=[a-z0-9])([A-Z])")
_UNDERSCORE = re.compile(r"_([a-z])")


def _convert(value, name):
    if isinstance(value, dict):
        return {(name(k) if isinstance(k, str) else k): _convert(v, name) for k, v in value.items()}
    if isinstance(value, list):
        return [_convert(v, name) for v in value]
    return value


def _snake(key):
    return _UPPER.sub(lambda m: "_" + m.group(1).lower(), key)


def _camel(key):
    return _UNDERSCORE.sub(lambda m: m.group(1).upper(), key)


def _rewrite(apps, name):
    Alert = apps.get_model("compliance", "Alert")
    changed = []
    for alert in Alert.objects.only("pk", "details").iterator(chunk_size=2000):
        details = _convert(alert.details or {}, name)
        if details != alert.details:
            alert.details = details
            changed.append(alert)
        if len(changed) >= 500:
            Alert.objects.bulk_update(changed, ["details"])
            changed = []
    if changed:
        Alert.objects.bulk_update(changed, ["details"])


def to_snake(apps, schema_editor):
    _rewrite(apps, _snake)


def to_camel(apps, schema_editor):
    _rewrite(apps, _camel)


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0017_aml_scans"),
    ]

    operations = [migrations.RunPython(to_snake, to_camel)]
