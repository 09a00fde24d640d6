"""What each staff role may see of the AML reasoning: the one visibility policy (tipping-off).

``backoffice.roles`` says what a role may *do*; this table says what a role may *see* of the reasons behind
compliance's decisions, on every surface that shows a customer or a transaction: the API serializers, the
admin pages and the exports all ask ``sees`` (or ``hidden``) instead of deciding page by page.

The rule (FATF Recommendation 21; the Money Laundering and Financing of Terrorism (Prevention) Act): staff
who face customers must not learn, and so cannot pass on, that a customer is suspected or reported. Support
and finance see *that* a payment is held, blocked or rejected (the customer asks about it), never *why*:
no rule id or hit, no reviewer, no review note, no alert, no SAR, no sanctions or PEP match, no reason for
the risk score. The risk score they see leaves out the points a SAR adds, so the number does not move when a
report is filed (``SAR_RISK``).

Each facet names one kind of reasoning; a role sees the facets in its row. A new surface that shows one of
these things asks for its facet; the field-level role matrix test and the support/finance page walk
(backoffice/tests/visibility) hold every surface to the table.
"""

from enum import StrEnum

from backoffice.choices import StaffRole


class Facet(StrEnum):
    # that a transaction was held, blocked or rejected, and the customer's risk rating and score (SAR points
    # left out unless SAR_RISK)
    STATUS = "status"
    # why a transaction was held or blocked: the rule ids and versions that hit, their actions, a screening
    # hit's list and reference, whether screening failed
    RULE_HITS = "rule_hits"
    # who decided a held transaction, when, and the note they wrote (and the decision history)
    REVIEW = "review"
    ALERTS = "alerts"
    SARS = "sars"
    SANCTIONS_MATCHES = "sanctions_matches"
    PEP_MATCHES = "pep_matches"
    # the reasons behind a risk score (the factors, the timeline's risk changes with their reasons)
    RISK_REASONS = "risk_reasons"
    # the points a SAR on file adds to the risk score (without it, the score is what it would be with no SAR)
    SAR_RISK = "sar_risk"


_EVERYTHING = frozenset(Facet)
_CUSTOMER_FACING = frozenset({Facet.STATUS})

VISIBILITY: dict[str, frozenset[Facet]] = {
    StaffRole.SUPPORT: _CUSTOMER_FACING,
    StaffRole.FINANCE: _CUSTOMER_FACING,
    StaffRole.COMPLIANCE_OFFICER: _EVERYTHING,
    StaffRole.MLRO: _EVERYTHING,
    StaffRole.ADMIN: _EVERYTHING,
}


def _role(viewer) -> str | None:
    """A role value from a role string or a staff member (an inactive or anonymous one has none)."""
    if viewer is None or isinstance(viewer, str):
        return viewer
    if not getattr(viewer, "is_authenticated", False) or not getattr(viewer, "is_active", False):
        return None
    return getattr(viewer, "role", None)


def sees(viewer, facet: Facet) -> bool:
    """Whether ``viewer`` (a staff member or a role) may see ``facet``; an unknown viewer sees nothing of it."""
    return facet in VISIBILITY.get(_role(viewer), frozenset())


def hidden(viewer, fields: dict[Facet, tuple[str, ...]]) -> set[str]:
    """The names among ``fields`` (a surface's field names, by facet) that ``viewer`` must not see."""
    return {name for facet, names in fields.items() if not sees(viewer, facet) for name in names}
