"""The strict JSON decoder every API body goes through (backoffice.strictjson)."""

import json
import sys

import pytest

from backoffice.errors import ValidationFailed
from backoffice.strictjson import MAX_DEPTH, JsonNumber, MalformedJSON, decode, deeper_than


def refused(raw: bytes) -> ValidationFailed:
    with pytest.raises(ValidationFailed) as caught:
        decode(raw)
    return caught.value


def test_fifty_thousand_brackets_are_refused_by_the_byte_scan_without_recursion():
    # a recursive decoder would need a frame per bracket: with room for a few hundred frames it could not answer
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(MAX_DEPTH * 4)
    try:
        error = refused(b"[" * 50_000)
    finally:
        sys.setrecursionlimit(limit)
    assert isinstance(error, MalformedJSON) and f"more than {MAX_DEPTH} levels" in error.message


def test_depth_up_to_the_limit_is_fine_and_brackets_inside_strings_do_not_count():
    assert decode(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    refused(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    text = json.dumps({"note": "[" * 5000 + '\\"{' * 100}).encode()
    assert decode(text)["note"].startswith("[[[")
    assert not deeper_than(text, 2)


def test_duplicate_keys_are_refused_and_named():
    error = refused(b'{"amount": 10, "reason": "x", "amount": 1000000}')
    assert '"amount" appears twice' in error.message and error.details == {"amount": ["Given twice."]}
    assert isinstance(refused(b'{"a": {"b": 1, "b": 2}}'), MalformedJSON)


@pytest.mark.parametrize(
    "raw, path",
    [
        (b'{"reason": "a\\u0000b"}', "reason"),
        (b'{"reason": "\\ud800"}', "reason"),
        (b'{"conditions": {"rules": [{"name": "x"}, {"name": "\\udfff tail"}]}}', "conditions.rules[1].name"),
        (b'["ok", "\\u0000"]', "[1]"),
        (b'"\\u0000"', "body"),
    ],
)
def test_nul_and_lone_surrogates_are_refused_naming_the_path(raw, path):
    error = refused(raw)
    assert error.status == 400 and path in error.details


def test_a_nul_in_a_key_is_refused_too():
    assert "\\x00k" in refused(b'{"\\u0000k": 1}').details


def test_surrogate_pairs_and_escaped_backslashes_are_text():
    assert decode(b'{"a": "\\ud83d\\ude00"}') == {"a": "\U0001f600"}
    assert decode(b'{"a": "\\\\u0000"}') == {"a": "\\u0000"}


def test_numbers_keep_their_text_and_still_behave_as_floats():
    value = decode(b'{"amount": 999999.9999999999999, "n": 5, "e": 1.5e2}')
    assert isinstance(value["amount"], JsonNumber) and value["amount"].text == "999999.9999999999999"
    assert value["amount"] == 1000000.0 and isinstance(value["n"], int)
    assert value["e"].text == "1.5e2" and value["e"] * 2 == 300.0
    assert json.dumps(value["e"]) == "150.0"


@pytest.mark.parametrize(
    "raw", [b"[NaN]", b"[Infinity]", b"[-Infinity]", b"[1e400]", b"[" + b"9" * 5000 + b"]", b"{", b"\xff\xfe{}"]
)
def test_non_json_numbers_and_malformed_bodies_are_400(raw):
    assert isinstance(refused(raw), MalformedJSON)
