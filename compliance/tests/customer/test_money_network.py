"""The customer view's money network (issue 31): one and two hops from real ledger rows, the money and number of
transactions on every line, flagged parties (sanctions, PEP, open alerts) marked, every node a link to its page."""

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.admin_queries import admin_browser
from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
from compliance.risk import party_flags
from compliance.tests.customer.helpers import network

pytestmark = pytest.mark.django_db


def test_the_flags_name_sanctions_pep_and_open_alerts(make_alert):  # noqa: F811
    centre, sipho, ahmad, thandi, _ = network(make_alert)
    flags = party_flags(user_ids=[centre.pk, sipho.pk, ahmad.pk, thandi.pk])
    assert flags[ahmad.pk][0] == "possible sanctions match"
    assert flags[thandi.pk][:2] == ["PEP", "1 open alert"]
    assert centre.pk not in flags and sipho.pk not in flags


def test_the_network_panel_draws_both_hops_with_money_counts_flags_and_links(make_alert):  # noqa: F811
    centre, sipho, ahmad, thandi, shop = network(make_alert)
    response = admin_browser(StaffRole.COMPLIANCE_OFFICER).get(
        reverse("admin:kyc_platformuser_change", args=[centre.pk])
    )
    html = response.content.decode()
    assert "This section could not be shown" not in html
    svg = html[html.index('<svg class="vk-flows"') :]
    svg = svg[: svg.index("</svg>")]
    # every node links to its page: customers and the vendor
    for url in (
        reverse("admin:kyc_platformuser_change", args=[sipho.pk]),
        reverse("admin:kyc_platformuser_change", args=[ahmad.pk]),
        reverse("admin:kyc_platformuser_change", args=[thandi.pk]),
        reverse("admin:vendors_vendor_change", args=[shop.pk]),
    ):
        assert f'href="{url}"' in svg, url
    # money and number of transactions on the lines, one and two hops
    assert "SZL 1,000.00 · 2 tx" in svg and "SZL 250.00 · 1 tx" in svg and "SZL 900.00 · 1 tx" in svg
    # flagged parties ringed and named in words; the unflagged not
    assert svg.count('class="vk-flagged"') == 2
    assert "possible sanctions match" in svg and "PEP, 1 open alert" in svg
    table = html[html.index('data-testid="money-edges"') :]
    assert "Sipho Nkosi" in table and "Ahmad Haddad" in table and "Mbabane Hardware" in table
    assert table.count('data-testid="flag"') == 2
