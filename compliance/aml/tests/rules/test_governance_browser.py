"""Four eyes and the backtest in a real browser: one MLRO proposes, the other approves; a backtest runs."""

import datetime as dt
from decimal import Decimal

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.browser import new_page, page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.aml.models.governance import RuleProposal
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.rules import rule_create
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_propose_approve_and_backtest(page, browser, live_server, settings):  # noqa: F811
    settings.RULE_FOUR_EYES = True
    lindiwe = StaffFactory(role=StaffRole.MLRO, first_name="Lindiwe")
    bongani = StaffFactory(role=StaffRole.MLRO, first_name="Bongani")
    rule = rule_create(
        actor=lindiwe,
        rule_id="AML-THR-B",
        name="Large single transaction",
        description="One transaction of E5,000 or more.",
        conditions={"ruleType": "threshold", "thresholdAmount": 5000},
        is_active=True,
    )
    customer = PlatformUserFactory(first_name="Sibusiso", last_name="Dube")
    TransactionFactory(
        user=customer, amount=Decimal("4500"), type="TOP_UP", created_at=dt.datetime(2026, 5, 5, 9, tzinfo=dt.UTC)
    )

    sign_in(page, live_server, lindiwe.email, PASSWORD)
    page.goto(f"{live_server.url}/admin/compliance/amlrule/{rule.pk}/change/")
    page.fill("input[name=param_thresholdAmount]", "4000")
    page.check("input[name=generate_description]")
    page.fill("textarea[name=reason]", "Supervisor's finding: structuring just under E5,000")
    page.click("button[name=_save]")
    page.wait_for_load_state()
    assert "Change proposed for AML-THR-B" in page.content()
    assert "Threshold amount: E5,000 → E4,000" in page.locator("[data-testid=pending-proposals]").inner_text()
    assert AMLRule.objects.get(pk=rule.pk).conditions["thresholdAmount"] == 5000

    # the backtest of the proposal finds the 4,500 top-up the current version misses
    page.click("text=Run this rule (or a proposed change) over a past window")
    page.wait_for_selector("[data-testid=backtest-form]")
    assert page.input_value("input[name=param_thresholdAmount]") == "5000"  # the current version's
    # choosing the proposal shows its values at once, before any run (issue 31: the current ones stayed)
    with page.expect_navigation():
        page.select_option("select[name=proposal]", str(RuleProposal.objects.get().pk))
    assert page.input_value("input[name=param_thresholdAmount]") == "4000"
    assert "the proposal's values" in page.inner_text("[data-testid=backtest-parameters]")
    page.fill("input[name=since]", "2026-05-01T00:00")
    page.fill("input[name=until]", "2026-05-31T00:00")
    page.click("text=Run backtest")
    page.wait_for_selector("[data-testid=backtest-result]")
    assert page.inner_text("[data-testid=hit-count]") == "1"
    assert "Sibusiso Dube" in page.inner_text("[data-testid=backtest-users]")

    # Lindiwe cannot approve her own change
    page.goto(f"{live_server.url}/admin/compliance/ruleproposal/")
    page.locator("#result_list tbody tr").first.locator("input.action-select").check()
    page.select_option("select[name=action]", "approve_selected")
    page.click(".actions button, button[name=index]")
    page.wait_for_load_state()
    page.fill("textarea[name=reason]", "Backtest: one more alert")
    page.get_by_role("button", name="Approve").click()
    page.wait_for_load_state()
    assert "cannot decide" in page.content()
    assert RuleProposal.objects.get().status == "PENDING"

    # Bongani can
    other = sign_in(new_page(browser), live_server, bongani.email, PASSWORD)
    other.goto(f"{live_server.url}/admin/compliance/ruleproposal/")
    other.locator("#result_list tbody tr").first.locator("input.action-select").check()
    other.select_option("select[name=action]", "approve_selected")
    other.click(".actions button, button[name=index]")
    other.wait_for_load_state()
    # the approval's reason is asked first, as on the proposal's page
    other.fill("textarea[name=reason]", "Backtest: one more alert, the structuring case")
    other.get_by_role("button", name="Approve").click()
    other.wait_for_load_state()
    assert "AML-THR-B: change approved and in force." in other.content()
    assert RuleProposal.objects.get().decision_reason == "Backtest: one more alert, the structuring case"
    rule.refresh_from_db()
    assert rule.conditions["thresholdAmount"] == 4000 and "E4,000" in rule.description
    other.goto(f"{live_server.url}/admin/compliance/amlrule/{rule.pk}/change/")
    history = other.inner_text("[data-testid=version-history]")
    assert "Threshold amount: E5,000 → E4,000" in history and bongani.email in history


def test_rule_pages_have_no_serious_accessibility_violation(page, live_server):  # noqa: F811
    from django.urls import reverse

    from backoffice.tests.axe import serious_violations

    mlro = StaffFactory(role=StaffRole.MLRO)
    rule = rule_create(
        actor=mlro,
        rule_id="AML-STR-A",
        name="Structuring",
        conditions={"ruleType": "structuring", "thresholdAmount": 5000, "thresholdCount": 3, "timeWindowHours": 24},
        is_active=True,
    )
    sign_in(page, live_server, mlro.email, PASSWORD)
    pages = {
        "rule list": reverse("admin:compliance_amlrule_changelist"),
        "rule type choice": reverse("admin:compliance_amlrule_add"),
        "new rule form": reverse("admin:compliance_amlrule_add") + "?rule_type=behavioral",
        "rule page": reverse("admin:compliance_amlrule_change", args=[rule.pk]),
        "backtest": reverse("admin:compliance_amlrule_backtest", args=[rule.pk]),
        "proposals": reverse("admin:compliance_ruleproposal_changelist"),
        "snoozes": reverse("admin:compliance_rulesnooze_add"),
    }
    problems = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        if found := serious_violations(page):
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {line}" for name, lines in problems.items() for line in lines)
