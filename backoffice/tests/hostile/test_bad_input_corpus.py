"""Every API operation meets the shared bad-input corpus: 4xx in the envelope, nothing written, never a 500.

One test, because the data it runs against (``seed_demo``: a row of every kind, so path parameters name
real records and hostile requests reach as deep as they can) costs more than all the requests.
"""

from collections.abc import Callable

import pytest
from django.apps import apps
from django.db import connection
from rest_framework.test import APIClient

from backoffice.tests.hostile.corpus import CASES, CORPUS_BODY_LIMIT, CORPUS_FIELD_LIMIT, Operation, operations

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def counted_models() -> list:
    """Every model of ours (the audit log included: every staff write adds an entry)."""
    return [
        model
        for model in apps.get_models()
        if model._meta.app_label in {"backoffice", "kyc", "vendors", "compliance", "verification"}
        or model._meta.label == "token_blacklist.OutstandingToken"
    ]


def row_counter(models: list) -> Callable[[], dict]:
    """Counts the rows of every model (its default manager's rows, as ``model.objects.count()`` counts them).

    In one statement made once, not a ``count()`` per model: the test counts after each of ~2,000 requests, and
    64 queries compiled and run each time cost more than everything else it does. A manager that reads its
    whole table is counted as ``COUNT(*)`` of the table, which the database answers without reading the rows.
    """
    parts, params = [], []
    for model in models:
        query = model.objects.order_by().values("pk").query
        if not query.where and not query.distinct and len(query.alias_map) <= 1:
            parts.append(f"(SELECT COUNT(*) FROM {connection.ops.quote_name(model._meta.db_table)})")
        else:  # a manager that filters or joins: its own rows
            sql, query_params = query.sql_with_params()
            parts.append(f"(SELECT COUNT(*) FROM ({sql}) AS counted)")
            params.extend(query_params)
    statement = "SELECT " + ", ".join(parts)
    labels = [model._meta.label for model in models]

    def counts() -> dict:
        with connection.cursor() as cursor:
            cursor.execute(statement, params)
            return dict(zip(labels, cursor.fetchone(), strict=True))

    return counts


def sample_values(client: APIClient, op: Operation) -> dict:
    """A real value for each path parameter, read from the collection the operation hangs under.

    A real id lets a hostile request reach as deep as it can; a parameter without a readable
    collection gets an id that matches nothing (the request then stops at 404, still a clean answer).
    """
    values = {}
    for name in op.path_params:
        collection = op.template.split("{" + name + "}")[0]
        data = client.get(collection).json().get("data") if collection.startswith("/api/") else None
        if isinstance(data, dict):
            data = next((v for v in data.values() if isinstance(v, list)), [])
        item = data[0] if isinstance(data, list) and data and isinstance(data[0], dict) else {}
        values[name] = item.get(name) or item.get("id") or "00000000-0000-0000-0000-000000000000"
    return values


def test_every_operation_refuses_the_whole_corpus_cleanly(settings, demo_data, admin_client_api):
    settings.RATELIMIT_ENABLE = False  # hundreds of requests from one client: measure answers, not limits
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = CORPUS_BODY_LIMIT
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = CORPUS_FIELD_LIMIT
    schema = APIClient().get("/api/schema/?format=json").json()
    ops = operations(schema)
    assert len(ops) >= 30, "the OpenAPI document lists every operation"
    failures, sent = [], 0
    row_counts = row_counter(counted_models())
    for op in ops:
        values = sample_values(admin_client_api, op)
        # counted after the reads above; from then on the count after one request is the count before the next
        before = row_counts()
        for case in CASES:
            for request in case.build(op, values):
                path = request.path + (f"?{request.query}" if request.query else "")
                response = admin_client_api.generic(
                    op.method, path, request.body or b"", content_type=request.content_type
                )
                sent += 1
                after = row_counts()
                problem = _problem(response, request, before, after)
                if problem:
                    failures.append(f"{op} [{case.name}] {path[:80]}: {problem}")
                before = after
    assert sent > 300
    assert not failures, "\n".join(failures)


def _problem(response, request, before, after) -> str | None:
    if not response["Content-Type"].startswith("application/json"):
        return f"{response.status_code} {response['Content-Type']} (not the envelope)"
    body = response.json()
    if response.status_code not in request.expect:
        return f"answered {response.status_code} {body.get('error', body)}"
    failed = response.status_code >= 400
    if failed and (body.get("success") is not False or body.get("statusCode") != response.status_code):
        return f"not the error envelope: {body}"
    if after != before:
        return f"wrote rows: {[k for k in after if after[k] != before[k]]}"
    return None
