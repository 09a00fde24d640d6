"""The MLRO's regulator statistics on crafted data: SARs by type and outcome, threshold reports filed, accepted
and rejected, median days from detection to filing, overdue filings; the page, its charts and its CSV."""

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from compliance.reporting.models import ThresholdReport, ThresholdReportBatch, ThresholdReportFiling
from compliance.reporting.selectors.statistics import CSV_HEADER, regulator_statistics
from compliance.sars.models.sar import SAR
from compliance.sars.tests.sar.helpers import crew, file_sar, subject  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db
UTC = dt.UTC


def sar_filed(person, people, *, kind, created, submitted, outcome=""):
    sar = file_sar(person, people["filer"], suspicious_activity_type=kind)
    SAR.objects.filter(pk=sar.pk).update(
        status="SUBMITTED", created_at=created, submitted_at=submitted, fiu_outcome=outcome
    )


def ctr_filed(user, staff, *, day, opened, submitted, outcome="", due_days=14):
    report = ThresholdReport.objects.create(
        user=user,
        day=day,
        total=Decimal("30000"),
        threshold=Decimal("25000"),
        status="SUBMITTED",
        due_at=dt.datetime.combine(day + dt.timedelta(days=due_days + 1), dt.time(22), UTC) - dt.timedelta(days=1),
        submitted_at=submitted,
    )
    ThresholdReport.objects.filter(pk=report.pk).update(created_at=opened)
    batch = ThresholdReportBatch.objects.create(
        created_by=staff, status="SUBMITTED", submitted_at=submitted, fiu_reference="R"
    )
    ThresholdReportFiling.objects.create(
        batch=batch, report=report, outcome=outcome, reason="bad" if outcome == "REJECTED" else ""
    )
    return report


@pytest.fixture
def crafted(subject, crew):  # noqa: F811
    oct5, oct20 = dt.datetime(2026, 10, 5, 8, tzinfo=UTC), dt.datetime(2026, 10, 20, 8, tzinfo=UTC)
    # October: three SARs, 2, 4 and 9 days after detection (SAR_FILING_DAYS 7: the last is late)
    sar_filed(
        subject, crew, kind="structuring", created=oct5, submitted=oct5 + dt.timedelta(days=2), outcome="ACCEPTED"
    )
    sar_filed(
        subject, crew, kind="structuring", created=oct5, submitted=oct5 + dt.timedelta(days=4), outcome="REJECTED"
    )
    sar_filed(subject, crew, kind="fraud", created=oct20, submitted=oct20 + dt.timedelta(days=9))
    # November: one SAR; one threshold report accepted, one rejected and filed late
    sar_filed(
        subject,
        crew,
        kind="fraud",
        created=dt.datetime(2026, 11, 2, tzinfo=UTC),
        submitted=dt.datetime(2026, 11, 3, tzinfo=UTC),
    )
    ctr_filed(
        subject,
        crew["filer"],
        day=dt.date(2026, 11, 1),
        opened=dt.datetime(2026, 11, 1, 9, tzinfo=UTC),
        submitted=dt.datetime(2026, 11, 4, 9, tzinfo=UTC),
        outcome="ACCEPTED",
    )
    ctr_filed(
        subject,
        crew["filer"],
        day=dt.date(2026, 11, 2),
        opened=dt.datetime(2026, 11, 2, 9, tzinfo=UTC),
        submitted=dt.datetime(2026, 11, 20, 9, tzinfo=UTC),
        outcome="REJECTED",
    )


def test_the_monthly_figures(crafted, settings):
    settings.SAR_FILING_DAYS = 7
    rows = {r.month: r for r in regulator_statistics(until=dt.date(2026, 11, 25), months=3)}
    assert list(rows) == ["2026-09", "2026-10", "2026-11"]
    assert rows["2026-09"].sars_filed == 0 and rows["2026-09"].sar_median_days is None
    october = rows["2026-10"]
    assert october.sars_filed == 3
    assert october.sars_by_type["structuring"] == 2 and october.sars_by_type["fraud"] == 1
    assert (october.sars_accepted, october.sars_rejected, october.sars_unanswered) == (1, 1, 1)
    assert october.sar_median_days == 4.0
    assert october.sars_overdue == 1 and october.ctr_filed == 0
    november = rows["2026-11"]
    assert november.sars_filed == 1 and november.sar_median_days == 1.0
    assert (november.ctr_filed, november.ctr_accepted, november.ctr_rejected) == (2, 1, 1)
    assert november.ctr_median_days == 10.5  # 3 and 18 days from opening to filing
    assert november.ctr_overdue == 1 and november.overdue_filings == 1


def test_the_page_draws_the_charts_and_the_csv_carries_the_same_figures(client, crafted, crew, settings):  # noqa: F811
    settings.SAR_FILING_DAYS = 7
    client.force_login(crew["approver"])
    url = reverse("admin:compliance_regulator_statistics")
    page = client.get(url, {"months": 3}).content.decode()
    assert page.count("<svg") == 4 and "Median days from detection to filing" in page
    assert 'data-month="2026-10"' in page
    assert "0 SARs and 0 threshold reports" in page  # every crafted report is filed
    ThresholdReport.objects.create(
        user=ThresholdReport.objects.first().user,
        day=dt.date(2026, 9, 1),
        total=Decimal("30000"),
        threshold=Decimal("25000"),
        due_at=dt.datetime(2026, 9, 15, 22, tzinfo=UTC),
    )
    assert "0 SARs and 1 threshold report." in client.get(url, {"months": 3}).content.decode()
    response = client.get(url, {"months": 3, "format": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == CSV_HEADER
    by_month = {r[0]: dict(zip(CSV_HEADER, r, strict=True)) for r in rows[1:]}
    assert by_month["2026-10"]["sars_filed"] == "3" and by_month["2026-10"]["sars_structuring"] == "2"
    assert by_month["2026-11"]["threshold_reports_rejected"] == "1"
    assert by_month["2026-11"]["threshold_report_median_days_detection_to_filing"] == "10.5"


def test_only_the_mlro_and_admin_see_the_statistics(client, crew):  # noqa: F811
    client.force_login(crew["filer"])
    assert client.get(reverse("admin:compliance_regulator_statistics")).status_code == 403
    client.force_login(crew["admin"])
    assert client.get(reverse("admin:compliance_regulator_statistics")).status_code == 200
