"""What each rule's alerts came to: hits, false-positive and SAR rates, time to close, and review flags.

Rates are shares of the alerts raised in the period that are closed:
``falsePositiveRate`` = closed as false positive / closed, ``sarRate`` =
closed with a SAR filed / closed (None while none is closed). The median time
to close is over those closed alerts. A rule is flagged for review when it
raised no alert in ``RULE_REVIEW_IDLE_DAYS`` (and is older than that), or
when its false-positive rate is above ``RULE_REVIEW_FP_RATE``.
"""

import datetime as dt
import statistics
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Max
from django.utils import timezone

from compliance.aml.choices import AlertStatus
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule

FP = AlertStatus.CLOSED_FALSE_POSITIVE
SAR = AlertStatus.CLOSED_SAR_FILED
TP = AlertStatus.CLOSED_TRUE_POSITIVE


@dataclass
class Outcome:
    hits: int = 0
    false_positives: int = 0
    sars: int = 0
    true_positives: int = 0  # confirmed without a SAR: closed, and counted as right, never as false positives
    open: int = 0
    close_hours: list[float] = field(default_factory=list, repr=False)
    last_alert_at: dt.datetime | None = None
    flags: list[str] = field(default_factory=list)

    @property
    def closed(self) -> int:
        return self.false_positives + self.sars + self.true_positives

    @property
    def false_positive_rate(self) -> float | None:
        return self.false_positives / self.closed if self.closed else None

    @property
    def sar_rate(self) -> float | None:
        return self.sars / self.closed if self.closed else None

    @property
    def median_hours_to_close(self) -> float | None:
        return round(statistics.median(self.close_hours), 2) if self.close_hours else None

    def as_json(self) -> dict:
        return {
            "hits": self.hits,
            "falsePositives": self.false_positives,
            "sars": self.sars,
            "open": self.open,
            "falsePositiveRate": self.false_positive_rate,
            "sarRate": self.sar_rate,
            "medianHoursToClose": self.median_hours_to_close,
            "lastAlertAt": self.last_alert_at,
            "flags": self.flags,
        }


def rule_outcomes(rules, *, since: dt.datetime, until: dt.datetime | None = None) -> dict:
    """rule pk -> Outcome over alerts raised in [since, until], for ``rules`` (three queries however many)."""
    until = until or timezone.now()
    rules = list(rules)
    ids = [r.pk for r in rules]
    outcomes = {pk: Outcome() for pk in ids}
    window = Alert.objects.filter(rule_id__in=ids, created_at__gte=since, created_at__lte=until)
    for row in window.values("rule_id", "status").annotate(n=Count("id")).order_by():
        outcome = outcomes[row["rule_id"]]
        outcome.hits += row["n"]
        if row["status"] == FP:
            outcome.false_positives += row["n"]
        elif row["status"] == SAR:
            outcome.sars += row["n"]
        elif row["status"] == TP:
            outcome.true_positives += row["n"]
        else:
            outcome.open += row["n"]
    closed = window.filter(status__in=[FP, SAR, TP], closed_at__isnull=False).values_list(
        "rule_id", "created_at", "closed_at"
    )
    for rule_id, created_at, closed_at in closed:
        outcomes[rule_id].close_hours.append((closed_at - created_at).total_seconds() / 3600)
    last = Alert.objects.filter(rule_id__in=ids).values("rule_id").annotate(last=Max("created_at")).order_by()
    for row in last:
        outcomes[row["rule_id"]].last_alert_at = row["last"]
    now = timezone.now()
    idle = dt.timedelta(days=settings.RULE_REVIEW_IDLE_DAYS)
    for rule in rules:
        outcome = outcomes[rule.pk]
        quiet_since = outcome.last_alert_at or rule.created_at
        if rule.is_active and quiet_since and now - quiet_since >= idle:
            outcome.flags.append(f"No alert in {settings.RULE_REVIEW_IDLE_DAYS} days")
        rate = outcome.false_positive_rate
        if rate is not None and rate > settings.RULE_REVIEW_FP_RATE:
            outcome.flags.append(f"False-positive rate {rate:.0%} above {settings.RULE_REVIEW_FP_RATE:.0%}")
    return outcomes


def rule_outcome_weeks(rule: AMLRule, *, since: dt.datetime, until: dt.datetime | None = None) -> list[dict]:
    """Alerts of ``rule`` per week of [since, until], by what they came to (for the rule's chart)."""
    until = until or timezone.now()
    weeks: list[dict] = []
    start = since
    while start < until:
        weeks.append({"start": start, "fp": 0, "sar": 0, "tp": 0, "open": 0})
        start += dt.timedelta(days=7)
    rows = Alert.objects.filter(rule=rule, created_at__gte=since, created_at__lte=until).values_list(
        "created_at", "status"
    )
    for created_at, status in rows:
        index = min(int((created_at - since).total_seconds() // (7 * 86400)), len(weeks) - 1)
        key = {FP: "fp", SAR: "sar", TP: "tp"}.get(status, "open")
        weeks[index][key] += 1
    return weeks
