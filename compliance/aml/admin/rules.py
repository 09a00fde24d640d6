"""AML rules in the admin site: list with filters, edit through the services, read-only version history."""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from unfold.admin import ModelAdmin, TabularInline

from backoffice.admin_base import ServiceErrorsAdminMixin
from backoffice.errors import DomainError
from compliance.aml.engine.parameters import validate_actions, validate_conditions
from compliance.aml.models.rules import AMLRule, AMLRuleVersion
from compliance.aml.services import rules as services


class AMLRuleForm(forms.ModelForm):
    class Meta:
        model = AMLRule
        fields = (
            "rule_id",
            "name",
            "description",
            "category",
            "severity",
            "priority",
            "is_active",
            "conditions",
            "actions",
        )
        help_texts = {
            "conditions": "JSON with ruleType and its parameters; see docs/aml-rules.md.",
            "actions": 'JSON. "hold": true holds a hit transaction for review before the money moves; '
            '"block": true refuses it (stronger); neither: the hit only raises its alert. '
            '"createAlert": false makes the rule log-only.',
        }

    def clean_actions(self):
        actions = self.cleaned_data.get("actions")
        errors = validate_actions(actions)
        if errors:
            raise ValidationError([msg for msgs in errors.values() for msg in msgs])
        return actions

    def clean_conditions(self):
        conditions = self.cleaned_data.get("conditions")
        errors = validate_conditions(conditions)
        if errors:
            raise ValidationError(
                [f"{key.removeprefix('conditions.')}: {' '.join(msgs)}" for key, msgs in errors.items()]
            )
        return conditions

    def clean_priority(self):
        priority = self.cleaned_data.get("priority")
        if priority is not None and not 0 <= priority <= AMLRule.MAX_PRIORITY:
            raise ValidationError("Invalid priority value (0 to 1000).")
        return priority


class AMLRuleVersionInline(TabularInline):
    model = AMLRuleVersion
    verbose_name = "version"
    verbose_name_plural = "Version history"
    extra = 0
    can_delete = False
    fields = ("version", "changed_by", "created_at", "snapshot_text")
    readonly_fields = fields
    ordering = ("-version",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("changed_by")

    @admin.display(description="Rule text at this version")
    def snapshot_text(self, obj):
        return json.dumps(obj.snapshot, indent=1, sort_keys=True)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AMLRule)
class AMLRuleAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    """Officers read the rules; MLROs and admins change them. Every change is a new version."""

    form = AMLRuleForm
    list_display = (
        "rule_id",
        "name",
        "rule_type",
        "severity",
        "on_hit",
        "is_active",
        "priority",
        "version",
        "updated_at",
    )
    list_filter = ("rule_type", "is_active", "severity")
    search_fields = ("rule_id", "name", "description", "category")

    @admin.display(description="On a hit")
    def on_hit(self, obj):
        return {"BLOCK": "Block", "HOLD": "Hold for review", "ALERT": "Alert only"}[obj.hit_action]

    ordering = ("priority", "rule_id")
    readonly_fields = ("rule_type", "version", "created_at", "updated_at")
    inlines = [AMLRuleVersionInline]
    actions = ["toggle_selected"]

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return (*fields, "rule_id") if obj else fields

    def save_model(self, request, obj, form, change):
        if change:
            changes = {f: form.cleaned_data[f] for f in form.changed_data if f in AMLRule.UPDATABLE}
            services.rule_update(rule=obj, actor=request.user, changes=changes)
            obj.refresh_from_db()
            return
        created = services.rule_create(
            actor=request.user,
            rule_id=obj.rule_id,
            name=obj.name,
            conditions=obj.conditions,
            description=obj.description,
            category=obj.category,
            actions=obj.actions or {},
            severity=obj.severity,
            is_active=obj.is_active,
            priority=obj.priority,
        )
        obj.pk = created.pk
        obj._state.adding = False

    @admin.action(description="Enable / disable the selected rules", permissions=["change"])
    def toggle_selected(self, request, queryset):
        done = 0
        for rule in queryset:
            try:
                services.rule_toggle(rule=rule, actor=request.user)
                done += 1
            except DomainError as exc:
                self.message_user(request, f"{rule.rule_id}: {exc.message}", messages.ERROR)
        self.message_user(request, f"{done} rule(s) switched.", messages.SUCCESS)

    def has_delete_permission(self, request, obj=None):
        # alerts point at rules and their versions; switch a rule off instead of deleting it
        return False
