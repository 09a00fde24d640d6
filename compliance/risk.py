"""Why a customer is risky: the facts in the records that raise their risk, each with its weight.

The stored ``current_risk_score`` and ``risk_rating`` are set at onboarding
and by reviews; this module says which facts in today's records support a
score, so an officer sees the reasons beside the number and can tell when
the two have drifted apart. Weights are deliberately simple and documented
(docs/kyc.md, "Customer view"): a potential PEP 30, a SAR on file 30, each
open alert by severity (CRITICAL 20, HIGH 12, MEDIUM 6, LOW 3), money moved
in a high-risk (CFT rule) country 25 or elsewhere abroad 10 in the last 90
days, an occupation the behavioural rules watch 10, identity not verified 10
(rejected 20). The indicated score is their sum, at most 100.
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Q, Sum
from django.utils import timezone

from compliance.aml.choices import RuleType
from compliance.aml.models.alerts import OPEN_STATES, Alert
from compliance.aml.models.rules import AMLRule
from compliance.casework.choices import Severity
from compliance.sars.models.sar import SAR
from kyc.choices import TransactionStatus, VerificationStatus
from kyc.models import Transaction

ALERT_WEIGHTS = {Severity.CRITICAL: 20, Severity.HIGH: 12, Severity.MEDIUM: 6, Severity.LOW: 3}
LOOKBACK = dt.timedelta(days=90)


@dataclass(frozen=True)
class RiskFactor:
    reason: str
    points: int


@dataclass(frozen=True)
class RiskPicture:
    score: int
    rating: str
    factors: list[RiskFactor]

    @property
    def indicated_score(self) -> int:
        return min(100, sum(f.points for f in self.factors))


def _watch_lists() -> tuple[set[str], set[str]]:
    """Countries of the CFT rules and occupations of the behavioural rules that are switched on."""
    countries: set[str] = set()
    occupations: set[str] = set()
    for rule_type, conditions in AMLRule.objects.filter(
        is_active=True, rule_type__in=[RuleType.CFT_RELATED, RuleType.BEHAVIORAL]
    ).values_list("rule_type", "conditions"):
        if rule_type == RuleType.CFT_RELATED:
            countries.update(str(c).upper() for c in conditions.get("countries", []))
        else:
            occupations.update(str(o).strip().lower() for o in conditions.get("occupations", []))
    return countries, occupations


def risk_picture(user, *, now: dt.datetime | None = None) -> RiskPicture:
    """The user's stored score with the reasons found in the records (five queries, whatever the history)."""
    now = now or timezone.now()
    factors: list[RiskFactor] = []
    if user.is_potential_pep:
        factors.append(RiskFactor("Flagged as a potential politically exposed person", 30))
    sars = SAR.objects.filter(entity_user=user).count()
    if sars:
        factors.append(RiskFactor(f"Subject of {sars} suspicious activity report{'s' if sars > 1 else ''}", 30))
    open_alerts = Alert.objects.filter(user=user, status__in=OPEN_STATES).aggregate(
        **{s: Count("pk", filter=Q(severity=s)) for s in Severity.values}
    )
    for severity in reversed(Severity.values):
        if count := open_alerts[severity]:
            label = Severity(severity).label.lower()
            factors.append(
                RiskFactor(f"{count} open {label} alert{'s' if count > 1 else ''}", count * ALERT_WEIGHTS[severity])
            )
    countries, occupations = _watch_lists()
    abroad = (
        Transaction.objects.filter(user=user, status=TransactionStatus.COMPLETED, created_at__gte=now - LOOKBACK)
        .exclude(country="SZ")
        .values("country")
        .annotate(total=Sum("amount"), n=Count("pk"))
        .order_by("country")
    )
    risky = [row for row in abroad if row["country"] in countries]
    other = [row for row in abroad if row["country"] not in countries]
    if risky:
        where = ", ".join(f"{r['country']} (SZL {r['total']:,.2f})" for r in risky)
        factors.append(RiskFactor(f"Money moved in high-risk countries in the last 90 days: {where}", 25))
    if other:
        where = ", ".join(f"{r['country']} (SZL {r['total']:,.2f})" for r in other)
        factors.append(RiskFactor(f"Money moved abroad in the last 90 days: {where}", 10))
    if user.occupation and user.occupation.strip().lower() in occupations:
        factors.append(RiskFactor(f"Occupation watched by the behavioural rules: {user.occupation}", 10))
    if user.verification_status == VerificationStatus.REJECTED:
        factors.append(RiskFactor("Identity verification rejected", 20))
    elif user.verification_status != VerificationStatus.VERIFIED:
        factors.append(RiskFactor("Identity not verified yet", 10))
    return RiskPicture(score=user.current_risk_score, rating=user.risk_rating, factors=factors)
