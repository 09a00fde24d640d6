"""GET /metrics: Prometheus text for an admin's JWT or the METRICS_TOKEN, 401 in the envelope otherwise."""

import pytest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.parser import text_string_to_metric_families

from backoffice.choices import StaffRole
from backoffice.ops import metrics

pytestmark = pytest.mark.django_db
TOKEN = "m" * 40


def families(body: bytes) -> dict:
    return {family.name: family for family in text_string_to_metric_families(body.decode())}


def test_an_admins_token_reads_the_metrics(admin_client_api):
    admin_client_api.get("/api/v1/admin/me")
    r = admin_client_api.get("/metrics")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/plain")
    found = families(r.content)
    samples = found["vikela_http_request_duration_seconds"].samples
    assert any(s.labels.get("route") == "/api/v1/admin/me" and s.labels.get("status") == "200" for s in samples)


def test_the_metrics_token_reads_them_too(api, settings):
    settings.METRICS_TOKEN = TOKEN
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert api.get("/metrics").status_code == 200


@pytest.mark.parametrize(
    "header",
    [None, "Bearer " + "x" * 40, "Basic " + TOKEN, "Bearer", "Bearer " + TOKEN[:-1], "Token " + TOKEN],
)
def test_anything_else_is_401_in_the_envelope(api, settings, header):
    settings.METRICS_TOKEN = TOKEN
    if header:
        api.credentials(HTTP_AUTHORIZATION=header)
    r = api.get("/metrics")
    body = r.json()
    assert r.status_code == 401 and r["WWW-Authenticate"].startswith("Bearer")
    assert body["success"] is False and body["statusCode"] == 401 and body["error"]["code"] == "UNAUTHORIZED"


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.FINANCE])
def test_staff_who_are_not_admins_are_401(staff_client, role):
    client, _ = staff_client(role)
    assert client.get("/metrics").status_code == 401


def test_without_a_metrics_token_setting_no_token_opens_them(api, settings):
    settings.METRICS_TOKEN = None
    api.credentials(HTTP_AUTHORIZATION="Bearer ")
    assert api.get("/metrics").status_code == 401


def test_other_methods_are_405(admin_client_api):
    r = admin_client_api.post("/metrics")
    assert r.status_code == 405 and r.json()["error"]["code"] == "METHOD_NOT_ALLOWED"


def test_a_registered_collector_is_computed_at_scrape_time_and_a_failing_one_is_left_out(admin_client_api):
    calls = []

    def fine():
        calls.append(1)
        family = GaugeMetricFamily("vikela_test_things", "Things counted at scrape time", labels=["kind"])
        family.add_metric(["a"], len(calls))
        yield family

    def broken():
        raise RuntimeError("database down")

    metrics.register_collector("test-fine", fine)
    metrics.register_collector("test-broken", broken)
    try:
        first = families(admin_client_api.get("/metrics").content)
        second = families(admin_client_api.get("/metrics").content)
    finally:
        metrics._collectors.pop("test-fine")
        metrics._collectors.pop("test-broken")
    assert first["vikela_test_things"].samples[0].value == 1
    assert second["vikela_test_things"].samples[0].value == 2


def test_the_queue_depth_collector_is_registered_by_the_foundation():
    assert "queue_depth" in metrics.collector_names()
