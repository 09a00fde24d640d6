"""A job's stored OCR result keys its field confidences snake_case (issue 16): convert the rows written with
the API's names before ("dateOfBirth" -> "date_of_birth"). Frozen converters; reversible."""

import re

from django.db import migrations

_UPPER = re.compile(r"(?<=[a-z0-9])([A-Z])")
_UNDERSCORE = re.compile(r"_([a-z])")


def _snake(key):
    return _UPPER.sub(lambda m: "_" + m.group(1).lower(), key)


def _camel(key):
    return _UNDERSCORE.sub(lambda m: m.group(1).upper(), key)


def _rewrite(apps, name):
    Job = apps.get_model("verification", "VerificationJob")
    changed = []
    for job in Job.objects.exclude(ocr_result=None).only("pk", "ocr_result").iterator(chunk_size=2000):
        result = job.ocr_result
        if not isinstance(result, dict) or not isinstance(result.get("field_confidence"), dict):
            continue
        confidence = {name(k): v for k, v in result["field_confidence"].items()}
        if confidence != result["field_confidence"]:
            job.ocr_result = {**result, "field_confidence": confidence}
            changed.append(job)
        if len(changed) >= 500:
            Job.objects.bulk_update(changed, ["ocr_result"])
            changed = []
    if changed:
        Job.objects.bulk_update(changed, ["ocr_result"])


def to_snake(apps, schema_editor):
    _rewrite(apps, _snake)


def to_camel(apps, schema_editor):
    _rewrite(apps, _camel)


class Migration(migrations.Migration):
    dependencies = [
        ("verification", "0005_job_id_number_key"),
    ]

    operations = [migrations.RunPython(to_snake, to_camel)]
