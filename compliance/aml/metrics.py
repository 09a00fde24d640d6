"""AML's metrics (served at /metrics by ``backoffice.ops.metrics``): alerts by status and severity."""

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily

from compliance.aml.choices import AlertStatus
from compliance.aml.models.alerts import Alert
from compliance.casework.choices import Severity


def alerts_by_status():
    """Scrape time: alerts in each status and severity (one GROUP BY on the alert queue's index)."""
    counts = {(status, severity): 0 for status in AlertStatus.values for severity in Severity.values}
    for row in Alert.objects.order_by().values("status", "severity").annotate(n=Count("id")):
        counts[(row["status"], row["severity"])] = row["n"]
    family = GaugeMetricFamily(
        "vikela_aml_alerts", "AML alerts in each status and severity", labels=["status", "severity"]
    )
    for (status, severity), count in sorted(counts.items()):
        family.add_metric([status, severity], count)
    yield family
