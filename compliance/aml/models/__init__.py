"""AML rules (their versions, proposed changes and snoozes) and the alerts they raise."""

from compliance.aml.models.alerts import Alert, AlertEvent
from compliance.aml.models.governance import RuleProposal, RuleProposalEvent, RuleSnooze
from compliance.aml.models.held import HeldTransaction
from compliance.aml.models.rules import AMLRule, AMLRuleVersion

__all__ = [
    "AMLRule",
    "AMLRuleVersion",
    "Alert",
    "AlertEvent",
    "HeldTransaction",
    "RuleProposal",
    "RuleProposalEvent",
    "RuleSnooze",
]
