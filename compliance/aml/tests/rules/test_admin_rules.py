"""The rule pages of the admin site: a form per rule type, reasons, four eyes, diffs, bulk toggle, backtest."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.governance import RuleProposal, RuleSnooze
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.governance import rule_snooze
from compliance.aml.services.rules import rule_create
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

RULES = "/admin/compliance/amlrule/"


def login(role=StaffRole.MLRO):
    staff = StaffFactory(role=role)
    client = Client()
    client.force_login(staff)
    return client, staff


def make(actor=None, *, rule_id="R-THR", amount=5000, severity="MEDIUM", active=True, description=None):
    return rule_create(
        actor=actor,
        rule_id=rule_id,
        name="Large top-up",
        description=description if description is not None else f"One transaction of E{amount:,} or more.",
        conditions={"ruleType": "threshold", "thresholdAmount": amount},
        severity=severity,
        is_active=active,
        actions={"createAlert": True},
    )


def edit_body(rule, **overrides):
    body = {
        "name": rule.name,
        "category": rule.category,
        "severity": rule.severity,
        "priority": rule.priority,
        "is_active": "on" if rule.is_active else "",
        "description": rule.description,
        "on_hit": "ALERT",
        "create_alert": "on",
        "param_thresholdAmount": str(rule.conditions["thresholdAmount"]),
        "reason": "Quarterly review",
    }
    body.update(overrides)
    return {k: v for k, v in body.items() if v != ""}


def test_add_starts_with_a_choice_of_rule_type(db):
    client, _ = login()
    page = client.get(f"{RULES}add/").content.decode()
    assert "?rule_type=structuring" in page and "?rule_type=business_sector" in page
    form = client.get(f"{RULES}add/?rule_type=structuring").content.decode()
    assert 'name="param_thresholdCount"' in form and 'name="param_timeWindowHours"' in form
    assert "Threshold amount (SZL)" in form and "Time window (hours)" in form
    assert 'name="conditions"' not in form


def test_create_from_the_form_writes_the_interfaces_json_and_describes_it(db):
    client, _ = login()
    r = client.post(
        f"{RULES}add/?rule_type=behavioral",
        {
            "rule_id": "R-BEH",
            "name": "Students moving a lot",
            "severity": "HIGH",
            "priority": 10,
            "on_hit": "ALERT",
            "create_alert": "on",
            "param_thresholdAmount": "20000",
            "param_occupations": "student\nunemployed",
            "param_transactionTypes": ["TOP_UP", "WITHDRAWAL"],
            "reason": "New typology from the FIU",
        },
    )
    assert r.status_code == 302, r.context["adminform"].form.errors
    rule = AMLRule.objects.get(rule_id="R-BEH")
    assert rule.conditions == {
        "ruleType": "behavioral",
        "thresholdAmount": 20000,
        "occupations": ["student", "unemployed"],
        "transactionTypes": ["TOP_UP", "WITHDRAWAL"],
    }
    assert rule.rule_type == "behavioral" and "E20,000" in rule.description
    assert rule.versions.get(version=1).reason == "New typology from the FIU"


def test_a_bad_value_is_shown_under_its_input(db):
    client, _ = login()
    rule = make()
    r = client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, param_thresholdAmount="-5"))
    assert r.status_code == 200
    assert r.context["adminform"].form.errors["param_thresholdAmount"] == ["Must not be negative."]
    assert AMLRule.objects.get(pk=rule.pk).version == 1


def test_a_change_needs_a_reason_which_the_version_keeps(db):
    client, staff = login()
    rule = make()
    r = client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, reason="", name="Very large top-up"))
    assert r.status_code == 200 and "reason" in r.context["adminform"].form.errors
    r = client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, name="Very large top-up"))
    assert r.status_code == 302
    newest = rule.versions.order_by("-version").first()
    assert newest.version == 2 and newest.reason == "Quarterly review" and newest.changed_by == staff


def test_a_stale_description_is_refused_or_rewritten(db):
    client, _ = login()
    rule = make(amount=5000)
    r = client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, param_thresholdAmount="4000"))
    assert r.status_code == 200
    assert (
        "The description says E5,000 but the parameters say E4,000"
        in r.context["adminform"].form.errors["description"][0]
    )
    r = client.post(
        f"{RULES}{rule.pk}/change/", edit_body(rule, param_thresholdAmount="4000", generate_description="on")
    )
    assert r.status_code == 302
    rule.refresh_from_db()
    assert rule.conditions["thresholdAmount"] == 4000 and "E4,000" in rule.description


def test_the_history_shows_each_parameter_that_changed(db):
    client, _ = login()
    rule = make(description="Large transactions.")
    client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, param_thresholdAmount="4000", severity="HIGH"))
    page = client.get(f"{RULES}{rule.pk}/change/").content.decode()
    # each parameter by its label and its values in words (it was "conditions.thresholdAmount: 5000 → 4000")
    assert "Threshold amount: E5,000 → <strong>E4,000" in page
    assert "Severity: Medium → <strong>High" in page and "Quarterly review" in page


@pytest.fixture
def four_eyes(settings):
    settings.RULE_FOUR_EYES = True


def test_four_eyes_in_the_admin(db, four_eyes):
    proposer_client, proposer = login()
    rule = make(description="Large transactions.")
    r = proposer_client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, param_thresholdAmount="4000"), follow=True)
    assert "Change proposed for R-THR" in r.content.decode()
    assert AMLRule.objects.get(pk=rule.pk).conditions["thresholdAmount"] == 5000
    proposal = RuleProposal.objects.get(rule=rule)
    page = proposer_client.get(f"{RULES}{rule.pk}/change/").content.decode()
    assert 'data-testid="pending-proposals"' in page and "Threshold amount: E5,000 → E4,000" in page
    # the proposer cannot approve
    proposals = "/admin/compliance/ruleproposal/"
    approve = {"action": "approve_selected", "_selected_action": [proposal.pk]}
    reasoned = {**approve, "apply": "1", "reason": "Backtest: two more alerts a month"}
    r = proposer_client.post(proposals, reasoned, follow=True)
    assert "Four-eyes" in r.content.decode() or "cannot decide" in r.content.decode()
    assert RuleProposal.objects.get(pk=proposal.pk).status == "PENDING"
    # a second MLRO can
    other, approver = login()
    diff = "<td>Threshold amount</td><td>E5,000</td><td><strong>E4,000</strong>"
    assert diff in other.get(f"{proposals}{proposal.pk}/change/").content.decode()
    # the approval asks its reason first, as a rejection does: without one nothing is decided
    assert "Why the change is approved" in other.post(proposals, approve).content.decode()
    other.post(proposals, {**approve, "apply": "1"})
    assert RuleProposal.objects.get(pk=proposal.pk).status == "PENDING"
    other.post(proposals, reasoned)
    rule.refresh_from_db()
    assert rule.conditions["thresholdAmount"] == 4000 and rule.version == 2
    assert rule.versions.get(version=2).approved_by == approver
    assert RuleProposal.objects.get(pk=proposal.pk).decision_reason == "Backtest: two more alerts a month"


def test_rejecting_in_the_admin_needs_a_reason(db, four_eyes):
    proposer_client, _ = login()
    rule = make(description="Large transactions.")
    proposer_client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, severity="CRITICAL"))
    proposal = RuleProposal.objects.get(rule=rule)
    other, _ = login(StaffRole.ADMIN)
    url = "/admin/compliance/ruleproposal/"
    body = {"action": "reject_selected", "_selected_action": [proposal.pk]}
    assert other.post(url, body).status_code == 200  # the page asking why
    other.post(url, {**body, "apply": "1"})
    assert RuleProposal.objects.get(pk=proposal.pk).status == "PENDING"
    other.post(url, {**body, "apply": "1", "reason": "Too many alerts"})
    proposal.refresh_from_db()
    assert proposal.status == "REJECTED" and proposal.decision_reason == "Too many alerts"
    assert AMLRule.objects.get(pk=rule.pk).severity == "MEDIUM"


def test_officers_cannot_decide_or_change(db, four_eyes):
    mlro_client, _ = login()
    rule = make(description="Large transactions.")
    mlro_client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, severity="CRITICAL"))
    proposal = RuleProposal.objects.get(rule=rule)
    officer, _ = login(StaffRole.COMPLIANCE_OFFICER)
    assert officer.get("/admin/compliance/ruleproposal/").status_code == 200
    officer.post(
        "/admin/compliance/ruleproposal/",
        {"action": "approve_selected", "_selected_action": [proposal.pk], "apply": "1", "reason": "Looks right"},
    )
    assert RuleProposal.objects.get(pk=proposal.pk).status == "PENDING"
    assert officer.post(f"{RULES}{rule.pk}/change/", edit_body(rule, severity="LOW")).status_code == 403


def test_bulk_toggle_says_which_go_on_and_off_and_asks_before_disabling_a_grave_rule(db):
    client, _ = login()
    quiet = make(rule_id="R-OFF", active=False)
    grave = make(rule_id="R-HIGH", severity="HIGH")
    body = {"action": "toggle_selected", "_selected_action": [quiet.pk, grave.pk]}
    page = client.post(RULES, body).content.decode()
    assert 'data-testid="going-on"' in page and "R-OFF" in page
    assert 'data-testid="grave-warning"' in page and "R-HIGH" in page
    client.post(RULES, {**body, "apply": "1", "reason": "Tuning"})  # not confirmed: nothing happens
    assert AMLRule.objects.get(pk=grave.pk).is_active and not AMLRule.objects.get(pk=quiet.pk).is_active
    r = client.post(RULES, {**body, "apply": "1", "reason": "Tuning", "confirm_grave": "on"}, follow=True)
    text = r.content.decode()
    assert "Switched on: R-OFF." in text and "Switched off: R-HIGH." in text
    assert AMLRule.objects.get(pk=quiet.pk).is_active and not AMLRule.objects.get(pk=grave.pk).is_active
    assert AMLRule.objects.get(pk=grave.pk).versions.get(version=2).reason == "Tuning"


def test_bulk_toggle_with_four_eyes_reports_proposals(db, four_eyes):
    client, _ = login()
    quiet = make(rule_id="R-OFF", active=False)
    r = client.post(
        RULES, {"action": "toggle_selected", "_selected_action": [quiet.pk], "apply": "1", "reason": "Go"}, follow=True
    )
    assert "Proposed (waiting for a second person): R-OFF." in r.content.decode()
    assert not AMLRule.objects.get(pk=quiet.pk).is_active


def test_the_backtest_page_shows_what_the_rule_would_raise(db):
    client, _ = login(StaffRole.COMPLIANCE_OFFICER)
    rule = make(amount=1000)
    user = PlatformUserFactory(first_name="Thandi", last_name="Mamba")
    when = dt.datetime(2026, 5, 5, 10, 0, tzinfo=dt.UTC)
    TransactionFactory(user=user, amount=Decimal("1500"), type="TOP_UP", created_at=when)
    TransactionFactory(user=user, amount=Decimal("500"), type="TOP_UP", created_at=when)
    url = f"{RULES}{rule.pk}/backtest/"
    assert client.get(url).status_code == 200
    r = client.post(url, {"since": "2026-05-01T00:00", "until": "2026-05-31T00:00"})
    page = r.content.decode()
    assert 'data-testid="backtest-result"' in page and "Thandi Mamba" in page
    assert r.context["result"].hits and len(r.context["result"].hits) == 1
    # other parameters, typed on the page: the 500 top-up too, one added
    custom = {"since": "2026-05-01T00:00", "until": "2026-05-31T00:00", "proposal": "custom"}
    r = client.post(url, {**custom, "param_thresholdAmount": "400"})
    assert len(r.context["result"].hits) == 2 and len(r.context["result"].added) == 1
    r = client.post(url, {**custom, "param_thresholdAmount": "-4"})
    assert r.context["result"] is None
    assert r.context["form"].errors["param_thresholdAmount"] == ["Must not be negative."]


def test_snooze_from_the_admin_goes_through_the_service(db):
    client, staff = login()
    rule = make()
    user = PlatformUserFactory()
    expires = (dt.datetime.now(dt.UTC) + dt.timedelta(days=10)).strftime("%Y-%m-%d")
    r = client.post(
        "/admin/compliance/rulesnooze/add/",
        {
            "rule": rule.pk,
            "customer": user.phone_number,
            "expires_at_0": expires,
            "expires_at_1": "12:00:00",
            "reason": "Payroll",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    snooze = RuleSnooze.objects.get()
    assert snooze.created_by == staff and snooze.in_force and snooze.user == user
    client.post("/admin/compliance/rulesnooze/", {"action": "end_selected", "_selected_action": [snooze.pk]})
    snooze.refresh_from_db()
    assert not snooze.in_force


def test_a_snooze_page_shows_it_without_a_save_that_cannot_work(db):
    """A snooze is never edited (ended early by the list's action, or a new one made): its page has no Save button,
    which failed every time with "Please correct the errors below" (the add form's customer field, never shown)."""
    client, staff = login()
    snooze = rule_snooze(
        rule=make(),
        user=PlatformUserFactory(),
        actor=staff,
        expires_at=dt.datetime.now(dt.UTC) + dt.timedelta(days=7),
        reason="Known school-fee pattern",
    )
    url = f"/admin/compliance/rulesnooze/{snooze.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200 and "Known school-fee pattern" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()
    assert client.post(url, {"reason": "Edited"}).status_code == 403
    snooze.refresh_from_db()
    assert snooze.reason == "Known school-fee pattern"


def test_snooze_form_names_a_bad_customer_or_a_past_expiry(db):
    client, _ = login()
    rule = make()
    r = client.post(
        "/admin/compliance/rulesnooze/add/",
        {
            "rule": rule.pk,
            "customer": "+26800000000",
            "expires_at_0": "2020-01-01",
            "expires_at_1": "12:00:00",
            "reason": "Payroll",
        },
    )
    errors = r.context["adminform"].form.errors
    assert errors["customer"] == ["No customer with this phone number or id."]
    assert errors["expires_at"] == ["Must be in the future."]
    assert not RuleSnooze.objects.exists()


def test_the_dashboard_tells_another_mlro_a_change_awaits_them(db, four_eyes):
    proposer_client, _ = login()
    rule = make(description="Large transactions.")
    proposer_client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, severity="CRITICAL"))
    other, _ = login()
    page = other.get("/admin/").content.decode()
    assert "Rule changes awaiting my approval" in page
    cards = [c for c in other.get("/admin/").context["my_work"] if "Rule changes" in c["title"]]
    assert cards and cards[0]["value"] == 1
    mine = [c for c in proposer_client.get("/admin/").context["my_work"] if "Rule changes" in c["title"]]
    assert mine[0]["value"] == 0


def test_an_officer_sees_the_parameters_in_words(db):
    client, _ = login(StaffRole.COMPLIANCE_OFFICER)
    rule = make(amount=5000)
    page = client.get(f"{RULES}{rule.pk}/change/").content.decode()
    assert 'data-testid="rule-parameters"' in page
    assert '<th scope="row">Threshold amount</th><td>E5,000</td>' in page
    assert 'name="param_thresholdAmount"' not in page


def test_switching_off_a_grave_rule_in_its_form_needs_a_tick(db):
    client, _ = login()
    rule = make(severity="CRITICAL")
    r = client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, is_active=""))
    assert r.status_code == 200 and "confirm_disable" in r.context["adminform"].form.errors
    assert AMLRule.objects.get(pk=rule.pk).is_active
    r = client.post(f"{RULES}{rule.pk}/change/", edit_body(rule, is_active="", confirm_disable="on"))
    assert r.status_code == 302 and not AMLRule.objects.get(pk=rule.pk).is_active
