from compliance.models.alerts import Alert, AlertEvent
from compliance.models.pep import PEP, PEPMatch, PEPMatchEvent, PEPNameKey, ScreeningRun, UserScreening
from compliance.models.rules import AMLRule, AMLRuleVersion
from compliance.models.sar import SAR, SARTransition

__all__ = [
    "PEP",
    "SAR",
    "AMLRule",
    "AMLRuleVersion",
    "Alert",
    "AlertEvent",
    "PEPMatch",
    "PEPMatchEvent",
    "PEPNameKey",
    "SARTransition",
    "ScreeningRun",
    "UserScreening",
]
