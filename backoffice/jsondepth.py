"""One depth limit for every JSON value the back office stores (AML rule conditions and actions, PEP details...).

A document nested hundreds of levels deep is no rule anyone wrote; stored, it breaks every page and
export that renders it recursively. Every input of stored JSON is held to ``MAX_STORED_JSON_DEPTH``:

* models: ``BoundedJSONField`` (a ``models.JSONField`` with the validator, and an admin form field that
  measures the text before decoding it, so a deep paste is a form error, never a RecursionError);
* API serializers: ``validators=[JsonDepthValidator()]`` on the field (``backoffice.api.serializers``
  has ``BoundedJSONField`` ready-made), on top of the parser's own limit for whole bodies.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.fields import InvalidJSONInput
from django.utils.deconstruct import deconstructible

from backoffice.strictjson import deeper_than

MAX_STORED_JSON_DEPTH = 32


def json_depth(value) -> int:
    """How many arrays/objects deep ``value`` nests (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_STORED_JSON_DEPTH * 4:
            return deepest  # far past any limit: no need to walk the rest
        stack.extend((child, level + 1) for child in children)
    return deepest


@deconstructible
class JsonDepthValidator:
    message = "Nested more than %(limit)d levels deep."
    code = "too_deep"

    def __init__(self, max_depth: int = MAX_STORED_JSON_DEPTH):
        self.max_depth = max_depth

    def __call__(self, value):
        if json_depth(value) > self.max_depth:
            raise ValidationError(self.message, code=self.code, params={"limit": self.max_depth})

    def __eq__(self, other):
        return isinstance(other, JsonDepthValidator) and other.max_depth == self.max_depth


def _too_deep_text(value) -> bool:

    return isinstance(value, str) and deeper_than(value.encode("utf-8", "replace"), MAX_STORED_JSON_DEPTH)


class BoundedJSONFormField(forms.JSONField):
    """The admin's JSON box: the text's nesting is measured before ``json.loads`` could recurse on it.

    Both where Django decodes it: cleaning, and showing the submitted text again with the form's errors.
    """

    def to_python(self, value):
        if _too_deep_text(value):
            raise ValidationError(JsonDepthValidator.message, code="too_deep", params={"limit": MAX_STORED_JSON_DEPTH})
        return super().to_python(value)

    def bound_data(self, data, initial):
        if not self.disabled and _too_deep_text(data):
            return InvalidJSONInput(data)
        return super().bound_data(data, initial)


class BoundedJSONField(models.JSONField):
    """A JSONField whose values may nest at most ``MAX_STORED_JSON_DEPTH`` levels."""

    default_validators = [JsonDepthValidator()]

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": BoundedJSONFormField, **kwargs})
