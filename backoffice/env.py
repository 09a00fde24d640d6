"""Strict readers for settings that come from the environment.

A bad value stops start-up with ImproperlyConfigured naming the variable, so
a typo in a deployment never silently falls back to a default.
"""

import os
import re
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_RATE_RE = re.compile(r"^(\d+)/(\d*)([smhd])$")


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of true/false/1/0/yes/no, got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, got {value}")
    return value


def env_float(
    name: str, default: float | None, *, minimum: float | None = None, maximum: float | None = None
) -> float | None:
    """A decimal number such as ``0.8``; NaN, infinities and values outside [minimum, maximum] are refused."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ImproperlyConfigured(f"{name} must be a finite number, got {raw!r}")
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return list(default)
    return [part.strip() for part in raw.split(",") if part.strip()]


def env_choices(name: str, default: list[str], choices: set[str]) -> list[str]:
    """A comma-separated list whose every item is one of ``choices`` (unset or empty: ``default``)."""
    values = env_list(name, default)
    unknown = [value for value in values if value not in choices]
    if unknown:
        raise ImproperlyConfigured(f"{name}: unknown value(s) {unknown} (known: {', '.join(sorted(choices))})")
    return values


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = env_str(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


def env_rate(name: str, default: str) -> str:
    """A django-ratelimit rate such as ``100/m``; anything else is refused."""
    value = (env_str(name, default) or "").strip()
    match = _RATE_RE.match(value)
    if not match or int(match.group(1)) <= 0:
        raise ImproperlyConfigured(f"{name} must look like 100/m (count/period with s, m, h or d), got {value!r}")
    return value


def env_map(name: str, default: dict[str, str], *, keys: set[str] | None = None) -> dict[str, str]:
    """``KEY=value,KEY=value`` over ``default``; a malformed pair or a key outside ``keys`` is refused."""
    raw = os.environ.get(name)
    result = dict(default)
    if raw is None or raw.strip() == "":
        return result
    for pair in raw.split(","):
        if not pair.strip():
            continue
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise ImproperlyConfigured(f"{name} must look like KEY=value,KEY=value; got {pair.strip()!r}")
        if keys is not None and key not in keys:
            raise ImproperlyConfigured(f"{name}: unknown key {key!r} (known: {', '.join(sorted(keys))})")
        result[key] = value
    return result


def env_decimal(name: str, default: Decimal | None, *, minimum: Decimal | None = None) -> Decimal | None:
    """A decimal amount such as ``5000`` or ``2500.50`` (at most two decimals); unset gives ``default``."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = Decimal(raw.strip())
    except InvalidOperation:
        raise ImproperlyConfigured(f"{name} must be a number such as 5000 or 2500.50, got {raw!r}") from None
    if not value.is_finite() or value != value.quantize(Decimal("0.01")):
        raise ImproperlyConfigured(f"{name} must be a finite amount with at most two decimals, got {raw!r}")
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value
