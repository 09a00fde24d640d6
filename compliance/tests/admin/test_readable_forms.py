"""Issue 31, item 4: no raw JSON, codes or UUIDs in the admin's forms and titles.

A PEP's additional info as name/value rows and its country from one list ("Eswatini" and "SZ" are both SZ); a
rule's actions as alert / hold / block; a reordered list of choices is no change; titles of proposals, snoozes
and credit history rows in words; the threshold-report card's deadline in days, not a setting's name."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backoffice.admin.fields import CountryField, KeyValueField
from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.governance import RuleSnooze
from compliance.aml.models.rules import AMLRule
from compliance.aml.selectors.rules import diff_summary, snapshot_diff
from compliance.aml.services.governance import rule_change, rule_snooze
from compliance.aml.services.rules import rule_create
from compliance.peps.models.pep import PEP
from compliance.peps.tests.helpers import inline_management
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-", re.IGNORECASE)


def signed_in(role) -> Client:
    client = Client()
    client.force_login(StaffFactory(role=role))
    return client


def test_one_country_list_saves_a_name_or_a_code_as_the_code():
    field = CountryField()
    assert field.clean("SZ") == "SZ"
    assert dict(field.choices)["SZ"] == "Eswatini (SZ)"
    assert field.prepare_value("Eswatini") == "SZ" and field.prepare_value("Swaziland") == "SZ"


def test_name_value_rows_make_the_object_and_keep_what_was_not_text():
    field = KeyValueField(required=False)
    field.initial = {"since": 2019, "party": "Tinkhundla"}
    assert field.clean([("since", "2019"), ("party", "Tinkhundla"), ("", "")]) == {"since": 2019, "party": "Tinkhundla"}
    assert field.clean([("since", "2020"), ("note", " gazette 12 ")]) == {"since": "2020", "note": "gazette 12"}
    with pytest.raises(Exception, match="twice"):
        field.clean([("a", "1"), ("a", "2")])


def test_the_pep_form_has_rows_and_a_country_list_not_json_or_free_text():
    client = signed_in(StaffRole.COMPLIANCE_OFFICER)
    add = reverse("admin:compliance_pep_add")
    page = client.get(add).content.decode()
    assert 'name="additional_info"' not in page and 'name="additional_info-key-0"' in page
    assert '<select name="country"' in page and '<option value="SZ">Eswatini (SZ)</option>' in page
    response = client.post(
        add,
        {
            **inline_management(client.get(add)),
            "name": "Sandile Tfwala",
            "category": "Government Official",
            "position": "Minister",
            "country": "SZ",
            "is_active": "on",
            "additional_info-key-0": "party",
            "additional_info-value-0": "Tinkhundla",
            "additional_info-key-1": "",
            "additional_info-value-1": "",
            "_save": "1",
        },
    )
    assert response.status_code == 302
    pep = PEP.objects.get(name="Sandile Tfwala")
    assert pep.country == "SZ" and pep.additional_info == {"party": "Tinkhundla"}
    # a PEP stored with the country's name opens on its code
    pep.country = "Eswatini"
    pep.save(update_fields=["country"])
    page = client.get(reverse("admin:compliance_pep_change", args=[pep.pk])).content.decode()
    assert '<option value="SZ" selected>Eswatini (SZ)</option>' in page


def _rule(**conditions) -> AMLRule:
    return rule_create(
        actor=StaffFactory(role=StaffRole.MLRO),
        rule_id="R-READ",
        name="Large",
        conditions={"ruleType": "threshold", "thresholdAmount": 5000, **conditions},
        actions={"createAlert": True},
        is_active=False,
    )


def test_a_rules_actions_are_alert_hold_or_block_choices():
    aml_rule = _rule()
    client = signed_in(StaffRole.MLRO)
    url = reverse("admin:compliance_amlrule_change", args=[aml_rule.pk])
    page = client.get(url).content.decode()
    assert 'name="actions"' not in page and 'type="radio" name="on_hit" value="HOLD"' in page
    body = {
        "name": aml_rule.name,
        "severity": aml_rule.severity,
        "priority": aml_rule.priority,
        "description": aml_rule.description,
        "param_thresholdAmount": "5000",
        "on_hit": "HOLD",
        "create_alert": "on",
        "reason": "Hold large ones",
    }
    assert client.post(url, body).status_code == 302
    aml_rule.refresh_from_db()
    assert aml_rule.actions == {"createAlert": True, "hold": True} and aml_rule.hit_action == "HOLD"
    client.post(url, {**body, "on_hit": "BLOCK"})
    aml_rule.refresh_from_db()
    assert aml_rule.actions == {"createAlert": True, "hold": False, "block": True}


def test_the_same_choices_in_another_order_are_no_change():
    before = {"conditions": {"ruleType": "threshold", "transactionTypes": ["WITHDRAWAL", "TRANSFER_OUT"]}}
    after = {"conditions": {"ruleType": "threshold", "transactionTypes": ["TRANSFER_OUT", "WITHDRAWAL"]}}
    assert snapshot_diff(before, after) == [] and diff_summary([]) == "No change"
    changed = {"conditions": {"ruleType": "threshold", "transactionTypes": ["TOP_UP"]}}
    assert diff_summary(snapshot_diff(before, changed)) == "Transaction types: Withdrawal, Transfer out → Top-up"
    # the form keeps the stored order when the same boxes are ticked: saving it proposes nothing
    aml_rule = _rule(transactionTypes=["WITHDRAWAL", "TRANSFER_OUT"])
    client = signed_in(StaffRole.MLRO)
    url = reverse("admin:compliance_amlrule_change", args=[aml_rule.pk])
    body = {
        "name": aml_rule.name,
        "severity": aml_rule.severity,
        "priority": aml_rule.priority,
        "description": "Withdrawals and transfers out of E5,000 or more.",
        "param_thresholdAmount": "5000",
        "param_transactionTypes": ["TRANSFER_OUT", "WITHDRAWAL"],
        "reason": "Saved as it is",
    }
    client.post(url, body)  # the description written: version 2
    aml_rule.refresh_from_db()
    assert aml_rule.version == 2 and aml_rule.conditions["transactionTypes"] == ["WITHDRAWAL", "TRANSFER_OUT"]
    client.post(url, body)  # the same boxes ticked again (the form sends them in its own order): nothing to save
    aml_rule.refresh_from_db()
    assert aml_rule.version == 2


def test_titles_of_proposals_snoozes_and_credit_steps_have_no_uuid(settings):
    from kyc.models import CreditRequest, CreditRequestEvent

    settings.RULE_FOUR_EYES = True
    aml_rule = _rule()
    mlro = StaffFactory(role=StaffRole.MLRO)
    rule_change(rule=aml_rule, actor=mlro, changes={"is_active": True}, reason="On")
    proposal = aml_rule.proposals.get()
    assert str(proposal) == "Change to R-READ on version 1 (pending approval)"
    customer = PlatformUserFactory(first_name="Sipho", last_name="Dube")
    snooze = rule_snooze(
        rule=aml_rule, user=customer, actor=mlro, expires_at=timezone.now() + dt.timedelta(days=3), reason="School"
    )
    assert str(RuleSnooze.objects.get(pk=snooze.pk)).startswith("R-READ snoozed for Sipho Dube until ")
    credit = CreditRequest.objects.create(
        user=customer, amount=Decimal("10"), reason="r", requested_by=mlro, fingerprint="f"
    )
    step = CreditRequestEvent.objects.create(credit_request=credit, to_status="PENDING", actor=mlro)
    for text in (str(proposal), str(snooze), str(step)):
        assert not UUID.search(text), text
    page = signed_in(StaffRole.MLRO).get(reverse("admin:compliance_ruleproposal_change", args=[proposal.pk]))
    assert not UUID.search(re.search(r"<title>(.*?)</title>", page.content.decode(), re.S).group(1))


def test_the_overdue_threshold_card_says_the_deadline_in_days(settings):
    settings.CTR_FILING_DAYS = 14
    page = signed_in(StaffRole.MLRO).get(reverse("admin:index")).content.decode()
    assert "(CTR_FILING_DAYS)" not in page and "14 days after the day of the cash" in page


def test_a_service_keys_scopes_read_as_words_and_are_ticked_on_the_form():
    from backoffice.services.service_keys import service_key_create

    client = signed_in(StaffRole.ADMIN)
    form = client.get(reverse("admin:backoffice_servicekey_add")).content.decode()
    assert 'type="checkbox" name="scopes" value="transactions.record"' in form and "<textarea" not in form
    made = service_key_create(name="cards", scopes=["transactions.screen"], actor=StaffFactory())
    page = client.get(reverse("admin:backoffice_servicekey_change", args=[made.service_key.pk])).content.decode()
    assert "Screen a transaction without recording it" in page and "[&quot;transactions" not in page
