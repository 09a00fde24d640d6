"""Every rule type's form in a real browser: create a rule, edit it with a bad value, see the error at the input."""

import pytest
from playwright.sync_api import expect

from backoffice.choices import StaffRole
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.aml.choices import RuleType
from compliance.aml.models.parameters import parameters_of
from compliance.aml.models.rules import AMLRule
from compliance.aml.tests.rules.helpers import VALID_CONDITIONS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NUMERIC = ("amount", "window", "count", "percent", "percent100")
# what the schema says about -1 in each kind of number
NEGATIVE = {
    "amount": "Must not be negative.",
    "window": "Must be greater than zero.",
    "count": "Must be a whole number of at least 1.",
    "percent": "Must not be negative.",
    "percent100": "Must be between 0 and 100.",
}


def fill_parameters(page, rule_type):  # noqa: F811
    params = parameters_of(rule_type)
    for name, value in VALID_CONDITIONS[rule_type].items():
        kind = params[name].kind
        if kind in NUMERIC:
            page.fill(f"input[name=param_{name}]", str(value))
        elif kind == "boolean":
            if value:
                page.check(f"input[name=param_{name}]")
        elif kind == "choices":
            for item in value:
                page.check(f"input[name=param_{name}][value={item}]")
        else:
            page.fill(f"textarea[name=param_{name}]", "\n".join(value))


def first_number(rule_type):
    return next((name, p.kind) for name, p in parameters_of(rule_type).items() if p.kind in NUMERIC)


@pytest.mark.parametrize("rule_type", RuleType.values)
def test_create_then_edit_with_a_bad_value(page, live_server, rule_type):  # noqa: F811
    mlro = StaffFactory(role=StaffRole.MLRO)
    sign_in(page, live_server, mlro.email, PASSWORD)
    page.goto(f"{live_server.url}/admin/compliance/amlrule/add/")
    page.click(f"[data-rule-type={rule_type}]")
    # the type's form is a new page: fill it once it has loaded, not the choice page it replaces
    page.wait_for_url(f"**/amlrule/add/?rule_type={rule_type}")
    page.wait_for_load_state("load")
    page.fill("input[name=rule_id]", f"B-{rule_type}")
    page.fill("input[name=name]", f"Browser {rule_type}")
    page.check("input[name=on_hit][value=ALERT]")
    fill_parameters(page, rule_type)
    page.click("button[name=_save]")
    page.wait_for_url(f"{live_server.url}/admin/compliance/amlrule/")
    rule = AMLRule.objects.get(rule_id=f"B-{rule_type}")
    assert rule.conditions == {"ruleType": rule_type, **VALID_CONDITIONS[rule_type]}
    assert rule.description  # written from the parameters

    name, kind = first_number(rule_type)
    page.goto(f"{live_server.url}/admin/compliance/amlrule/{rule.pk}/change/")
    page.fill(f"input[name=param_{name}]", "-1")
    page.fill("textarea[name=reason]", "Trying a bad value")
    page.click("button[name=_save]")
    # the answer is a new page: wait for its message (read at once, the group could still be the page submitted)
    group = page.locator("div.errors", has=page.locator(f"input[name=param_{name}]"))
    expect(group).to_contain_text(NEGATIVE[kind])
    assert page.input_value(f"input[name=param_{name}]") == "-1"
    assert AMLRule.objects.get(pk=rule.pk).version == 1
