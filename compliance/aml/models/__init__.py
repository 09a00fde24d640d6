"""AML rules (their versions, proposed changes and snoozes), the alerts they raise and the batch scans."""

from compliance.aml.models.alerts import Alert, AlertEvent
from compliance.aml.models.governance import RuleProposal, RuleProposalEvent, RuleSnooze
from compliance.aml.models.held import HeldTransaction
from compliance.aml.models.rules import AMLRule, AMLRuleVersion
from compliance.aml.models.scans import AMLScan

__all__ = [
    "AMLRule",
    "AMLRuleVersion",
    "AMLScan",
    "Alert",
    "AlertEvent",
    "HeldTransaction",
    "RuleProposal",
    "RuleProposalEvent",
    "RuleSnooze",
]
