"""Metrics and tracing (docs/operations.md). Logs are set up in ``base`` (``LOG_FORMAT``, ``LOG_LEVEL``)."""

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_str

# A token that opens GET /metrics besides an admin's JWT (Prometheus sends it as a bearer token); unset: only
# admins. Long and random: /metrics is outside /api/ and its rate limits.
METRICS_TOKEN = env_str("METRICS_TOKEN")
if METRICS_TOKEN is not None and len(METRICS_TOKEN) < 32:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 32 characters (a random token)")

# OpenTelemetry tracing (backoffice.ops.tracing): unset, no tracing and nothing of OpenTelemetry is imported. Set to
# a collector's OTLP/HTTP base URL (http://collector:4318): a span per request and per task go there, joined to
# the client's W3C traceparent. The exporter reads the standard OTEL_* variables (headers, timeouts) itself.
OTEL_EXPORTER_OTLP_ENDPOINT = env_str("OTEL_EXPORTER_OTLP_ENDPOINT")
if OTEL_EXPORTER_OTLP_ENDPOINT and not OTEL_EXPORTER_OTLP_ENDPOINT.startswith(("http://", "https://")):
    raise ImproperlyConfigured("OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL")
OTEL_SERVICE_NAME = env_str("OTEL_SERVICE_NAME", "vikela")
