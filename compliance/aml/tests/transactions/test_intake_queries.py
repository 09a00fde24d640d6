"""What one intake costs the database, pinned: every query is a round trip inside the wallet's lock, so a new one
slows every payment (issue 30: throughput over HTTP). On PostgreSQL, with the shipped catalogue active.

One allowed debit over HTTP, its rule set already in memory (in production it is re-validated at most every
AML_RULES_REFRESH_SECONDS, not per call), is:

  the service key; BEGIN; the wallet's lock; whether the externalId has an answer (its row or its refusal, one
  statement); the window rules' hourly activity; the customer's open sanctions matches; the balance; the hourly
  activity row; the ledger row; the audit entry, inserted unlinked (one statement with the transaction's commit
  setting); COMMIT, which links the entry in the chain; then, every lock released, the wait for the commit's
  flush before the answer (docs/audit-chain.md, "Concurrency and cost").

A change that adds one must change the number here, and say why.
"""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from compliance.aml.models.rules import AMLRule
from compliance.aml.services.catalogue import rule_catalogue_load
from compliance.aml.tests.transactions.helpers import INTAKE, body
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]

ONE_INTAKE = 12


@pytest.fixture
def catalogue(settings):
    settings.AML_ALERTS_BACKGROUND = True
    settings.AML_RULES_REFRESH_SECONDS = 3600
    rule_catalogue_load()
    AMLRule.objects.update(is_active=True)


def queries_of(key_client, data) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = key_client.post(INTAKE, data, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["data"]["decision"] == "ALLOW"
    return [query["sql"] for query in captured.captured_queries]


def test_one_allowed_debit_costs_a_fixed_number_of_queries(catalogue, key_client, user):
    queries_of(key_client, body(user, "10.00", type="WITHDRAWAL"))  # the rule set into memory
    queries = queries_of(key_client, body(user, "10.00", type="WITHDRAWAL"))
    assert len(queries) == ONE_INTAKE, "\n".join(q[:120] for q in queries)
    assert not [q for q in queries if "SAVEPOINT" in q]


def test_a_transfer_to_a_customer_reads_the_counterparty_once(catalogue, key_client, user):
    other = PlatformUserFactory()
    queries_of(key_client, body(user, "10.00", type="WITHDRAWAL"))
    data = body(user, "10.00", type="TRANSFER_OUT", counterpartyUserId=str(other.pk))
    queries = queries_of(key_client, data)
    assert len(queries) == ONE_INTAKE + 1, "\n".join(q[:120] for q in queries)


def test_a_retry_costs_no_write(catalogue, key_client, user):
    first = body(user, "10.00", type="WITHDRAWAL", externalId=f"ext-{uuid.uuid4().hex}")
    queries_of(key_client, first)
    with CaptureQueriesContext(connection) as captured:
        response = key_client.post(INTAKE, first, format="json")
    assert response.status_code == 200, response.content
    assert not [q["sql"] for q in captured.captured_queries if q["sql"].startswith(("INSERT", "UPDATE"))]
