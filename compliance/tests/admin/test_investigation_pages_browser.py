"""Issue 31 in a real browser, each page as the role that uses it, with axe and screenshots
(/work/notes/shots/<branch>/, or SHOTS_DIR):

- an officer reads a customer's money network: both hops, money and counts on the lines, flagged parties marked,
  every node a link to its customer or vendor page;
- an MLRO decides a colleague's rule proposal on its own page (the change in words, a reorder of a list no change,
  a reason on approval), after running its backtest from the page's link (the proposal's values in the inputs, the
  results as a table with customers linked and the alert volumes before and after).
"""

import datetime as dt
import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from backoffice.choices import StaffRole
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import new_page, sign_in
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.governance import RuleProposal
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.governance import rule_change
from compliance.aml.services.rules import rule_create
from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
from compliance.tests.customer.helpers import network
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shots() -> Path:
    folder = Path(os.environ.get("SHOTS_DIR") or "/work/notes/shots/admin-ui")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_an_officer_reads_the_money_network(browser, live_server, make_alert):  # noqa: F811
    centre, sipho, ahmad, thandi, shop = network(make_alert)
    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    page = sign_in(new_page(browser), live_server, officer.email)
    page.goto(live_server.url + reverse("admin:kyc_platformuser_change", args=[centre.pk]))
    figure = page.locator("[data-testid=money-network]")
    figure.wait_for()
    # "Top counterparties" (it showed "This section could not be shown." for every customer): who, what kind, money
    # each way and how often, each a link to its page
    table = page.locator("[data-panel=counterparties] table")
    rows = {row.split("\t")[0]: row.split("\t")[1:] for row in table.locator("tbody tr").all_inner_texts()}
    assert rows == {
        "Sipho Nkosi": ["Wallet user", "SZL 1,000.00", "SZL 0.00", "2"],
        "Mbabane Hardware": ["Vendor", "SZL 250.00", "SZL 0.00", "1"],
    }
    assert table.get_by_role("link", name="Sipho Nkosi").get_attribute("href") == reverse(
        "admin:kyc_platformuser_change", args=[sipho.pk]
    )
    svg = figure.locator("svg.vk-flows")
    # both hops drawn, with money and number of transactions on the lines
    edges = svg.locator("text.vk-edge").all_text_contents()
    assert "SZL 1,000.00 · 2 tx" in edges and "SZL 900.00 · 1 tx" in edges and "SZL 250.00 · 1 tx" in edges
    page.locator("[data-panel=money_flows]").screenshot(path=str(shots() / "customer-network.png"))
    # the flagged parties ringed and named; the others not
    for party in (ahmad, thandi):
        assert svg.locator(f"a[data-party='user:{party.pk}'] circle.vk-flagged").count() == 1
    # (the catalogue's rules of a fresh database raise alerts of their own on these transfers: Sipho's are real)
    assert svg.locator(f"a[data-party='vendor:{shop.pk}'] circle.vk-flagged").count() == 0
    words = svg.text_content()
    assert "possible sanctions match" in words and "PEP, 1 open alert" in words
    assert not serious_violations(page)
    # every node is a link to its page: the customers by their names, the vendor (opened) by its square
    for party in (sipho, ahmad, thandi):
        href = reverse("admin:kyc_platformuser_change", args=[party.pk])
        assert svg.locator(f"a[data-party='user:{party.pk}']").get_attribute("href") == href
    svg.locator(f"a[data-party='vendor:{shop.pk}']").click()
    page.wait_for_url(f"**{reverse('admin:vendors_vendor_change', args=[shop.pk])}")


def test_an_mlro_backtests_and_approves_a_colleagues_proposal_on_its_page(browser, live_server, settings):
    settings.RULE_FOUR_EYES = True
    lindiwe = StaffFactory(role=StaffRole.MLRO, first_name="Lindiwe", last_name="Dlamini")
    bongani = StaffFactory(role=StaffRole.MLRO, first_name="Bongani", last_name="Shongwe")
    aml_rule = rule_create(
        actor=lindiwe,
        rule_id="AML-THR-P",
        name="Large top-ups and transfers",
        description="A top-up, transfer or withdrawal of E5,000 or more",
        conditions={
            "ruleType": "threshold",
            "thresholdAmount": 5000,
            "transactionTypes": ["WITHDRAWAL", "TRANSFER_OUT", "TOP_UP"],
        },
        is_active=True,
    )
    customer = PlatformUserFactory(first_name="Sibusiso", last_name="Dube")
    transaction_record(
        user=customer, type="TOP_UP", amount=Decimal("4500"), created_at=timezone.now() - dt.timedelta(days=3)
    )
    outcome = rule_change(
        rule=aml_rule,
        actor=lindiwe,
        changes={
            "conditions": {
                "ruleType": "threshold",
                "thresholdAmount": 4000,
                "transactionTypes": ["TRANSFER_OUT", "WITHDRAWAL", "TOP_UP"],  # the same types, another order
            }
        },
        reason="Structuring just under E5,000",
    )
    proposal = outcome.proposal
    assert proposal is not None

    page = sign_in(new_page(browser), live_server, bongani.email)
    page.goto(live_server.url + reverse("admin:compliance_ruleproposal_changelist"))
    page.locator("#result_list tbody tr").first.locator("th a, td a").first.click()
    page.wait_for_url(f"**{reverse('admin:compliance_ruleproposal_change', args=[proposal.pk])}")
    # a title in words, the change in words, and only the real change
    title = page.locator("#rule-proposal h1").inner_text()
    assert title == "Change to AML-THR-P on version 1 (pending approval)"
    assert str(proposal.pk) not in page.title() + title
    diff = page.locator("[data-testid=proposal-diff]").inner_text()
    assert "Threshold amount" in diff and "E5,000" in diff and "E4,000" in diff
    assert "Transaction types" not in diff and "TRANSFER_OUT" not in diff
    assert "Structuring just under E5,000" in page.inner_text("#rule-proposal")
    assert not serious_violations(page)
    page.screenshot(path=str(shots() / "proposal-page.png"), full_page=True)

    # its backtest, from its link: the proposal's values in the inputs
    page.click("[data-testid=proposal-backtest]")
    page.wait_for_selector("[data-testid=backtest-form]")
    assert page.input_value("select[name=proposal]") == str(proposal.pk)
    assert page.input_value("input[name=param_thresholdAmount]") == "4000"
    page.screenshot(path=str(shots() / "backtest-form.png"), full_page=True)
    page.click("text=Run backtest")
    page.wait_for_selector("[data-testid=backtest-result]")
    assert page.input_value("input[name=param_thresholdAmount]") == "4000"  # still the proposal's after the run
    assert page.inner_text("[data-testid=hit-count]") == "1" and page.inner_text("[data-testid=current-count]") == "0"
    hits = page.locator("[data-testid=backtest-hits]")
    assert "{" not in hits.inner_text() and "Top-up" in hits.inner_text()
    link = hits.get_by_role("link", name="Sibusiso Dube")
    assert link.get_attribute("href") == reverse("admin:kyc_platformuser_change", args=[customer.pk])
    volumes = page.locator("[data-testid=backtest-volumes] tbody tr").all_inner_texts()
    assert len(volumes) == 1 and volumes[0].split("\t")[1:] == ["0", "1", "+1"]
    # the inputs are Unfold's (bordered), not the browser's bare ones
    border = page.eval_on_selector("input[name=param_thresholdAmount]", "e => getComputedStyle(e).borderTopWidth")
    assert border == "1px"
    assert not serious_violations(page)
    page.screenshot(path=str(shots() / "backtest-page.png"), full_page=True)

    # approve on the proposal's page, with a reason
    page.goto(live_server.url + reverse("admin:compliance_ruleproposal_change", args=[proposal.pk]))
    page.fill("textarea[name=reason]", "Backtest: one more alert a month, the structuring case")
    page.click("button[value=approve]")
    page.wait_for_selector("[data-testid=proposal-decision]")
    assert "change approved and in force" in page.content()
    proposal.refresh_from_db()
    assert proposal.status == "APPROVED" and proposal.decision_reason.startswith("Backtest: one more alert")
    assert AMLRule.objects.get(pk=aml_rule.pk).conditions["thresholdAmount"] == 4000
    # the rule's description follows the approved threshold (it kept quoting the old amount)
    page.goto(live_server.url + reverse("admin:compliance_amlrule_change", args=[aml_rule.pk]))
    described = page.input_value("[name=description]")
    assert described == "A top-up, transfer or withdrawal of E4,000 or more"


def test_the_proposer_sees_no_decision_and_a_reject_needs_its_reason(browser, live_server, settings):
    settings.RULE_FOUR_EYES = True
    lindiwe = StaffFactory(role=StaffRole.MLRO)
    admin = StaffFactory(role=StaffRole.ADMIN)
    aml_rule = rule_create(
        actor=lindiwe,
        rule_id="AML-THR-Q",
        name="Large",
        conditions={"ruleType": "threshold", "thresholdAmount": 5000},
        is_active=True,
    )
    proposal = rule_change(rule=aml_rule, actor=lindiwe, changes={"severity": "HIGH"}, reason="Louder").proposal
    url = live_server.url + reverse("admin:compliance_ruleproposal_change", args=[proposal.pk])
    own = sign_in(new_page(browser), live_server, lindiwe.email)
    own.goto(url)
    assert own.locator("[data-testid=proposal-own]").count() == 1 and own.locator("button[value=approve]").count() == 0
    page = sign_in(new_page(browser), live_server, admin.email)
    page.goto(url)
    page.fill("textarea[name=reason]", "Too many alerts for the team")
    page.click("button[value=reject]")
    page.wait_for_selector("[data-testid=proposal-decision]")
    assert RuleProposal.objects.get(pk=proposal.pk).status == "REJECTED"
    assert AMLRule.objects.get(pk=aml_rule.pk).severity != "HIGH"
