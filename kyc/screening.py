"""What a screening of a ledger row answers, in kyc's words (the rules themselves live in compliance).

``kyc.hooks.transaction_screen`` returns a ``Screening``; ``kyc.services.ledger`` turns its decision
into the row's status before any money moves.
"""

from dataclasses import dataclass, field

from kyc.choices import DECISION_STRENGTH, Decision, HitAction

ACTION_DECISION = {HitAction.ALERT: Decision.ALLOW, HitAction.HOLD: Decision.REVIEW, HitAction.BLOCK: Decision.BLOCK}


@dataclass(frozen=True)
class ScreeningHit:
    """One active rule that hit the row: which rule and version, how severe, what it asks for.

    A screening that is not a rule (sanctions: ``rule_id`` "SANCTIONS", no version) says what it found in
    ``details`` (snake_case keys, kept with the row's hits).
    """

    rule_id: str
    rule_version: int | None
    severity: str
    action: str
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "rule_id": self.rule_id,
            "rule_version": self.rule_version,
            "severity": self.severity,
            "action": self.action,
            **self.details,
        }


@dataclass
class Screening:
    """The hits on one row and what they decide; ``failed``: the engine could not finish (see the setting)."""

    hits: list[ScreeningHit] = field(default_factory=list)
    failed: bool = False
    # a floor for the decision, whatever the hits say (fail-closed holds a row the engine failed on)
    at_least: str = Decision.ALLOW

    @property
    def decision(self) -> str:
        return strongest([ACTION_DECISION[h.action] for h in self.hits] + [self.at_least])


def strongest(decisions) -> str:
    return max(decisions, key=lambda d: DECISION_STRENGTH[d], default=Decision.ALLOW)
