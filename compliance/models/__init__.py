from compliance.models.alerts import Alert, AlertEvent
from compliance.models.casework import CaseAttachment, CaseComment
from compliance.models.rules import AMLRule, AMLRuleVersion
from compliance.models.sar import SAR, SARNarrativeVersion, SARTransition

__all__ = [
    "SAR",
    "SARNarrativeVersion",
    "SARTransition",
    "AMLRule",
    "AMLRuleVersion",
    "Alert",
    "AlertEvent",
    "CaseAttachment",
    "CaseComment",
]
