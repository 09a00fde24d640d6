from compliance.models.alerts import Alert, AlertEvent
from compliance.models.casework import CaseAttachment, CaseComment
from compliance.models.pep import PEP, PEPMatch, PEPMatchEvent, PEPNameKey, ScreeningRun, UserScreening
from compliance.models.rules import AMLRule, AMLRuleVersion
from compliance.models.sar import SAR, SARNarrativeVersion, SARTransition

__all__ = [
    "SAR",
    "SARNarrativeVersion",
    "SARTransition",
    "PEP",
    "SAR",
    "AMLRule",
    "AMLRuleVersion",
    "Alert",
    "AlertEvent",
    "CaseAttachment",
    "CaseComment",
    "PEPMatch",
    "PEPMatchEvent",
    "PEPNameKey",
    "SARTransition",
    "ScreeningRun",
    "UserScreening",
]
