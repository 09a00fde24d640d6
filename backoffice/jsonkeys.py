"""camelCase <-> snake_case for the keys of stored JSON.

What Vikela stores (alert details, hook payloads) is snake_case, like every other domain value; the API
answers camelCase. ``snake_keys`` turns the keys of a JSON value into snake_case, ``camel_keys`` back, both
recursive over dicts and lists; values (strings such as a name-part kind "dateOfBirth") are never touched.
The pair is reversible for keys made of lowercase words each starting with a letter ("percentageChange" <->
"percentage_change", "topUpAmount" <-> "top_up_amount"): every key Vikela writes is such a key.
"""

import re

_UPPER = re.compile(r"(?<=[a-z0-9])([A-Z])")
_UNDERSCORE = re.compile(r"_([a-z])")


def snake(key: str) -> str:
    """ "percentageChange" -> "percentage_change" (a key already snake_case is unchanged)."""
    return _UPPER.sub(lambda m: "_" + m.group(1).lower(), key)


def camel(key: str) -> str:
    """ "percentage_change" -> "percentageChange" (a key already camelCase is unchanged)."""
    return _UNDERSCORE.sub(lambda m: m.group(1).upper(), key)


def _convert(value, name):
    if isinstance(value, dict):
        return {(name(k) if isinstance(k, str) else k): _convert(v, name) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_convert(v, name) for v in value]
    return value


def snake_keys(value):
    """``value`` with every dict key, at any depth, in snake_case."""
    return _convert(value, snake)


def camel_keys(value):
    """``value`` with every dict key, at any depth, in camelCase (the API's spelling)."""
    return _convert(value, camel)


def camel_key_paths(value, path: str = "") -> set[str]:
    """Where ``value`` holds a dict key with a capital letter, at any depth: "explanation.matcherVersion",
    "hits[].ruleId" (list items as ``[]``). Empty when every key is snake_case."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and _UPPER.search(key):
                found.add(here)
            found |= camel_key_paths(item, here)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= camel_key_paths(item, f"{path}[]")
    return found


def _jsonb_key(key) -> tuple[int, bytes]:
    data = str(key).encode("utf-8")
    return (len(data), data)


def jsonb_ordered(value, depth: int | None = None):
    """``value`` with its objects' keys in the order PostgreSQL's jsonb keeps them (shorter first, then by their
    bytes), to ``depth`` levels (None: all)."""
    if isinstance(value, dict):
        inner = None if depth is None else depth - 1
        return {
            k: (jsonb_ordered(value[k], inner) if inner is None or inner > 0 else value[k])
            for k in sorted(value, key=_jsonb_key)
        }
    if isinstance(value, list | tuple) and (depth is None or depth > 0):
        return [jsonb_ordered(v, depth) for v in value]
    return value
