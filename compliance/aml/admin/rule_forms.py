"""The admin's rule form: one input per parameter of the rule's type, generated from the parameter schema.

``compliance.aml.models.parameters`` is the one schema: it declares each
type's parameters (``PARAMETERS``), how they are shown (``LABELS``) and it
validates them (``validate_conditions``). This module only turns its entries
into form fields and the fields back into the interface's ``conditions`` JSON;
every rule about a value (negative, zero, unknown choice) stays the schema's,
so the form and the API can never disagree.
"""

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError

from compliance.aml.choices import RuleType
from compliance.aml.models.parameters import (
    LABELS,
    Label,
    Param,
    describe,
    description_mismatches,
    parameters_of,
)
from compliance.aml.models.rules import AMLRule
from compliance.aml.selectors.rules import rule_is_active, same_value

PREFIX = "param_"
NUMERIC = ("amount", "window", "count", "percent", "percent100")
LISTS = ("strings", "countries")


def field_name(parameter: str) -> str:
    return f"{PREFIX}{parameter}"


def _label(name: str, param: Param) -> tuple[str, str]:
    label = LABELS.get(name, Label(name))
    unit = f" ({label.unit})" if label.unit else ""
    optional = "" if param.required else " (optional)"
    return f"{label.label}{unit}{optional}", label.help


def parameter_field(name: str, param: Param) -> forms.Field:
    """The form field of one parameter; its value rules are left to the schema's validation."""
    label, help_text = _label(name, param)
    common = {"label": label, "help_text": help_text, "required": False}
    if param.kind in NUMERIC:
        return forms.DecimalField(widget=forms.NumberInput(attrs={"step": "any"}), **common)
    if param.kind == "boolean":
        return forms.BooleanField(**common)
    if param.kind == "choices":
        return forms.MultipleChoiceField(
            choices=[(c, param.words(c)) for c in param.choices], widget=forms.CheckboxSelectMultiple, **common
        )
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), **common)


def initial_value(param: Param, value):
    if value is None:
        return None
    if param.kind in LISTS and isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return value


def json_number(value: Decimal):
    """A form's Decimal as the JSON number the API would have sent (5000, not "5000.00")."""
    return int(value) if value == value.to_integral_value() else float(value)


def json_value(param: Param, value):
    """A cleaned form value as the conditions JSON holds it; None means "not given"."""
    if param.kind in NUMERIC:
        return None if value is None else json_number(value)
    if param.kind == "boolean":
        return True if value else None
    if param.kind == "choices":
        return list(value) or None
    items = [part.strip() for line in (value or "").splitlines() for part in line.split(",")]
    return [item for item in items if item] or None


ON_HIT = [
    ("ALERT", "Alert: raise an alert, the money moves"),
    ("HOLD", "Hold: keep the transaction for an officer's review before any money moves"),
    ("BLOCK", "Block: refuse the transaction"),
]


def actions_from(base: dict, *, on_hit: str, create_alert: bool, notify: bool) -> dict:
    """The rule's ``actions`` JSON from the form's choices; keys the form does not show are kept, and a flag the
    rule never had is written only when it says something (so an unchanged form changes nothing)."""
    actions = dict(base or {})
    wanted = {
        "hold": on_hit == "HOLD",
        "block": on_hit == "BLOCK",
        "createAlert": create_alert,
        "notifyCompliance": notify,
    }
    defaults = {"hold": False, "block": False, "createAlert": True, "notifyCompliance": False}
    for name, value in wanted.items():
        if name in actions or value != defaults[name]:
            actions[name] = value
    return actions


class AMLRuleForm(forms.ModelForm):
    """Create or edit a rule of one type (``rule_type`` is set on the generated subclass, see ``form_for``)."""

    rule_type: str = ""

    on_hit = forms.ChoiceField(
        choices=ON_HIT, initial="ALERT", widget=forms.RadioSelect, label="On a hit", required=False
    )
    create_alert = forms.BooleanField(
        required=False,
        initial=True,
        label="Raise an alert for each hit",
        help_text="Unticked, the rule only logs its hits (no alert for an officer).",
    )
    notify_compliance = forms.BooleanField(required=False, label="Tell the compliance team")

    generate_description = forms.BooleanField(
        required=False, label="Write the description from the parameters", help_text=""
    )
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Reason for the change",
        help_text="Kept with the new version and shown in its history (required when editing).",
    )

    confirm_disable = forms.BooleanField(
        required=False,
        label="Yes, switch off this HIGH or CRITICAL rule",
        help_text="Needed only when switching off a HIGH or CRITICAL rule.",
    )

    class Meta:
        model = AMLRule
        fields = ("rule_id", "name", "description", "category", "severity", "priority", "is_active")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.editing = not self.instance._state.adding
        if self.editing:
            self.fields["reason"].required = True
        current = self.instance.conditions if self.editing and self.instance.rule_type == self.rule_type else {}
        self.base_conditions = dict(current or {})
        self.base_actions = dict(self.instance.actions or {}) if self.editing else {}
        if self.editing:
            self.fields["on_hit"].initial = self.instance.hit_action
            self.fields["create_alert"].initial = self.instance.creates_alerts
            self.fields["notify_compliance"].initial = bool(self.base_actions.get("notifyCompliance"))
        for name, param in parameters_of(self.rule_type).items():
            self.fields[field_name(name)].initial = initial_value(param, self.base_conditions.get(name))
        generated = describe(self.base_conditions) if self.base_conditions else ""
        if generated:
            self.fields["generate_description"].help_text = f"Now: “{generated}”"
        if "description" in self.fields:
            self.fields["description"].help_text = (
                "Left empty, it is written from the parameters. A description naming an amount "
                "the parameters no longer have is refused."
            )

    def _check_disable(self, cleaned) -> None:
        was_active = self.editing and rule_is_active(self.instance.pk)
        grave = cleaned.get("severity") in ("HIGH", "CRITICAL") or self.initial.get("severity") in ("HIGH", "CRITICAL")
        if was_active and not cleaned.get("is_active") and grave and not cleaned.get("confirm_disable"):
            self.add_error("confirm_disable", "Confirm that this HIGH or CRITICAL rule is to be switched off.")

    def conditions(self) -> dict:
        """The interface's conditions JSON from the parameter inputs (keys the form does not show are kept)."""
        conditions = {k: v for k, v in self.base_conditions.items() if k in ("description",)}
        conditions["ruleType"] = self.rule_type
        for name, param in parameters_of(self.rule_type).items():
            value = json_value(param, self.cleaned_data.get(field_name(name)))
            if isinstance(value, list) and same_value(value, self.base_conditions.get(name)):
                value = self.base_conditions[name]  # the same choices ticked: keep their order, no spurious change
            if value is not None:
                conditions[name] = value
        return conditions

    def clean(self):
        cleaned = super().clean()
        self._check_disable(cleaned)
        conditions = self.conditions()
        self.instance.conditions = conditions
        if cleaned.get("on_hit"):  # a post without the choices (a script's) leaves the actions as they are
            self.instance.actions = actions_from(
                self.base_actions,
                on_hit=cleaned["on_hit"],
                create_alert=bool(cleaned.get("create_alert")),
                notify=bool(cleaned.get("notify_compliance")),
            )
        self.instance.rule_type = self.rule_type
        description = (cleaned.get("description") or "").strip()
        if cleaned.get("generate_description") or not description:
            cleaned["description"] = describe(conditions)
            self.instance.description = cleaned["description"]
        else:
            for problem in description_mismatches(description, conditions):
                self.add_error(
                    "description",
                    f"{problem} Correct it, or tick “Write the description from the parameters”.",
                )
        return cleaned

    def _update_errors(self, errors):
        # The model's validation names parameters "conditions.<name>": show each under its own input,
        # unless the input already has an error of its own (a number the form could not read).
        if hasattr(errors, "error_dict"):
            mapped: dict[str, list] = {}
            for key, messages in errors.error_dict.items():
                target = key
                if key.startswith("conditions."):
                    target = field_name(key.removeprefix("conditions."))
                    if target not in self.fields:
                        target = "__all__"
                elif key == "conditions":
                    target = "__all__"
                if target in self.errors and target != "__all__":
                    continue
                mapped.setdefault(target, []).extend(messages)
            if not mapped:
                return
            errors = ValidationError(mapped)
        super()._update_errors(errors)

    def clean_priority(self):
        priority = self.cleaned_data.get("priority")
        if priority is not None and not 0 <= priority <= AMLRule.MAX_PRIORITY:
            raise ValidationError("Invalid priority value (0 to 1000).")
        return priority


def form_for(rule_type: str) -> type[AMLRuleForm]:
    """The rule form of one rule type: the common inputs plus one per parameter of the type."""
    if rule_type not in RuleType.values:
        raise ValueError(f"unknown rule type {rule_type!r}")
    attrs = {field_name(name): parameter_field(name, param) for name, param in parameters_of(rule_type).items()}
    attrs["rule_type"] = rule_type
    return type(f"AMLRuleForm_{rule_type}", (AMLRuleForm,), attrs)


def parameter_field_names(rule_type: str) -> list[str]:
    return [field_name(name) for name in parameters_of(rule_type)]
