"""A frozen S3 (it accepts connections and never answers) must not hold request threads: every S3 call gives
up after its bounded timeouts and retries (AWS_S3_CONNECT_TIMEOUT, AWS_S3_READ_TIMEOUT, AWS_S3_MAX_ATTEMPTS)
and the request answers 503 in the envelope. The load run's finding: uploads waited on a SIGSTOPped S3 and
held gunicorn's threads, so every other request waited too.
"""

import io
import subprocess
import sys

import pytest
from django.conf import settings

from backoffice.files import file_token
from backoffice.tests.deadlines import answered_within
from backoffice.tests.servers import ROOT
from backoffice.tests.uploads.corpus import handmade_pdf
from backoffice.uploads import VENDOR_KYC, StorageUnavailable, upload_store

pytestmark = [pytest.mark.outage, pytest.mark.django_db(transaction=True)]

# The S3 client's worst case with the settings in force, and room for a busy machine: a hang guard, not a timing.
LIMIT = 3 * settings.AWS_S3_MAX_ATTEMPTS * max(settings.AWS_S3_CONNECT_TIMEOUT, settings.AWS_S3_READ_TIMEOUT) + 10


def unavailable(response) -> dict:
    body = response.json()
    assert response.status_code == 503, body
    assert body["success"] is False and body["statusCode"] == 503
    assert body["error"]["code"] == "SERVICE_UNAVAILABLE" and response["Retry-After"] == "5"
    return body


def test_storing_a_file_on_a_frozen_s3_raises_storage_unavailable(frozen_s3):
    def store():
        try:
            upload_store(
                file=io.BytesIO(handmade_pdf()),
                name="frozen/statement.pdf",
                policy=VENDOR_KYC,
                original_filename="statement.pdf",
            )
        except StorageUnavailable as error:
            return error

    error = answered_within(LIMIT, store)
    assert isinstance(error, StorageUnavailable) and error.status == 503


def test_a_download_link_on_a_frozen_s3_answers_503_in_the_envelope(frozen_s3, api):
    response = answered_within(LIMIT, lambda: api.get(f"/api/v1/files/{file_token('vendors/x/kyc/a.pdf')}"))
    unavailable(response)


def test_readiness_says_storage_error_on_a_frozen_s3(frozen_s3, api):
    response = answered_within(LIMIT, lambda: api.get("/api/v1/health/ready"))
    assert response.status_code == 503 and response.json()["data"]["storage"] == "error"


def _client_config(**environ) -> str:
    code = (
        "import django; django.setup(); from django.conf import settings as s; c = s.AWS_S3_CLIENT_CONFIG; "
        "print(c.connect_timeout, c.read_timeout, c.retries)"
    )
    env = {"PATH": "/usr/bin:/bin", "ENVIRONMENT": "test", "SECRET_KEY": "x" * 60}
    env.update(DJANGO_SETTINGS_MODULE="backoffice.settings", **environ)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_the_s3_timeouts_and_attempts_come_from_the_environment_strictly():
    result = _client_config(AWS_S3_CONNECT_TIMEOUT="1", AWS_S3_READ_TIMEOUT="3", AWS_S3_MAX_ATTEMPTS="4")
    assert result.stdout.split(None, 2) == ["1", "3", "{'max_attempts': 4, 'mode': 'standard'}\n"], result.stderr
    for name, raw in [("AWS_S3_READ_TIMEOUT", "5s"), ("AWS_S3_MAX_ATTEMPTS", "0"), ("AWS_S3_CONNECT_TIMEOUT", "0")]:
        refused = _client_config(**{name: raw})
        assert refused.returncode != 0 and name in refused.stderr
