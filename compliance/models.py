"""Where Django finds the ``compliance`` app label's models (content types, permissions, migrations).

Each sub-domain defines its own (``compliance/<domain>/models/``); nothing else imports this module.
"""

from compliance.aml.models import (
    Alert,
    AlertEvent,
    AMLRule,
    AMLRuleVersion,
    AMLScan,
    HeldTransaction,
    RuleProposal,
    RuleProposalEvent,
    RuleSnooze,
)
from compliance.casework.models import CaseAttachment, CaseComment
from compliance.peps.models import PEP, PEPMatch, PEPMatchEvent, PEPNameKey, ScreeningRun, UserScreening
from compliance.reporting.models import (
    ThresholdReport,
    ThresholdReportBatch,
    ThresholdReportBatchEvent,
    ThresholdReportEvent,
    ThresholdReportFiling,
)
from compliance.sars.models import SAR, SARDraftEdit, SARFiledExport, SARNarrativeVersion, SARTransition

__all__ = [
    "PEP",
    "SAR",
    "AMLRule",
    "HeldTransaction",
    "AMLRuleVersion",
    "AMLScan",
    "Alert",
    "AlertEvent",
    "CaseAttachment",
    "CaseComment",
    "PEPMatch",
    "PEPMatchEvent",
    "PEPNameKey",
    "RuleProposal",
    "RuleProposalEvent",
    "RuleSnooze",
    "SARDraftEdit",
    "SARFiledExport",
    "SARNarrativeVersion",
    "SARTransition",
    "ScreeningRun",
    "ThresholdReport",
    "ThresholdReportBatch",
    "ThresholdReportBatchEvent",
    "ThresholdReportEvent",
    "ThresholdReportFiling",
    "UserScreening",
]
