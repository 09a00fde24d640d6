"""Two gunicorns on one PostgreSQL database: the same payment sent to both at the same moment gets one answer.

What the payment platform does when a call times out: it sends the same ``externalId`` again, perhaps to the
other server, while the first is still being decided. Each pair here is a debit of the balance minus one, the
case that answered 201 ALLOW on one server and 409 INSUFFICIENT_FUNDS on the other (issue 30).
"""

import subprocess
import threading
import uuid

import psycopg2
import pytest
import requests

from backoffice.tests.brokers import BROKER_URL
from backoffice.tests.pgtemplate import migrated_database
from backoffice.tests.servers import Gunicorn, app_env, manage

pytestmark = [pytest.mark.slow, pytest.mark.outage, pytest.mark.postgres]
PG = "postgres://postgres@127.0.0.1:5432/"
DATABASE = f"replays_{uuid.uuid4().hex[:8]}"
PAIRS = 30


def _db(*args: str, check: bool = True) -> None:
    subprocess.run([*args[:1], "-h", "127.0.0.1", "-U", "postgres", *args[1:]], check=check, capture_output=True)


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    try:
        psycopg2.connect(PG + "postgres", connect_timeout=2).close()
    except psycopg2.OperationalError:
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    directory = tmp_path_factory.mktemp("replays")
    migrated_database(DATABASE)
    servers = []
    try:
        env = app_env(
            DATABASE_URL=PG + DATABASE,
            REDIS_URL=BROKER_URL,
            MEDIA_ROOT=str(directory / "media"),
            PROMETHEUS_MULTIPROC_DIR=str(directory),
            WEB_CONCURRENCY="1",
            GUNICORN_THREADS="4",
        )
        key = manage(env, "create_service_key", "--name", "wallet").stdout.strip().splitlines()[-1]
        script = (
            "from decimal import Decimal; from kyc.tests.factories import PlatformUserFactory;"
            f"print(' '.join(str(PlatformUserFactory(balance=Decimal('100')).pk) for _ in range({PAIRS})))"
        )
        users = manage(env, "shell", "-c", script).stdout.strip().splitlines()[-1].split()
        for name in ("a", "b"):
            server = Gunicorn(env, directory / f"gunicorn-{name}.log")
            server.start()
            servers.append(server)
        yield servers, key, users
    finally:
        for server in servers:
            server.stop()
        _db("dropdb", "--if-exists", "--force", DATABASE, check=False)


def send_together(bases: list[str], key: str, body: dict) -> list[requests.Response]:
    """The same request to each base at once (each thread its own connection, released by one barrier)."""
    barrier = threading.Barrier(len(bases))
    answers: list = [None] * len(bases)

    def send(index: int) -> None:
        with requests.Session() as session:
            session.headers["X-API-Key"] = key
            barrier.wait()
            answers[index] = session.post(bases[index] + "/api/v1/admin/aml/transactions", json=body, timeout=30)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bases))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_a_payment_sent_to_both_servers_at_once_gets_the_first_answer_from_both(stack):
    servers, key, users = stack
    bases = [server.base for server in servers]
    contradictions = []
    for user in users:
        body = {"externalId": f"pair-{uuid.uuid4().hex}", "userId": user, "type": "WITHDRAWAL", "amount": "99.00"}
        answered = first, second = send_together(bases, key, body)
        assert {first.status_code, second.status_code} <= {200, 201, 409}, (first.text, second.text)
        answers = [(r.json().get("data") or {}).get("transactionId") or r.json()["error"]["code"] for r in answered]
        if answers[0] != answers[1] or sorted([first.status_code, second.status_code]) != [200, 201]:
            contradictions.append((first.status_code, first.text, second.status_code, second.text))
    assert not contradictions, f"{len(contradictions)} of {len(users)} pairs: {contradictions[:3]}"
