"""The one depth limit of stored JSON (backoffice.jsondepth)."""

import pytest
from django.core.exceptions import ValidationError

from backoffice.jsondepth import MAX_STORED_JSON_DEPTH, BoundedJSONFormField, JsonDepthValidator, json_depth


def nested(depth: int):
    value: object = 1
    for n in range(depth):
        value = [value] if n % 2 else {"k": value}
    return value


def test_depth_counts_arrays_and_objects_without_recursing():
    assert (json_depth(1), json_depth([]), json_depth({"a": [1, {"b": 2}]})) == (0, 1, 3)
    assert json_depth(nested(100_000)) > MAX_STORED_JSON_DEPTH  # no RecursionError on a huge depth


def test_the_validator_refuses_past_the_limit_only():
    JsonDepthValidator()(nested(MAX_STORED_JSON_DEPTH))
    with pytest.raises(ValidationError):
        JsonDepthValidator()(nested(MAX_STORED_JSON_DEPTH + 1))


def test_the_form_field_measures_text_before_decoding_it():
    field = BoundedJSONFormField()
    assert field.to_python('{"a": "[[[[[["}') == {"a": "[[[[[["}
    with pytest.raises(ValidationError):
        field.to_python("[" * 100_000)
