import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from backoffice.jsondepth import BoundedJSONField
from compliance.aml.choices import RuleType
from compliance.aml.models.parameters import validate_actions, validate_conditions
from compliance.casework.choices import Severity


class AMLRule(models.Model):
    """A detection rule: its type and parameters live in ``conditions``.

    ``version`` increases on every change, and each version is kept as an
    ``AMLRuleVersion`` so an alert can say exactly which rule text raised it.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    rule_id = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, default="")
    category = models.CharField(max_length=64, blank=True, default="")
    rule_type = models.CharField(max_length=32, choices=RuleType.choices, db_index=True)
    conditions = BoundedJSONField()
    actions = BoundedJSONField(default=dict, blank=True)
    severity = models.CharField(max_length=8, choices=Severity.choices, default=Severity.MEDIUM)
    is_active = models.BooleanField(default=False, db_index=True)
    priority = models.PositiveSmallIntegerField(default=100)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "compliance"
        ordering = ["priority", "rule_id"]
        verbose_name = "AML rule"

    def __str__(self):
        return f"{self.rule_id} {self.name}"

    # Fields an officer may change after creation (the interface's updatable fields).
    UPDATABLE = ("name", "category", "severity", "description", "conditions", "actions", "is_active", "priority")
    MAX_PRIORITY = 1000

    def clean(self):

        errors = validate_conditions(self.conditions)
        if errors:
            raise ValidationError(errors)
        self.rule_type = self.type_of(self.conditions)
        if not 0 <= (self.priority or 0) <= self.MAX_PRIORITY:
            raise ValidationError({"priority": "Invalid priority value"})
        errors = validate_actions(self.actions)
        if errors:
            raise ValidationError(errors)

    @staticmethod
    def type_of(conditions) -> str:
        """The rule type that ``conditions`` (the interface's JSON) declares; empty when it declares none."""
        return conditions.get("ruleType", "") if isinstance(conditions, dict) else ""

    def snapshot(self) -> dict:
        """The rule's text at this version, as kept in AMLRuleVersion: the model's field names (snake_case), the
        conditions and actions as the rule holds them (the interface's documents, camelCase inside)."""
        return {
            "rule_id": self.rule_id,
            "name": self.name,
            "description": self.description,
            "category": self.category,
            "rule_type": self.rule_type,
            "conditions": self.conditions,
            "actions": self.actions,
            "severity": self.severity,
            "is_active": self.is_active,
            "priority": self.priority,
            "version": self.version,
        }

    @property
    def hit_action(self) -> str:
        """What a hit of this rule asks for before the money moves: BLOCK, HOLD or only its ALERT."""
        actions = self.actions or {}
        if actions.get("block") is True:
            return "BLOCK"
        if actions.get("hold") is True:
            return "HOLD"
        return "ALERT"

    @property
    def creates_alerts(self) -> bool:
        # actions.createAlert false makes a rule log-only (the interface's LOW behaviour, by choice)
        return bool((self.actions or {}).get("createAlert", True))


class AMLRuleVersion(models.Model):
    """A frozen copy of a rule as it was at one version, with who proposed it, who approved it and why.

    ``changed_by`` proposed the change (or made it directly when four eyes
    were off or not needed); ``approved_by``/``approved_at`` are set only when
    a second person approved a proposal (``RuleProposal``) into this version.
    """

    id = models.BigAutoField(primary_key=True)
    rule = models.ForeignKey(AMLRule, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    snapshot = models.JSONField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True, default="")
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "compliance"
        ordering = ["rule", "-version"]
        constraints = [models.UniqueConstraint(fields=["rule", "version"], name="aml_rule_version_unique")]

    def __str__(self):
        return f"{self.rule_id} v{self.version}"
