"""PEP screening's metrics (served at /metrics by ``backoffice.ops.metrics``)."""

from prometheus_client import Histogram

SCREENING_DURATION = Histogram(
    "vikela_pep_screening_duration_seconds",
    "Time one PEP screening run took from its start to its end, by trigger and outcome (completed, failed)",
    ["trigger", "outcome"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600),
)
