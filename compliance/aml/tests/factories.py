"""Rules and alerts as rows, for tests that need them as they stand (the engine and services make real ones)."""

import hashlib
import uuid

import factory

from compliance.aml.choices import AlertStatus, AlertType, RuleType
from compliance.aml.models import Alert, AMLRule
from compliance.casework.choices import Severity
from kyc.tests.factories import PlatformUserFactory


class AMLRuleFactory(factory.django.DjangoModelFactory):
    """An active threshold rule (10 SZL unless ``conditions`` says otherwise)."""

    class Meta:
        model = AMLRule

    rule_id = factory.Sequence(lambda n: f"T-RULE-{n:04d}")
    name = factory.LazyAttribute(lambda o: f"Test rule {o.rule_id}")
    rule_type = RuleType.THRESHOLD
    conditions = factory.LazyAttribute(lambda o: {"ruleType": o.rule_type, "thresholdAmount": 10})
    severity = Severity.MEDIUM
    is_active = True


class AlertFactory(factory.django.DjangoModelFactory):
    """An open rule alert on a new user, with its own dedup key; ``rule=None`` with another ``alert_type``."""

    class Meta:
        model = Alert

    alert_type = AlertType.RULE
    rule = factory.Maybe(
        factory.LazyAttribute(lambda o: o.alert_type == AlertType.RULE), factory.SubFactory(AMLRuleFactory), None
    )
    rule_version = factory.LazyAttribute(lambda o: o.rule.version if o.rule else None)
    user = factory.SubFactory(PlatformUserFactory)
    severity = Severity.MEDIUM
    status = AlertStatus.OPEN
    details = factory.LazyFunction(dict)
    dedup_key = factory.LazyFunction(lambda: hashlib.sha256(uuid.uuid4().bytes).hexdigest())
