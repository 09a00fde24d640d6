"""Writes on AML rules: create, update, toggle, and loading the catalogue.

Every change raises the rule's ``version`` by one and keeps a frozen copy in
``AMLRuleVersion``, so an alert's ``rule_version`` always points at the text
that raised it.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from backoffice.errors import Conflict, ValidationFailed, django_validation_details
from backoffice.services import audit_record
from compliance.aml.models.rules import AMLRule, AMLRuleVersion
from compliance.casework.choices import Severity

INVALID_PRIORITY = "Invalid priority value"


def _check_priority(priority: Any) -> int:
    if isinstance(priority, bool) or not isinstance(priority, (int, float)) or int(priority) != priority:
        raise ValidationFailed(INVALID_PRIORITY, details={"priority": ["Must be an integer from 0 to 1000."]})
    if not 0 <= priority <= AMLRule.MAX_PRIORITY:
        raise ValidationFailed(INVALID_PRIORITY, details={"priority": ["Must be an integer from 0 to 1000."]})
    return int(priority)


def _check_severity(severity: Any) -> str:
    if severity not in Severity.values:
        raise ValidationFailed(
            "Validation error", details={"severity": [f"Must be one of {', '.join(Severity.values)}."]}
        )
    return severity


def _full_clean(rule: AMLRule) -> None:
    try:
        rule.full_clean(validate_unique=False)
    except ValidationError as exc:
        details = django_validation_details(exc)
        if "priority" in details:
            raise ValidationFailed(INVALID_PRIORITY, details=details) from None
        raise ValidationFailed("Validation error", details=details) from None


def _keep_version(rule: AMLRule, actor) -> AMLRuleVersion:
    return AMLRuleVersion.objects.create(rule=rule, version=rule.version, snapshot=rule.snapshot(), changed_by=actor)


@transaction.atomic
def rule_create(
    *,
    actor,
    rule_id: str,
    name: str,
    conditions: dict,
    description: str = "",
    category: str = "",
    actions: dict | None = None,
    severity: str = Severity.MEDIUM,
    is_active: bool = False,
    priority: int = 100,
) -> AMLRule:
    """Create a rule at version 1; a ruleId already taken is a 409."""
    priority = _check_priority(priority)
    severity = _check_severity(severity)
    rule_id = (rule_id or "").strip()
    if AMLRule.objects.filter(rule_id=rule_id).exists():
        raise Conflict("A rule with this ruleId already exists", details={"rule_id": ["Already exists."]})
    rule = AMLRule(
        rule_id=rule_id,
        name=name,
        conditions=conditions,
        description=description or "",
        category=category or "",
        actions=actions if actions is not None else {},
        severity=severity,
        is_active=is_active,
        priority=priority,
        version=1,
        rule_type=AMLRule.type_of(conditions),
    )
    _full_clean(rule)
    try:
        with transaction.atomic():
            rule.save()
    except IntegrityError:
        raise Conflict("A rule with this ruleId already exists", details={"rule_id": ["Already exists."]}) from None
    _keep_version(rule, actor)
    audit_record(
        actor=actor,
        action="aml_rule.create",
        object_type="aml_rule",
        object_id=rule.pk,
        changes={"rule_id": rule.rule_id, "version": 1, "snapshot": rule.snapshot()},
    )
    return rule


@transaction.atomic
def rule_update(*, rule: AMLRule, actor, changes: dict[str, Any], action: str = "aml_rule.update") -> AMLRule:
    """Apply ``changes`` (model field names from AMLRule.UPDATABLE) as one new version.

    Nothing changes, and no version is spent, when every value is already the current one.
    """
    unknown = sorted(set(changes) - set(AMLRule.UPDATABLE))
    if unknown:
        raise ValidationFailed(
            "Validation error", details={name: ["This field cannot be updated."] for name in unknown}
        )
    if "priority" in changes:
        changes["priority"] = _check_priority(changes["priority"])
    if "severity" in changes:
        _check_severity(changes["severity"])
    locked = AMLRule.objects.select_for_update().get(pk=rule.pk)
    before = {name: getattr(locked, name) for name in changes}
    diff = {name: [before[name], value] for name, value in changes.items() if before[name] != value}
    if not diff:
        return locked
    for name, value in changes.items():
        setattr(locked, name, value)
    _full_clean(locked)
    locked.version += 1
    locked.save()
    _keep_version(locked, actor)
    audit_record(
        actor=actor,
        action=action,
        object_type="aml_rule",
        object_id=locked.pk,
        changes={"rule_id": locked.rule_id, "version": locked.version, "fields": diff},
    )
    return locked


@transaction.atomic
def rule_toggle(*, rule: AMLRule, actor) -> AMLRule:
    """Flip isActive, as a new version like any other change.

    The row is locked before it is read, so two toggles at once flip twice instead of both writing one value.
    """
    current = AMLRule.objects.select_for_update().values_list("is_active", flat=True).get(pk=rule.pk)
    return rule_update(rule=rule, actor=actor, changes={"is_active": not current}, action="aml_rule.toggle")


@transaction.atomic
def rule_catalogue_load(*, actor=None, reset: bool = False) -> dict[str, int]:
    """Load the shipped catalogue (compliance.aml.catalogue.CATALOGUE) idempotently.

    Missing rules are created (inactive or active as the catalogue says).
    Existing rules are left alone, even when an officer edited them, unless
    ``reset`` is given: then a rule whose text differs from the catalogue is
    restored to it as a new version (its history keeps the officer's edit).
    Rules that still carry the actions the catalogue shipped before decisions
    existed (never edited) get the catalogue's hold/block actions, as a new
    version (``aml_rule.catalogue_upgrade``); an officer's edited actions stay.
    Returns counts: created, reset, upgraded, unchanged.
    """
    from compliance.aml.catalogue import CATALOGUE, previous_actions

    counts = {"created": 0, "reset": 0, "upgraded": 0, "unchanged": 0}
    existing = {r.rule_id: r for r in AMLRule.objects.filter(rule_id__in=[e["rule_id"] for e in CATALOGUE])}
    for entry in CATALOGUE:
        rule_id, fields = entry["rule_id"], {k: v for k, v in entry.items() if k != "rule_id"}
        rule = existing.get(rule_id)
        if rule is None:
            rule_create(actor=actor, rule_id=rule_id, **fields)
            counts["created"] += 1
        elif reset and any(getattr(rule, name) != value for name, value in fields.items()):
            rule_update(rule=rule, actor=actor, changes=fields, action="aml_rule.reset")
            counts["reset"] += 1
        elif rule.actions == previous_actions(rule.severity) and rule.actions != fields["actions"]:
            rule_update(
                rule=rule, actor=actor, changes={"actions": fields["actions"]}, action="aml_rule.catalogue_upgrade"
            )
            counts["upgraded"] += 1
        else:
            counts["unchanged"] += 1
    return counts
