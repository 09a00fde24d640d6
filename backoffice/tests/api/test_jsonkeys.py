"""snake_keys / camel_keys: keys only, at any depth, and back again."""

import pytest

from backoffice.jsonkeys import camel, camel_keys, jsonb_ordered, snake, snake_keys


@pytest.mark.parametrize(
    "camel_key,snake_key",
    [
        ("percentageChange", "percentage_change"),
        ("topUpAmount", "top_up_amount"),
        ("windowEndEpoch", "window_end_epoch"),
        ("userIds", "user_ids"),
        ("matcherVersion", "matcher_version"),
        ("amount", "amount"),
    ],
)
def test_one_key_each_way(camel_key, snake_key):
    assert snake(camel_key) == snake_key and camel(snake_key) == camel_key
    assert snake(snake_key) == snake_key and camel(camel_key) == camel_key


def test_nested_dicts_and_lists_change_keys_but_never_values():
    stored = {
        "pep_name": "DAFILOZA, Bakotimu",
        "explanation": {"matcher_version": 3, "adjustments": [{"kind": "dateOfBirth"}]},
    }
    answered = camel_keys(stored)
    assert answered == {
        "pepName": "DAFILOZA, Bakotimu",
        "explanation": {"matcherVersion": 3, "adjustments": [{"kind": "dateOfBirth"}]},
    }
    assert snake_keys(answered) == stored
    assert snake_keys(None) is None and camel_keys([1, "aB"]) == [1, "aB"]


def test_jsonb_order_is_shorter_keys_first_then_by_bytes_to_the_depth_asked():
    value = {"ruleId": 1, "name": {"zz": 1, "a": 2}, "isActive": True, "b": [{"cc": 1, "d": 2}]}
    assert list(jsonb_ordered(value)) == ["b", "name", "ruleId", "isActive"]
    assert list(jsonb_ordered(value)["name"]) == ["a", "zz"] and list(jsonb_ordered(value)["b"][0]) == ["d", "cc"]
    assert list(jsonb_ordered(value, depth=1)["name"]) == ["zz", "a"]
