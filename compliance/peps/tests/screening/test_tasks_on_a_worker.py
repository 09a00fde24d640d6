"""Compliance's background work on a real broker: a Celery worker on PostgreSQL and Redis (database 3).

A PEP screening run sent to the queue is done chunk by chunk by the worker, one task per chunk; a chunk sent
again changes nothing; beat's AML scan sent twice for one period makes one scan.
"""

import subprocess
import time

import psycopg2
import pytest
import redis

from backoffice.tests.brokers import BROKER_URL
from backoffice.tests.pgtemplate import migrated_database
from backoffice.tests.servers import Script, app_env, manage, wait_until

pytestmark = [pytest.mark.slow]
DATABASE = "ops2_tasks"
PG = "postgres://postgres@127.0.0.1:5432/"

SETUP = """
from compliance.peps.models.pep import PEP
from compliance.peps.tests.helpers import add_pep, make_user
names = [("Lurano", "Vetsikali"), ("Bhekizulu", "Mavimbela"), ("Tholakele", "Ngcamphalala"),
         ("Sindisiwe", "Magagula"), ("Mcolisi", "Hlophekazi")]
for n, (first, last) in enumerate(names):
    add_pep(f"{first} {last}")
for n, (first, last) in enumerate(names):
    make_user(first, last, phone_number=f"+2687620000{n}", email=f"w{n}@ops2.test", referral_code=f"OPS2W{n}")
PEP.objects.update(screened_hash="")
"""


def _postgres_available() -> bool:
    try:
        psycopg2.connect(PG + "postgres", connect_timeout=2).close()
        return True
    except psycopg2.OperationalError:
        return False


def query(sql: str, *params):
    with psycopg2.connect(PG + DATABASE) as connection, connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    if not _postgres_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    directory = tmp_path_factory.mktemp("tasks")
    migrated_database(DATABASE)
    broker = redis.Redis.from_url(BROKER_URL)
    broker.flushdb()
    env = app_env(
        DATABASE_URL=PG + DATABASE,
        REDIS_URL=BROKER_URL,
        CELERY_BROKER_URL=BROKER_URL,
        MEDIA_ROOT=str(directory / "media"),
        PROMETHEUS_MULTIPROC_DIR=str(directory / "metrics"),
        LOG_LEVEL="INFO",
        PEP_SCREENING_CHUNK="2",
    )
    manage(env, "load_aml_rules")
    manage(env, "shell", "-c", SETUP)
    worker = Script(env, directory / "worker.log", "./scripts/worker", "default", "1", "ops2")
    worker.start()
    wait_until(lambda: "ready" in worker.log.read_text(), timeout=90, what="the worker")
    try:
        yield {"env": env, "worker": worker}
    finally:
        worker.stop()
        broker.flushdb()
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE], check=False)


def ended(stack, task: str) -> list[dict]:
    return [e for e in stack["worker"].events() if e.get("task") == task and e.get("message") == "task ended"]


def send(stack, code: str) -> str:
    return manage(stack["env"], "shell", "-c", code).stdout.strip().splitlines()[-1]


def test_a_screening_run_goes_through_the_worker_chunk_by_chunk_and_a_repeat_changes_nothing(stack):
    run_id = int(
        send(
            stack,
            "from compliance.peps.services.screening import screen_pending;"
            "print(screen_pending(background=True).run_id)",
        )
    )
    deadline = time.monotonic() + 120
    while query("SELECT status FROM compliance_screeningrun WHERE id = %s", run_id)[0][0] == "RUNNING":
        assert time.monotonic() < deadline, "the run did not finish"
        time.sleep(0.3)
    figures = "SELECT status, chunks_done, chunks_total, peps_screened, matches, alerts_created"
    run = query(figures + " FROM compliance_screeningrun WHERE id = %s", run_id)[0]
    assert run == ("COMPLETED", 3, 3, 5, 5, 5)
    chunks = ended(stack, "compliance.peps.screen_chunk")
    assert len(chunks) == 3 and all(e["state"] == "SUCCESS" for e in chunks)
    alerts = "SELECT count(*) FROM compliance_alert WHERE alert_type = 'PEP_MATCH'"
    assert query(alerts)[0][0] == 5

    # Redis redelivers a chunk (its worker was thought dead): it is done, so nothing changes
    send(stack, f"from compliance.peps.tasks import screen_chunk; screen_chunk.apply_async(({run_id}, 1)); print(1)")
    wait_until(lambda: len(ended(stack, "compliance.peps.screen_chunk")) == 4, timeout=60, what="the repeat")
    assert query(figures + " FROM compliance_screeningrun WHERE id = %s", run_id)[0] == run
    assert query(alerts)[0][0] == 5
    assert "'SKIPPED'" in stack["worker"].log.read_text()


def test_one_period_of_the_aml_scan_sent_twice_makes_one_scan(stack):
    code = (
        "from compliance.aml.tasks import periodic_scan; from backoffice.ops.periodic import PERIOD_HEADER;"
        "[periodic_scan.apply_async(headers={PERIOD_HEADER: 'aml-scan:ops2'}) for _ in range(2)]; print(2)"
    )
    send(stack, code)
    wait_until(lambda: len(ended(stack, "compliance.aml.periodic_scan")) == 2, timeout=60, what="two sends")
    wait_until(lambda: len(ended(stack, "compliance.aml.scan")) == 2, timeout=120, what="the scan tasks")
    rows = query("SELECT status, rule_ids, rules_done FROM compliance_amlscan WHERE period = 'aml-scan:ops2'")
    assert len(rows) == 1
    status, rule_ids, done = rows[0]
    assert status == "COMPLETED" and len(rule_ids) > 0 and sorted(done) == sorted(rule_ids)
    assert len(done) == len(set(done))  # each rule run and recorded once
