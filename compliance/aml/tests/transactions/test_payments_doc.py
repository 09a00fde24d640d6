"""Every example of docs/payments.md runs, as written, against a real server (pytest-django's live server).

The page's ```sh blocks (curl) run in bash and its ```python blocks in Python, in the page's order, with the
variables the page names: VIKELA_URL, VIKELA_KEY (a service key) and USER_ID (a customer with no balance yet).
"""

import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from backoffice.services.service_keys import service_key_create
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db(transaction=True)
PAGE = Path(__file__).resolve().parents[4] / "docs" / "payments.md"
BLOCK = re.compile(r"^```(sh|python)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def examples() -> list[tuple[str, str]]:
    return BLOCK.findall(PAGE.read_text())


def test_the_page_has_curl_and_python_examples():
    kinds = [kind for kind, _ in examples()]
    assert kinds.count("sh") >= 2 and kinds.count("python") >= 2


def test_every_example_runs_against_a_server_as_written(live_server):
    key = service_key_create(name="wallet").key
    user = PlatformUserFactory(balance=0)
    env = {**os.environ, "VIKELA_URL": live_server.url, "VIKELA_KEY": key, "USER_ID": str(user.pk)}
    outputs = []
    for kind, code in examples():
        command = ["bash", "-euo", "pipefail", "-c", code] if kind == "sh" else [sys.executable, "-c", code]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (kind, code[:200], done.stdout[-1000:], done.stderr[-2000:])
        outputs.append((kind, done.stdout))
    curl = [json.loads(out) for kind, out in outputs if kind == "sh"]
    assert curl[0]["data"]["decision"] == "ALLOW" and curl[0]["data"]["balance"] == 250.0
    assert curl[1]["data"]["decision"] == "ALLOW" and "transactionId" not in curl[1]["data"]  # the dry run
    retries, webhook = [out.split("\n") for kind, out in outputs if kind == "python"]
    assert retries[:2] == ["201 ALLOW 200", "409 INSUFFICIENT_FUNDS"]
    assert webhook[0] == "transaction.released card-1 COMPLETED"
    user.refresh_from_db()
    assert user.balance == Decimal("230.01")  # the top-up and the card payment; the retry and the refusal moved nothing
