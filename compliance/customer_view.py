"""Compliance's sections of the KYC user page (kyc.panels): the risk reasons, alerts, SARs and PEP matches.

Registered from ``ComplianceConfig.ready()``, each visible only to the roles
that may know of alerts and SARs: support and finance never see them
(tipping-off). Each costs a fixed number of queries whatever the history.
"""

from django.template.loader import render_to_string
from django.utils import timezone

from backoffice.visibility import Facet
from compliance.aml.models.alerts import OPEN_STATES, Alert
from compliance.casework import deadlines
from compliance.peps.models.pep import PEPMatch
from compliance.risk import risk_picture
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.selectors.sar import first_alert_at
from kyc import panels

SHOWN = 10


def render_risk(request, user) -> str:
    return render_to_string("compliance/panels/risk.html", {"risk": risk_picture(user), "user": user})


def render_alerts(request, user) -> str:
    now = timezone.now()
    alerts = list(
        Alert.objects.filter(user=user)
        .select_related("rule", "assigned_to")
        .order_by("-created_at", "-id")[: SHOWN * 2]
    )
    open_alerts = [a for a in alerts if a.status in OPEN_STATES][:SHOWN]
    closed = [a for a in alerts if a.status not in OPEN_STATES][:SHOWN]
    rows = [_with_words(a, deadlines.alert_due_at(a), deadlines.alert_priority(a, now=now)) for a in open_alerts]
    return render_to_string(
        "compliance/panels/alerts.html", {"rows": rows, "closed": closed, "user": user, "shown": SHOWN}
    )


def render_sars(request, user) -> str:
    sars = list(
        SAR.objects.filter(entity_user=user)
        .select_related("filed_by")
        .annotate(first_alert_at=first_alert_at())
        .order_by("-created_at")[:SHOWN]
    )
    rows = []
    for sar in sars:
        detected = deadlines.sar_detected_at(sar)
        due = deadlines.sar_due_at(detected_at=detected)
        rows.append(_with_words(sar, due, deadlines.sar_priority(sar, detected_at=detected)))
    return render_to_string("compliance/panels/sars.html", {"rows": rows, "filed": SARStatus.SUBMITTED})


def render_pep_matches(request, user) -> str:
    matches = list(PEPMatch.objects.filter(user=user).select_related("pep").order_by("-score", "-created_at")[:SHOWN])
    return render_to_string("compliance/panels/pep_matches.html", {"matches": matches})


def register_panels() -> None:
    # each panel shows one facet of the visibility policy (backoffice.visibility): never support or finance
    panels.register(
        panels.Panel("risk", "Risk score and its reasons", 10, render_risk, panels.for_facet(Facet.RISK_REASONS))
    )
    panels.register(panels.Panel("alerts", "Alerts", 20, render_alerts, panels.for_facet(Facet.ALERTS)))
    panels.register(panels.Panel("sars", "Suspicious activity reports", 30, render_sars, panels.for_facet(Facet.SARS)))
    panels.register(
        panels.Panel("pep_matches", "PEP matches", 40, render_pep_matches, panels.for_facet(Facet.PEP_MATCHES))
    )


def _with_words(case, due, priority) -> tuple:
    # the deadline's priority in words ("on track"), never a bare "New" that reads like a second status (issue 31)
    return case, due, priority, deadlines.PRIORITY_WORDS.get(priority, priority or "")
