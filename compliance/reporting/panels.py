"""The customer page's section of cash threshold reports (kyc.panels), for the roles that read them."""

from django.db.models import Count
from django.template.loader import render_to_string

from compliance.reporting.deadlines import filing_clock, last_filing_day
from compliance.reporting.models import ThresholdReport

SHOWN = 10


def render_threshold_reports(request, user) -> str:
    reports = list(
        ThresholdReport.objects.filter(user=user)
        .annotate(n_transactions=Count("transactions"))
        .order_by("-day")[:SHOWN]
    )
    rows = [(r, last_filing_day(r), *filing_clock(r)) for r in reports]
    return render_to_string("compliance/panels/threshold_reports.html", {"rows": rows})
