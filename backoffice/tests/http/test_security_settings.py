"""SECURE_HTTPS is the one switch for TLS; the admin session has an idle timeout; plain HTTP works without it."""

import json
import subprocess
import sys

import pytest

from backoffice.tests.factories import StaffFactory
from backoffice.tests.servers import ROOT, app_env

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
SETTINGS = [
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
]


def settings_with(**env) -> dict:
    code = (
        "import django, json; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {SETTINGS!r}}}))"
    )
    environment = {**app_env(**env), "DJANGO_SETTINGS_MODULE": "backoffice.settings"}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_one_setting_turns_on_secure_cookies_hsts_and_the_redirect():
    on = settings_with(SECURE_HTTPS="true")
    assert on["SECURE_SSL_REDIRECT"] and on["SESSION_COOKIE_SECURE"] and on["CSRF_COOKIE_SECURE"]
    assert on["SECURE_HSTS_SECONDS"] >= 31536000 and on["SECURE_HSTS_INCLUDE_SUBDOMAINS"]
    off = settings_with()
    assert not any(off.values())


def test_check_deploy_is_clean_with_that_one_setting():
    # GOAML_RENTITY_ID is a deployment's own id at the FIU, not a TLS setting: check --deploy warns
    # without it (compliance.W001), so the deployment this test describes has one
    environment = app_env(SECURE_HTTPS="true", GOAML_RENTITY_ID="1")
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_plain_http_on_localhost_works_without_it(client):
    assert client.get("/admin/login/").status_code == 200


def test_the_admin_session_ends_after_the_idle_timeout_and_each_request_moves_it_on(client, settings):
    assert settings.SESSION_COOKIE_AGE == settings.ADMIN_SESSION_IDLE_MINUTES * 60
    client.force_login(StaffFactory(role="support"))
    response = client.get("/admin/")
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == settings.ADMIN_SESSION_IDLE_MINUTES * 60  # renewed on this request


def test_the_session_is_renewed_at_most_once_a_minute(client, settings):
    client.force_login(StaffFactory(role="support"))
    assert settings.SESSION_COOKIE_NAME in client.get("/admin/").cookies  # renewed: the deadline moved on
    assert settings.SESSION_COOKIE_NAME not in client.get("/admin/").cookies  # within the minute: no write
