"""Decoding request JSON strictly: bounded depth, no duplicate keys, no NUL or lone surrogates, exact numbers.

Every JSON body of the API goes through ``decode`` (``backoffice.api.parsers.StrictJSONParser`` and the
input middleware), so each rule holds for every endpoint at once:

* **Depth** is measured on the raw bytes before anything is decoded (brackets outside strings), so
  50,000 ``[`` cost a scan of the bytes, never a RecursionError; more than ``MAX_DEPTH`` levels is a 400.
* **Duplicate keys** in an object are a 400: a client that sends ``amount`` twice has a bug we must not
  guess around (Python's json would silently keep the last one).
* **NUL characters and unpaired surrogates** (``"\\u0000"``, ``"\\ud800"``) in any key or string are a
  400 naming the path of the value (``conditions.rules[2].name``); PostgreSQL cannot store either, and
  neither is text a person typed.
* **Numbers keep their text**: a number with a fraction or an exponent becomes a ``JsonNumber``, a float
  that remembers the literal the client sent, so ``MoneyField`` reads ``999999.9999999999999`` as that
  decimal instead of the float it rounds to. Everything else (JSONFields, integer fields) sees a float.
  ``NaN``, ``Infinity`` and numbers beyond the float range are refused.
"""

import json
import math
import re
from collections.abc import Iterator
from itertools import accumulate

from backoffice.errors import ValidationFailed

MAX_DEPTH = 64

# A JSON string, escapes included; possessive so a long string costs one pass and no backtracking.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_SURROGATE = re.compile("[\ud800-\udfff]")
# Raw NUL bytes and raw surrogates cannot reach a decoded string (json refuses control characters in
# strings, UTF-8 cannot encode surrogates): only these escapes can, so only a body holding one is walked.
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")


class MalformedJSON(ValidationFailed):
    """The body is not a JSON document we accept; the message says why."""

    def __init__(self, reason: str, details: dict | None = None):
        super().__init__(f"Malformed request body: {reason}", details=details)


class JsonNumber(float):
    """A JSON number with a fraction or exponent: a float that keeps the text it was written as (``.text``)."""

    __slots__ = ("text",)

    def __new__(cls, text: str):
        value = super().__new__(cls, text)
        value.text = text
        return value

    def __reduce__(self):
        return (JsonNumber, (self.text,))


def deeper_than(raw: bytes, limit: int) -> bool:
    """Whether arrays and objects in ``raw`` nest more than ``limit`` levels, counting brackets outside strings."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # not even that many brackets: no need to look closer
    brackets = _STRING.sub(b'""', raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(_STEP[b] for b in brackets), default=0) > limit


def _parse_number(text: str) -> JsonNumber:
    number = JsonNumber(text)
    if not math.isfinite(number):
        raise MalformedJSON(f"the number {text[:40]} is out of range")
    return number


def _refuse_constant(name: str):
    raise MalformedJSON(f"{name} is not a JSON value")


def _object_without_duplicates(pairs: list[tuple[str, object]]) -> dict:
    result: dict = {}
    for key, value in pairs:
        if key in result:
            raise MalformedJSON(f'the key "{_printable(key)}" appears twice in one object', {key: ["Given twice."]})
        result[key] = value
    return result


def _printable(text: str) -> str:
    return text[:60].encode("unicode_escape").decode("ascii")


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be accepted as text (a NUL, an unpaired surrogate), or None."""
    if "\x00" in text:
        return "Must not contain NUL (\\u0000) characters."
    if _SURROGATE.search(text):
        return "Must not contain unpaired surrogate characters."
    return None


def _walk(value, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            yield path or "body", problem
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem(key)
            child = f"{path}.{_printable(key) if problem else key}" if path else (_printable(key) if problem else key)
            if problem:
                yield child, problem  # the key itself: named escaped, its value not looked at
            else:
                yield from _walk(item, child)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def refuse_bad_text(value, *, message: str = "Text must not contain NUL characters or unpaired surrogates") -> None:
    """Raise one 400 naming every path in ``value`` (decoded JSON, form data) whose text cannot be stored."""
    details: dict[str, list[str]] = {}
    for path, problem in _walk(value, ""):
        details.setdefault(path, []).append(problem)
    if details:
        raise ValidationFailed(message, details=details)


def decode(raw: bytes):
    """``raw`` (a request body) as a Python value under the rules above; a 400 naming the problem otherwise."""
    if deeper_than(raw, MAX_DEPTH):
        raise MalformedJSON(f"nested more than {MAX_DEPTH} levels deep")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedJSON(f"not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(
            text,
            parse_float=_parse_number,
            parse_constant=_refuse_constant,
            object_pairs_hook=_object_without_duplicates,
        )
    except MalformedJSON:
        raise
    except json.JSONDecodeError as exc:
        raise MalformedJSON(f"JSON parse error - {exc.msg}: line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # an integer of more digits than Python converts, ...
        raise MalformedJSON(f"JSON parse error - {str(exc)[:120]}") from None
    if _SUSPECT_ESCAPE.search(raw):
        refuse_bad_text(value)
    return value
