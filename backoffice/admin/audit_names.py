"""What an audit entry is about, by name: the apps tell the foundation which model each ``object_type`` is.

Registered from each app's ``AppConfig.ready()`` (``audit_names.register("kyc_user", "kyc.PlatformUser")``), as
a model label, so the foundation never imports a higher app. The audit log's pages read the names of a whole
page of entries with one query per kind of object (``attach``), and show ``changes`` in one readable form
(``readable_changes``) whatever shape the event gave them.
"""

import json
import re
import uuid
from dataclasses import dataclass
from functools import lru_cache

from django.apps import apps
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

from backoffice.admin.links import may_open

_MODELS: dict[str, str] = {}


def register(object_type: str, model_label: str) -> None:
    _MODELS[object_type] = model_label


@dataclass(frozen=True)
class Named:
    name: str
    url: str | None


def _key(model, object_id: str):
    try:
        field = model._meta.pk
        if field.get_internal_type() == "UUIDField":
            return uuid.UUID(object_id)
        return field.to_python(object_id)
    except Exception:  # noqa: BLE001 - an id of another shape names nothing
        return None


def attach(entries) -> None:
    """Set ``entry.named`` (a ``Named`` or None) on each entry: one query per object type among them."""
    wanted: dict[str, dict] = {}
    for entry in entries:
        entry.named = None
        model_label = _MODELS.get(entry.object_type)
        if model_label and entry.object_id:
            wanted.setdefault(model_label, {})[entry.object_id] = None
    found: dict[tuple[str, str], Named] = {}
    for model_label, ids in wanted.items():
        model = apps.get_model(model_label)
        keys = {k: i for i in ids if (k := _key(model, i)) is not None}
        admin_name = f"admin:{model._meta.app_label}_{model._meta.model_name}_change"
        for obj in model._default_manager.filter(pk__in=list(keys)):
            url = None
            if model in admin.site._registry and may_open(admin.site, model, obj):
                try:
                    url = reverse(admin_name, args=[obj.pk])
                except NoReverseMatch:
                    url = None
            found[(model_label, str(obj.pk))] = Named(str(obj), url)
    for entry in entries:
        model_label = _MODELS.get(entry.object_type)
        if model_label and entry.object_id:
            key = _key(apps.get_model(model_label), entry.object_id)
            entry.named = found.get((model_label, str(key)))


def _words(name: str) -> str:
    return str(name).replace("_", " ").strip()


CODE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{3,}$")


@lru_cache(maxsize=1)
def _labels() -> dict[str, str]:
    """Every code of a choice field of the site's models with its label, where the site gives it one label only
    ("TOP_UP" -> "Top-up"); a code two fields label differently stays a code (its field is not known here)."""
    seen: dict[str, set[str]] = {}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            for value, label in getattr(field, "flatchoices", None) or ():
                if isinstance(value, str) and CODE.match(value):
                    seen.setdefault(value, set()).add(str(label))
    return {value: labels.pop() for value, labels in seen.items() if len(labels) == 1}


def _value(value) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, str) and CODE.match(value):
        return _labels().get(value, value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{_words(k)} {_value(v)}" for k, v in value.items())
    return str(value)


def readable_changes(changes) -> list[str]:
    """One line per change: "risk rating: Medium → Low", "status: Open → Closed", "reason: PEP match" (codes of
    the site's choices by their labels).

    Every event's shape reads the same: ``{field: {"from", "to"}}`` (the toolkit's diff), a move's
    ``{"from", "to", ...}``, a pair ``[old, new]``, or a plain value.
    """
    if not changes:
        return []
    if not isinstance(changes, dict):
        return [_value(changes)]
    lines = []
    if "from" in changes and "to" in changes and not isinstance(changes["to"], dict):
        lines.append(f"status: {_value(changes['from'])} → {_value(changes['to'])}")
    for field, change in changes.items():
        if field in ("from", "to") and lines:
            continue
        if isinstance(change, dict) and set(change) == {"from", "to"}:
            if change["from"] != change["to"]:
                lines.append(f"{_words(field)}: {_value(change['from'])} → {_value(change['to'])}")
        elif isinstance(change, list) and len(change) == 2 and field not in ("related_transaction_ids",):
            lines.append(f"{_words(field)}: {_value(change[0])} → {_value(change[1])}")
        else:
            lines.append(f"{_words(field)}: {_value(change)}")
    return lines


def summary(changes, limit: int = 160) -> str:
    text = "; ".join(readable_changes(changes))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def raw(changes) -> str:
    return json.dumps(changes, ensure_ascii=False, indent=2, default=str)
