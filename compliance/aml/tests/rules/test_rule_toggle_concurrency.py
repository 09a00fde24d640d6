"""Two MLROs toggling one rule at once, on PostgreSQL: the lock makes both flips count."""

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.rules import AMLRule
from compliance.aml.services.rules import rule_create, rule_toggle

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_simultaneous_toggles_flip_twice_and_spend_two_versions():
    mlros = [StaffFactory(role=StaffRole.MLRO) for _ in range(2)]
    rule = rule_create(
        actor=mlros[0],
        rule_id="T-TOGGLE",
        name="Toggle race",
        conditions={"ruleType": "threshold", "thresholdAmount": 100},
    )
    outcomes = run_in_threads(2, lambda i: rule_toggle(rule=AMLRule.objects.get(pk=rule.pk), actor=mlros[i]))
    assert not [o for o in outcomes if isinstance(o, Exception)]
    stored = AMLRule.objects.get(pk=rule.pk)
    assert stored.is_active is False and stored.version == 3
    assert sorted(o.is_active for o in outcomes) == [False, True]
