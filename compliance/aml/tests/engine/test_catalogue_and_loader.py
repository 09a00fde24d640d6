"""The shipped catalogue: 43 valid rules in the 16 types, loaded idempotently, never clobbering edits."""

from collections import Counter
from io import StringIO

from django.core.management import call_command

from compliance.aml.engine.registry import CATALOGUE
from compliance.aml.models.governance import RuleProposal
from compliance.aml.models.parameters import validate_conditions
from compliance.aml.models.rules import AMLRule, AMLRuleVersion
from compliance.aml.services.rules import rule_update

EXPECTED = {
    "threshold": 3,
    "structuring": 2,
    "velocity": 2,
    "behavioral": 4,
    "pep_related": 3,
    "network_analysis": 3,
    "high_risk_transaction": 5,
    "pattern_detection": 4,
    "account_lifecycle": 3,
    "digital_wallet": 3,
    "mobile_money": 2,
    "vendor_specific": 3,
    "cft_related": 2,
    "regional_risk": 2,
    "regulatory_reporting": 1,
    "business_sector": 1,
}


def test_catalogue_has_43_rules_in_the_16_types_all_valid():
    assert len(CATALOGUE) == 43
    assert Counter(e["conditions"]["ruleType"] for e in CATALOGUE) == EXPECTED
    assert len({e["rule_id"] for e in CATALOGUE}) == 43
    for entry in CATALOGUE:
        assert validate_conditions(entry["conditions"]) == {}, entry["rule_id"]
        assert entry["severity"] in {"LOW", "MEDIUM", "HIGH", "CRITICAL"} and 0 <= entry["priority"] <= 1000


def _load(*args):
    out = StringIO()
    call_command("load_aml_rules", *args, stdout=out)
    return out.getvalue()


def test_loading_twice_changes_nothing(db):
    assert "43 created" in _load()
    stamps = dict(AMLRule.objects.values_list("rule_id", "updated_at"))
    assert "0 created, 0 restored, 0 given the catalogue's hold/block actions, 43 unchanged" in _load()
    assert dict(AMLRule.objects.values_list("rule_id", "updated_at")) == stamps
    assert AMLRuleVersion.objects.count() == 43


def test_an_officers_edit_survives_a_reload_and_reset_restores_it_as_a_new_version(db):
    _load()
    rule = AMLRule.objects.get(rule_id="AML-THR-001")
    rule_update(rule=rule, actor=None, changes={"conditions": {"ruleType": "threshold", "thresholdAmount": 75000}})
    _load()
    rule.refresh_from_db()
    assert rule.conditions["thresholdAmount"] == 75000 and rule.version == 2
    assert "1 restored" in _load("--reset")
    rule.refresh_from_db()
    assert rule.conditions["thresholdAmount"] == 50000 and rule.version == 3
    assert AMLRuleVersion.objects.get(rule=rule, version=2).snapshot["conditions"]["thresholdAmount"] == 75000


def test_under_four_eyes_a_reset_of_a_live_rule_is_a_proposal(db, settings):
    from compliance.aml.models.governance import RuleProposal

    settings.RULE_FOUR_EYES = True
    _load()
    rule = AMLRule.objects.get(rule_id="AML-THR-001")
    rule_update(rule=rule, actor=None, changes={"conditions": {"ruleType": "threshold", "thresholdAmount": 75000}})
    assert "1 proposed for approval" in _load("--reset")
    rule.refresh_from_db()
    assert rule.conditions["thresholdAmount"] == 75000 and rule.version == 2
    proposal = RuleProposal.objects.get(rule=rule)
    assert proposal.changes["conditions"]["thresholdAmount"] == 50000 and proposal.status == "PENDING"


def test_seed_demo_part_loads_the_catalogue_and_scans(demo_data):
    # on the seeded demo (backoffice.tests.demo_data), compliance's part once more
    from compliance.demo import seed

    out = StringIO()
    seed(out)
    assert AMLRule.objects.count() == 43 and "already there" in out.getvalue()
    # the demo's change waiting for a second MLRO can be decided: a proposal whose rule moved on since is closed
    # as superseded, never left PENDING to answer STALE_PROPOSAL to whoever approves it (issue 31)
    pending = list(RuleProposal.objects.filter(status="PENDING").select_related("rule"))
    assert pending and all(proposal.base_version == proposal.rule.version for proposal in pending)


def test_high_rules_hold_critical_rules_block_and_the_documented_exceptions_only_alert(db):
    _load()
    actions = {r.rule_id: (r.severity, r.hit_action) for r in AMLRule.objects.all()}
    assert {rid for rid, (sev, act) in actions.items() if sev == "CRITICAL"} == {
        rid for rid, (_sev, act) in actions.items() if act == "BLOCK"
    }
    high_alert_only = {rid for rid, (sev, act) in actions.items() if sev == "HIGH" and act == "ALERT"}
    assert high_alert_only == {"AML-RPT-001", "AML-HRT-002"}
    assert {act for rid, (sev, act) in actions.items() if sev == "HIGH" and rid not in high_alert_only} == {"HOLD"}
    assert all(act == "ALERT" for sev, act in actions.values() if sev in ("MEDIUM", "LOW"))


def test_the_loader_gives_unedited_rules_the_new_actions_and_keeps_an_officers_edit(db):
    from compliance.aml.engine.catalogue import previous_actions

    _load()
    for rule in AMLRule.objects.all():  # as loaded before rules could hold or block
        AMLRule.objects.filter(pk=rule.pk).update(actions=previous_actions(rule.severity))
    edited = AMLRule.objects.get(rule_id="AML-THR-002")
    rule_update(rule=edited, actor=None, changes={"actions": {"createAlert": True, "hold": True}})
    out = _load()
    assert "12 given the catalogue's hold/block actions" in out
    assert AMLRule.objects.get(rule_id="AML-THR-001").hit_action == "HOLD"
    assert AMLRule.objects.get(rule_id="AML-THR-001").version == 2
    assert AMLRule.objects.get(rule_id="AML-THR-002").hit_action == "HOLD"
    assert "0 given" in _load()
