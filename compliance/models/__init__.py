from compliance.models.alerts import Alert, AlertEvent
from compliance.models.rules import AMLRule, AMLRuleVersion
from compliance.models.sar import SAR, SARTransition

__all__ = ["SAR", "SARTransition", "AMLRule", "AMLRuleVersion", "Alert", "AlertEvent"]
