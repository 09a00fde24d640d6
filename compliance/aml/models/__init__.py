"""AML rules (their versions), the alerts they raise and the batch scans that run them."""

from compliance.aml.models.alerts import Alert, AlertEvent
from compliance.aml.models.rules import AMLRule, AMLRuleVersion
from compliance.aml.models.scans import AMLScan

__all__ = ["AMLRule", "AMLRuleVersion", "AMLScan", "Alert", "AlertEvent"]
