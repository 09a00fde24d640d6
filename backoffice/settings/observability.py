"""Metrics and tracing (docs/operations.md). Logs are set up in ``base`` (``LOG_FORMAT``, ``LOG_LEVEL``)."""

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_str

# A token that opens GET /metrics besides an admin's JWT (Prometheus sends it as a bearer token); unset: only
# admins. Long and random: /metrics is outside /api/ and its rate limits.
METRICS_TOKEN = env_str("METRICS_TOKEN")
if METRICS_TOKEN is not None and len(METRICS_TOKEN) < 32:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 32 characters (a random token)")
