"""Why a customer is risky: the facts in the records that raise their risk, each with its weight.

This is the one risk function: the stored ``current_risk_score`` is the sum of
these facts' points, written by kyc's risk service (``user_risk_refresh_many``,
which asks ``risk_scores`` through the ``kyc.hooks.risk_scores`` hook) whenever a
service changes a fact, and the customer page shows the reasons beside the
number. Weights are deliberately simple and documented
(docs/kyc.md, "Customer view"): a potential PEP 30, a SAR on file 30, each
open alert by severity (CRITICAL 20, HIGH 12, MEDIUM 6, LOW 3), money moved
in a high-risk (CFT rule) country 25 or elsewhere abroad 10 in the last 90
days, an occupation the behavioural rules watch 10, identity not verified 10
(rejected 20). The indicated score is their sum, at most 100.
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Sum, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from backoffice.money import money
from compliance.aml.choices import RuleType
from compliance.aml.models.alerts import OPEN_STATES, Alert
from compliance.aml.models.rules import AMLRule
from compliance.casework.choices import Severity
from compliance.peps.choices import PEPMatchStatus
from compliance.peps.models.pep import PEPMatch
from compliance.sanctions.match_choices import MatchStatus
from compliance.sanctions.models.match import SanctionsMatch
from compliance.sars.models.sar import SAR
from kyc.choices import TransactionStatus, VerificationStatus, risk_rating_for
from kyc.models import PlatformUser, Transaction
from kyc.services.risk import RISK_FIELDS

CHUNK = 500
SAR_POINTS = 30
ALERT_WEIGHTS = {Severity.CRITICAL: 20, Severity.HIGH: 12, Severity.MEDIUM: 6, Severity.LOW: 3}
LOOKBACK = dt.timedelta(days=90)


@dataclass(frozen=True)
class RiskFactor:
    reason: str
    points: int
    # a SAR on file: left out of what support and finance see (backoffice.visibility.Facet.SAR_RISK)
    sar: bool = False


@dataclass(frozen=True)
class RiskPicture:
    score: int
    rating: str
    factors: list[RiskFactor]

    @property
    def indicated_score(self) -> int:
        return min(100, sum(f.points for f in self.factors))

    @property
    def sar_points(self) -> int:
        """What the SAR factor adds to the indicated score (less than its points where the sum passes 100)."""
        return self.indicated_score - min(100, sum(f.points for f in self.factors if not f.sar))

    def without_sar(self) -> "RiskPicture":
        """The picture as if no SAR were on file: the stored score less the SAR's points, no SAR reason."""
        score = max(0, self.score - self.sar_points)
        return RiskPicture(score=score, rating=risk_rating_for(score), factors=[f for f in self.factors if not f.sar])


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


def risk_pictures(users, *, now: dt.datetime | None = None) -> dict:
    """Each user's stored score with the reasons found in the records: five queries per 500 users.

    The one risk function: the customer page shows it, and ``risk_scores`` (kyc's ``risk_scores`` hook)
    stores its sum on every change of a fact, so the two agree.
    """
    now = now or timezone.now()
    users = list(users)
    pictures: dict = {}
    countries, occupations = _watch_lists()
    for start in range(0, len(users), CHUNK):
        chunk = users[start : start + CHUNK]
        pks = [u.pk for u in chunk]
        sars = dict(
            SAR.objects.filter(entity_user_id__in=pks).values_list("entity_user_id").annotate(n=Count("pk")).order_by()
        )
        alerts: dict = {}
        for user_id, severity, n in (
            Alert.objects.filter(user_id__in=pks, status__in=OPEN_STATES)
            .values_list("user_id", "severity")
            .annotate(n=Count("pk"))
            .order_by()
        ):
            alerts.setdefault(user_id, {})[severity] = n
        abroad: dict = {}
        for row in (
            Transaction.objects.filter(
                user_id__in=pks, status=TransactionStatus.COMPLETED, created_at__gte=now - LOOKBACK
            )
            .exclude(country="SZ")
            .values("user_id", "country")
            .annotate(total=Sum("amount"), n=Count("pk"))
            .order_by("user_id", "country")
        ):
            abroad.setdefault(row["user_id"], []).append(row)
        for user in chunk:
            pictures[user.pk] = _picture(
                user,
                sars=sars.get(user.pk, 0),
                open_alerts=alerts.get(user.pk, {}),
                abroad=abroad.get(user.pk, []),
                countries=countries,
                occupations=occupations,
            )
    return pictures


def _picture(user, *, sars: int, open_alerts: dict, abroad: list, countries: set, occupations: set) -> RiskPicture:
    factors: list[RiskFactor] = []
    if user.is_potential_pep:
        factors.append(RiskFactor("Flagged as a potential politically exposed person", 30))
    if sars:
        factors.append(
            RiskFactor(f"Subject of {sars} suspicious activity report{'s' if sars > 1 else ''}", SAR_POINTS, sar=True)
        )
    for severity in reversed(Severity.values):
        if count := open_alerts.get(severity, 0):
            label = Severity(severity).label.lower()
            factors.append(
                RiskFactor(f"{count} open {label} alert{'s' if count > 1 else ''}", count * ALERT_WEIGHTS[severity])
            )
    risky = [row for row in abroad if row["country"] in countries]
    other = [row for row in abroad if row["country"] not in countries]
    if risky:
        where = ", ".join(f"{r['country']} ({money(r['total'])})" for r in risky)
        factors.append(RiskFactor(f"Money moved in high-risk countries in the last 90 days: {where}", 25))
    if other:
        where = ", ".join(f"{r['country']} ({money(r['total'])})" for r in other)
        factors.append(RiskFactor(f"Money moved abroad in the last 90 days: {where}", 10))
    if user.occupation and user.occupation.strip().lower() in occupations:
        factors.append(RiskFactor(f"Occupation watched by the behavioural rules: {user.occupation}", 10))
    if user.verification_status == VerificationStatus.REJECTED:
        factors.append(RiskFactor("Identity verification rejected", 20))
    elif user.verification_status != VerificationStatus.VERIFIED:
        factors.append(RiskFactor("Identity not verified yet", 10))
    return RiskPicture(score=user.current_risk_score, rating=user.risk_rating, factors=factors)


def risk_picture(user, *, now: dt.datetime | None = None) -> RiskPicture:
    """One user's picture (``risk_pictures``)."""
    return risk_pictures([user], now=now)[user.pk]


def sar_risk_points(*, users) -> dict:
    """How many points of each user's stored score a SAR on file adds: kyc's ``sar_risk_points`` hook.

    Only the subjects of a SAR are looked at (one query finds them among ``users``); the rest add nothing.
    """
    subjects = set(
        SAR.objects.filter(entity_user_id__in=[u.pk for u in users]).values_list("entity_user_id", flat=True)
    )
    if not subjects:
        return {}
    # read again with the fields the risk function reads: a list's rows carry only the list's columns
    pictures = risk_pictures(PlatformUser.objects.filter(pk__in=subjects).only(*RISK_FIELDS))
    return {pk: picture.sar_points for pk, picture in pictures.items() if picture.sar_points}


def risk_floor_without_sar():
    """A query expression over users: the stored score less a SAR's points for its subject, at least 0.

    kyc's ``risk_floor_without_sar`` hook. Below a capped score it is exactly the score without the SAR; at the
    cap (100) the score without the SAR is at least 70, HIGH like the floor, so a rating filter agrees with
    what ``sar_risk_points`` shows.
    """
    return Case(
        When(
            Exists(SAR.objects.filter(entity_user_id=OuterRef("pk"))),
            then=Greatest(F("current_risk_score") - Value(SAR_POINTS), Value(0), output_field=IntegerField()),
        ),
        default=F("current_risk_score"),
        output_field=IntegerField(),
    )


def risk_scores(*, users, **kwargs) -> dict:
    """The score the records indicate for each user: kyc's ``risk_scores`` hook (registered in ``ready()``)."""
    return {pk: picture.indicated_score for pk, picture in risk_pictures(users).items()}


# a match still under review counts: the investigator must look before money moves on, not after the decision
LIVE_SANCTIONS = (MatchStatus.POTENTIAL, MatchStatus.CONFIRMED)
LIVE_PEP = (PEPMatchStatus.POTENTIAL, PEPMatchStatus.CONFIRMED)


def party_flags(*, user_ids, **kwargs) -> dict:
    """user id -> what marks them in a money network (sanctions, PEP, open alerts): kyc's ``party_flags`` hook.

    Four queries whatever the number of users; users with nothing to flag are left out.
    """
    ids = list(user_ids)
    if not ids:
        return {}
    flags: dict = {}

    def add(pk, word):
        flags.setdefault(pk, [])
        if word not in flags[pk]:
            flags[pk].append(word)

    sanctions = SanctionsMatch.objects.filter(user_id__in=ids, status__in=LIVE_SANCTIONS)
    for pk, status in sanctions.values_list("user_id", "status").order_by():
        add(pk, "sanctions match" if status == MatchStatus.CONFIRMED else "possible sanctions match")
    peps = set(PEPMatch.objects.filter(user_id__in=ids, status__in=LIVE_PEP).values_list("user_id", flat=True))
    peps |= set(PlatformUser.objects.filter(pk__in=ids, is_potential_pep=True).values_list("pk", flat=True))
    for pk in peps:
        add(pk, "PEP")
    alerts = Alert.objects.filter(user_id__in=ids, status__in=OPEN_STATES).values_list("user_id")
    for pk, n in alerts.annotate(n=Count("pk")).order_by():
        add(pk, f"{n} open alert{'s' if n > 1 else ''}")
    return flags
