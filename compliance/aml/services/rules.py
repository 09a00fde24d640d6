"""Writes on AML rules: create, update, toggle, and loading the catalogue.

Every change raises the rule's ``version`` by one and keeps a frozen copy in
``AMLRuleVersion``, so an alert's ``rule_version`` always points at the text
that raised it.
"""

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from backoffice.errors import Conflict, ValidationFailed
from backoffice.services import Actor, lock_row, model_clean, versioned_update
from compliance.aml import events
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
    # uniqueness is the database's to refuse (a 409 on save), not a 400 here
    model_clean(rule, validate_unique=False, headlines={"priority": INVALID_PRIORITY})


def _keep_version(rule: AMLRule, actor: Actor, *, reason: str = "", approved_by: Actor = None) -> AMLRuleVersion:
    return AMLRuleVersion.objects.create(
        rule=rule,
        version=rule.version,
        snapshot=rule.snapshot(),
        changed_by=actor,
        reason=reason or "",
        approved_by=approved_by,
        approved_at=timezone.now() if approved_by is not None else None,
    )


def rule_check_changes(changes: dict[str, Any]) -> dict[str, Any]:
    """Refuse fields that cannot change and bad priority/severity values (400); returns the normalised changes."""
    unknown = sorted(set(changes) - set(AMLRule.UPDATABLE))
    if unknown:
        raise ValidationFailed(
            "Validation error", details={name: ["This field cannot be updated."] for name in unknown}
        )
    changes = dict(changes)
    if "priority" in changes:
        changes["priority"] = _check_priority(changes["priority"])
    if "severity" in changes:
        _check_severity(changes["severity"])
    return changes


def rule_validate_changes(rule: AMLRule, changes: dict[str, Any]) -> None:
    """Validate ``rule`` with ``changes`` applied, on a copy (the rule itself is left as it is)."""
    candidate = AMLRule(**{f.attname: getattr(rule, f.attname) for f in AMLRule._meta.concrete_fields})
    for name, value in changes.items():
        setattr(candidate, name, value)
    _full_clean(candidate)


@transaction.atomic
def rule_create(
    *,
    actor: Actor,
    rule_id: str,
    name: str,
    conditions: dict,
    description: str = "",
    category: str = "",
    actions: dict | None = None,
    severity: str = Severity.MEDIUM,
    is_active: bool = False,
    priority: int = 100,
    reason: str = "",
) -> AMLRule:
    """Create a rule at version 1 (``reason`` kept with it); a ruleId already taken is a 409."""
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
    _keep_version(rule, actor, reason=reason)
    events.rule_created(actor=actor, rule=rule)
    return rule


def _figures(value: Any) -> list[str]:
    """How a description writes an amount: "E50,000" (and "E50,000.00", "SZL 50,000"); none for a non-number."""
    if isinstance(value, bool):
        return []
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return []
    whole = f"{amount:,.0f}" if amount == amount.to_integral_value() else None
    written = [f"{amount:,.2f}"] + ([whole] if whole else [])
    return [f"{prefix}{figure}" for figure in written for prefix in ("E", "SZL ")]


def description_following(description: str, before: dict, after: dict) -> str:
    """``description`` with each changed parameter's old amount replaced by its new one ("E50,000" -> "E40,000"),
    so a rule's text never quotes a threshold it no longer has. A figure two changed parameters share, going two
    ways, is left alone (which one the text means is unknowable); a description without the figure is unchanged."""
    replacements: dict[str, str] = {}
    ambiguous: set[str] = set()
    for name, old in (before or {}).items():
        new = (after or {}).get(name)
        if new is None or new == old:
            continue
        new_figures = _figures(new)
        for old_figure in _figures(old):
            prefix = "E" if old_figure.startswith("E") else "SZL "
            decimals = "." in old_figure
            wanted = next(
                (f for f in new_figures if f.startswith(prefix) and ("." in f) == decimals),
                next((f for f in new_figures if f.startswith(prefix)), None),
            )
            if wanted is None:
                continue
            if replacements.get(old_figure, wanted) != wanted:
                ambiguous.add(old_figure)
            replacements[old_figure] = wanted
    for old_figure, new_figure in replacements.items():
        if old_figure in ambiguous:
            continue
        description = re.sub(rf"(?<![\w.]){re.escape(old_figure)}(?![\d,.]\d)", new_figure, description)
    return description


@transaction.atomic
def rule_update(
    *,
    rule: AMLRule,
    actor: Actor,
    changes: dict[str, Any],
    action: events.Action = events.Action.RULE_UPDATE,
    reason: str = "",
    approved_by: Actor = None,
) -> AMLRule:
    """Apply ``changes`` (model field names from AMLRule.UPDATABLE) as one new version, at once.

    Nothing changes, and no version is spent, when every value is already the
    current one. ``actor`` made (or proposed) the change; ``approved_by`` is
    the second person when it comes from an approved proposal. Callers that
    must honour four eyes go through ``compliance.aml.services.governance.rule_change``.
    """
    changes = rule_check_changes(changes)
    locked = lock_row(rule)
    if "conditions" in changes and changes.get("description", locked.description) == locked.description:
        # the text follows the new figures unless this change writes a description of its own
        changes["description"] = description_following(locked.description, locked.conditions, changes["conditions"])
    diff = versioned_update(locked, changes=changes, clean=_full_clean)
    if not diff:
        return locked
    _keep_version(locked, actor, reason=reason, approved_by=approved_by)
    events.rule_changed(
        action=action,
        actor=approved_by or actor,
        rule=locked,
        fields=diff,
        reason=reason,
        proposed_by=actor if approved_by is not None else None,
    )
    return locked


@transaction.atomic
def rule_toggle(*, rule: AMLRule, actor: Actor, reason: str = "") -> AMLRule:
    """Flip isActive at once, as a new version like any other change (four eyes: governance.rule_toggle_or_propose).

    The row is locked before it is read, so two toggles at once flip twice instead of both writing one value.
    """
    current = AMLRule.objects.select_for_update().values_list("is_active", flat=True).get(pk=rule.pk)
    return rule_update(
        rule=rule, actor=actor, changes={"is_active": not current}, action=events.Action.RULE_TOGGLE, reason=reason
    )
