"""The customer view on the KYC user page: compliance's panels for compliance roles only, at a fixed cost."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.admin_queries import admin_browser, assert_flat
from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
from compliance.peps.models.pep import PEP, PEPMatch
from compliance.risk import risk_picture
from compliance.sars.choices import SARStatus
from compliance.sars.tests.sar.helpers import crew, make_sar, subject  # noqa: F401 - fixtures
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = pytest.mark.django_db

PANELS = ("risk", "alerts", "sars", "pep_matches", "verifications", "counterparties", "money_flows")


def page_of(role, user) -> str:
    response = admin_browser(role).get(reverse("admin:kyc_platformuser_change", args=[user.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("role", [StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN])
def test_compliance_roles_see_every_panel(role, subject, make_alert, make_sar):  # noqa: F811
    make_alert(user=subject, severity="CRITICAL")
    make_sar(SARStatus.PENDING_REVIEW)
    html = page_of(role, subject)
    for key in PANELS:
        assert f'data-panel="{key}"' in html
    assert "1 open critical alert" in html and "Pending review" in html


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_see_nothing_of_it(role, subject, make_alert, make_sar):  # noqa: F811
    make_alert(user=subject, severity="CRITICAL")
    sar = make_sar(SARStatus.PENDING_REVIEW)
    html = page_of(role, subject)
    # support's one panel is where the customer's identity verification stands (issue 31: "why is it stuck?")
    shown = set(re.findall(r'data-panel="([a-z_]+)"', html))
    assert shown == ({"verification_status"} if role == StaffRole.SUPPORT else set()), shown
    for word in ("alert", "SAR", "suspicious", sar.sar_id, "Risk score and its reasons", "PEP"):
        assert word not in html, word


def test_risk_reasons_name_the_facts(subject, make_alert, make_sar):  # noqa: F811
    subject.is_potential_pep = True
    subject.save(update_fields=["is_potential_pep"])
    make_alert(user=subject, severity="HIGH")
    make_alert(user=subject, severity="HIGH")
    make_sar(SARStatus.DRAFT)
    TransactionFactory(user=subject, amount=Decimal("900"), country="ZA")
    picture = risk_picture(subject)
    reasons = {f.reason: f.points for f in picture.factors}
    assert reasons["Flagged as a potential politically exposed person"] == 30
    assert reasons["Subject of 1 suspicious activity report"] == 30
    assert reasons["2 open high alerts"] == 24
    assert reasons["Money moved abroad in the last 90 days: ZA (SZL 900.00)"] == 10
    assert picture.indicated_score == min(100, sum(reasons.values()))


def _pep_match(user, n: int):
    pep = PEP.objects.create(name=f"Official Number{n} Person", name_key=f"official number{n} person")
    return PEPMatch.objects.create(
        user=user,
        pep=pep,
        pep_name_key=pep.name_key,
        pep_name=pep.name,
        score=0.91,
        explanation={"summary": "Every part of the name agrees."},
        matcher_version="test",
        content_hash=f"h{n}",
    )


def test_pep_matches_show_with_their_score_and_review(subject):  # noqa: F811
    _pep_match(subject, 1)
    html = page_of(StaffRole.COMPLIANCE_OFFICER, subject)
    assert "Official Number1 Person" in html and "0.91" in html and "Every part of the name agrees." in html


def test_the_customer_view_costs_the_same_however_much_history(subject, make_alert, make_sar, crew):  # noqa: F811
    client = admin_browser(StaffRole.COMPLIANCE_OFFICER)
    make_alert(user=subject)
    make_sar(SARStatus.DRAFT)
    other = PlatformUserFactory()
    TransactionFactory(user=subject, type="TRANSFER_IN", counterparty_user=other)
    TransactionFactory(user=other, type="TRANSFER_OUT", counterparty_user=PlatformUserFactory())

    def grow(n):
        for _ in range(n):
            make_alert(user=subject, transactions=2)
            make_sar(SARStatus.PENDING_REVIEW)
            peer = PlatformUserFactory()
            TransactionFactory(user=subject, type="TRANSFER_OUT", counterparty_user=peer)
            TransactionFactory(user=peer, type="TRANSFER_OUT", counterparty_user=PlatformUserFactory())
            _pep_match(subject, PEPMatch.objects.count() + 10)

    _pep_match(subject, 0)
    assert_flat(client, reverse("admin:kyc_platformuser_change", args=[subject.pk]), grow)


def test_a_deadline_reads_in_words_not_as_a_second_status(subject, make_alert, make_sar):  # noqa: F811
    make_alert(user=subject, severity="LOW")
    make_sar(SARStatus.PENDING_REVIEW)
    html = page_of(StaffRole.MLRO, subject)
    assert '<th scope="col">Priority</th>' not in html and html.count('<th scope="col">Deadline</th>') == 2
    assert ">On track</span>" in html and ">New</span>" not in html
