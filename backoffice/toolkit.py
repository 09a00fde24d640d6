"""The service toolkit: the recipes every write repeats, written once.

A service composes these instead of typing the recipe again:

* ``Actor``: who makes a write (a member of staff, or ``None`` for the system).
* ``model_clean``: model validation as one 400 ``ValidationFailed`` naming the fields.
* ``field_diff`` / ``model_update``: what changed, as ``{field: {"from": old, "to": new}}`` for the audit entry;
  ``model_update`` also sets the fields, cleans and saves only them; ``versioned_update`` saves a change as the
  record's next version (AML rules, PEPs).
* ``lock_row``: the row, read again and locked until the transaction ends.
* ``fsm_move``: one move of a django-fsm-2 state machine: lock, check the table, call the ``@transition`` method,
  save, append the history row (a ``backoffice.models.StateChange``), record the audit event; ``Move.payload()``
  is the move as its audit entry stores it (``{"from", "to", "note"}``).
* ``history_record`` / ``history_record_many``: history rows written outside a move (one, or a set in one INSERT).

Audit events themselves are typed functions in each app's ``events.py`` (one per audited action); they call
``backoffice.audit.audit_record``.
"""

import datetime as dt
import enum
import functools
import inspect
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, TypeAlias, TypeVar

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django_fsm import ConcurrentTransition, TransitionNotAllowed

from backoffice.errors import Conflict, InvalidTransition, ValidationFailed, django_validation_details
from backoffice.fsm import transition_table
from backoffice.models import AuditLog, Staff, StateChange

# Who makes a write. A member of staff, or None: the system (a scheduled command, the AML engine, an expiry) and
# principals acting on their own account (a platform user sending their ID images), whom the audit log and the
# history rows record as "system" because both point at staff accounts only.
Actor: TypeAlias = Staff | None
SYSTEM: Actor = None

# {field: {"from": old, "to": new}}: what a write changed, as an audit entry stores it.
Diff: TypeAlias = dict[str, dict[str, Any]]

M = TypeVar("M", bound=models.Model)


# ---------------------------------------------------------------- validation


def model_clean(
    instance: models.Model,
    *,
    exclude: Iterable[str] | None = None,
    validate_unique: bool = True,
    validate_constraints: bool = True,
    headlines: Mapping[str, str] | None = None,
) -> None:
    """``instance.full_clean()`` as one 400 ``ValidationFailed`` whose details name the model's fields.

    The details use the model's field names (the API renames them to the names the client sent) and
    ``nonFieldErrors`` for ``clean()``'s own errors. ``headlines`` gives the message for a refused field
    (``{"priority": "Invalid priority value"}``); otherwise it is "Validation error".
    """
    try:
        instance.full_clean(
            exclude=list(exclude) if exclude is not None else None,
            validate_unique=validate_unique,
            validate_constraints=validate_constraints,
        )
    except ValidationError as exc:
        details = django_validation_details(exc)
        message = next((text for name, text in (headlines or {}).items() if name in details), "Validation error")
        raise ValidationFailed(message, details=details) from None


# ---------------------------------------------------------------- changes


def plain(value: Any) -> Any:
    """``value`` as JSON can store it in an audit entry (dates in ISO form, money and ids as text)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, models.Model):
        return str(value.pk)
    return value


def field_diff(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> Diff:
    """``{field: {"from": old, "to": new}}`` for every field of ``after`` whose value differs from ``before``.

    ``before`` None is a new record: every field, each "from" None.
    """
    return {
        name: {"from": None if before is None else plain(before[name]), "to": plain(value)}
        for name, value in after.items()
        if before is None or before[name] != value
    }


def model_update(
    instance: models.Model,
    *,
    fields: Iterable[str],
    data: Mapping[str, Any],
    exclude: Iterable[str] | None = None,
    clean: bool = True,
) -> Diff:
    """Set ``instance``'s ``fields`` found in ``data``, clean it, save only what changed; return the diff.

    Keys of ``data`` outside ``fields`` are left alone (``data`` may be a whole request). The model is
    cleaned (``model_clean``, without ``exclude``) even when nothing changed, so a write never passes on a
    record that fails validation; it is saved only when something changed, with ``update_fields`` naming the
    changed fields and the ``auto_now`` ones (``updated_at``).
    """
    wanted = {name: data[name] for name in fields if name in data}
    before = {name: getattr(instance, name) for name in wanted}
    diff = field_diff(before, wanted)
    for name in diff:
        setattr(instance, name, wanted[name])
    if clean:
        model_clean(instance, exclude=exclude)
    if diff:
        instance.save(update_fields=[*diff, *_auto_now_fields(type(instance))])
    return diff


def versioned_update(
    instance: M,
    *,
    changes: Mapping[str, Any],
    clean: Callable[[M], Any] = model_clean,
    snapshot: Callable[[M], Mapping[str, Any]] | None = None,
    before_save: Callable[[M, Diff], None] | None = None,
    version_field: str = "version",
) -> Diff:
    """Apply ``changes`` to ``instance`` (locked by the caller) as its next version; return the diff.

    The values are set and ``clean`` runs (it may normalise them), then ``snapshot`` (default: the changed fields)
    is compared with what it read before. Nothing differs: nothing is saved and no version is spent ({}).
    Otherwise ``before_save(instance, diff)`` runs (a uniqueness check, a field the change resets), the version
    goes up by one and the row is saved once: the change and the version it makes are one write.
    """
    read = snapshot or (lambda obj: {name: getattr(obj, name) for name in changes})
    before = dict(read(instance))
    for name, value in changes.items():
        setattr(instance, name, value)
    clean(instance)
    diff = field_diff(before, read(instance))
    if diff:
        if before_save is not None:
            before_save(instance, diff)
        setattr(instance, version_field, getattr(instance, version_field) + 1)
        instance.save()
    return diff


@functools.cache
def _auto_now_fields(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.name for f in model._meta.concrete_fields if getattr(f, "auto_now", False))


# ---------------------------------------------------------------- state machines


def lock_row(instance: M, *, related: Sequence[str] = ()) -> M:
    """``instance``'s row read again and locked until the transaction ends (its ``related`` joined, unlocked)."""
    rows = type(instance)._default_manager.select_for_update(of=("self",) if related else ())
    if related:
        rows = rows.select_related(*related)
    return rows.get(pk=instance.pk)


@dataclass
class Move(Generic[M]):
    """One state move in progress: what ``fsm_move`` hands to its hooks and to the audit event."""

    instance: M
    source: str
    target: str
    actor: Actor
    note: str = ""
    history: StateChange | None = None

    def payload(self, *, note_as: str = "note", **extra: Any) -> dict[str, Any]:
        """The move as its audit entry stores it: ``{"from", "to", "note"}`` (the note under ``note_as``), then
        ``extra``."""
        return {"from": self.source, "to": self.target, note_as: self.note, **extra}


History: TypeAlias = type[StateChange] | Callable[[Move], StateChange]
Event: TypeAlias = Callable[[Move], AuditLog]
Hook: TypeAlias = Callable[[Move], None]


def _refused(obj, field: str, refused: str, *, label: str, source: str, target: str) -> InvalidTransition:
    """The 409 of a move outside the table: the codes for the API (the contract's "Cannot move SAR from X to Y"),
    the states' own words for the admin site ("from documents submitted to verified")."""
    names = dict(obj._meta.get_field(field).flatchoices)

    def word(state: str) -> str:
        # a state without a label (a field without choices) stays as it is: lower-casing a code reads no better
        return str(names[state]).lower() if state in names else state

    return InvalidTransition(
        refused.format(label=label, source=source, target=target),
        words=refused.format(label=label, source=word(source), target=word(target)),
    )


def fsm_move(
    obj: M,
    *,
    to: str,
    actor: Actor,
    note: str = "",
    history: History,
    event: Event | None,
    field: str = "status",
    transitions: Mapping[tuple[str, str], str] | None = None,
    label: str | None = None,
    refused: str = "Cannot move {label} from {source} to {target}",
    check: Hook | None = None,
    lock: bool = True,
    related: Sequence[str] = (),
    clean: bool = False,
    update_fields: Iterable[str] | None = None,
    history_fields: Mapping[str, Any] | None = None,
    before_save: Hook | None = None,
    after_save: Hook | None = None,
    **kwargs: Any,
) -> Move[M]:
    """Move ``obj``'s state machine (the django-fsm-2 field ``field``) to ``to``, inside the caller's transaction.

    In this order:

    1. ``lock`` (the default): the row is read again under ``SELECT ... FOR UPDATE`` (``related`` joined). Pass
       ``lock=False`` when ``obj`` is already the row the caller locked (or holds otherwise: a claimed job).
    2. The move must be in ``transitions`` (default: the model's ``@transition`` table): otherwise 409
       ``InvalidTransition`` with ``refused`` ("Cannot move {label} from {source} to {target}", ``label``
       defaulting to the model's verbose name), whoever asks.
    3. ``check(move)``: what the role allows (raise ``Forbidden``), or any refusal that needs the locked row.
    4. The ``@transition`` method, with ``kwargs`` (and ``actor=`` when the method takes an ``actor``).
    5. ``before_save(move)``; ``clean``: ``model_clean`` without the state field; the save (``update_fields``,
       when given, gains the state field and the ``auto_now`` fields). A concurrent transition
       (``ConcurrentTransitionMixin``) is a 409.
    6. ``after_save(move)``: writes that need the saved state (the ledger row of an approved credit).
    7. The history row: ``history`` is the ``StateChange`` model (its foreign key to ``obj``'s model is found,
       ``history_fields`` added) or a callable that writes it.
    8. ``event(move)``, the typed audit event (None: the move has no audit entry of its own).

    Returns the ``Move``; ``move.instance`` is the locked, moved, saved object.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("fsm_move runs inside the caller's transaction (transaction.atomic)")
    if lock:
        obj = lock_row(obj, related=related)
    source = str(getattr(obj, field))
    move = Move(instance=obj, source=source, target=str(to), actor=actor, note=note)
    table = transitions if transitions is not None else _table(type(obj), field)
    method_name = table.get((source, move.target))
    label = label or str(obj._meta.verbose_name)
    if method_name is None:
        raise _refused(obj, field, refused, label=label, source=source, target=move.target)
    if check is not None:
        check(move)
    method = getattr(obj, method_name)
    if "actor" in _parameters(type(obj), method_name):
        kwargs = {"actor": actor, **kwargs}
    try:
        method(**kwargs)
    except TransitionNotAllowed:
        # a condition of the @transition refused it: outside the table for this record, as far as callers care
        raise _refused(obj, field, refused, label=label, source=source, target=move.target) from None
    if before_save is not None:
        before_save(move)
    if clean:
        model_clean(obj, exclude=[field])
    save_fields = None
    if update_fields is not None:
        save_fields = list(dict.fromkeys([*update_fields, field, *_auto_now_fields(type(obj))]))
    try:
        obj.save(update_fields=save_fields)
    except ConcurrentTransition:
        # a row lock makes this unreachable through fsm_move; a writer outside the services is not so polite
        raise Conflict(f"The {label} was moved by someone else meanwhile; reload it and try again") from None
    if after_save is not None:
        after_save(move)
    if isinstance(history, type):
        move.history = history_record(
            obj, history=history, source=source, target=move.target, actor=actor, note=note, **(history_fields or {})
        )
    else:
        move.history = history(move)
    if event is not None:
        event(move)
    return move


def fsm_move_many(
    objs: Sequence[M],
    *,
    to: str,
    actor: Actor,
    history: type[StateChange],
    note: str = "",
    field: str = "status",
    label: str | None = None,
    refused: str = "Cannot move {label} from {source} to {target}",
    update_fields: Iterable[str] = (),
    **kwargs: Any,
) -> list[Move[M]]:
    """``fsm_move`` for many rows the caller has locked (``SELECT ... FOR UPDATE``) that move together, such as a
    batch's reports: the same table check (409 on the first row outside it) and ``@transition`` methods, then
    one ``bulk_update`` and one ``bulk_create`` of the history rows instead of a save and an insert per row. No
    audit entry per row: the caller's own event speaks for the set. Rows are moved in the order given."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("fsm_move_many runs inside the caller's transaction (transaction.atomic)")
    if not objs:
        return []
    model = type(objs[0])
    table = _table(model, field)
    label = label or str(model._meta.verbose_name)
    moves = []
    for obj in objs:
        move = Move(instance=obj, source=str(getattr(obj, field)), target=str(to), actor=actor, note=note)
        method_name = table.get((move.source, move.target))
        if method_name is None:
            raise _refused(obj, field, refused, label=label, source=move.source, target=move.target)
        call = {"actor": actor, **kwargs} if "actor" in _parameters(model, method_name) else kwargs
        try:
            getattr(obj, method_name)(**call)
        except TransitionNotAllowed:
            raise _refused(obj, field, refused, label=label, source=move.source, target=move.target) from None
        moves.append(move)
    stamped = _auto_now_fields(model)
    now = timezone.now()
    for obj in objs:  # bulk_update does not stamp auto_now fields as save() does
        for name in stamped:
            setattr(obj, name, now)
    model.objects.bulk_update(objs, fields=list(dict.fromkeys([*update_fields, field, *stamped])))
    rows = history_record_many(((m.instance, m.source, m.target, note) for m in moves), history=history, actor=actor)
    for move, row in zip(moves, rows, strict=True):
        move.history = row
    return moves


def history_record(
    obj: models.Model,
    *,
    history: type[StateChange],
    source: str,
    target: str,
    actor: Actor,
    note: str = "",
    **fields: Any,
) -> StateChange:
    """Append one history row for ``obj`` (``source`` "" for a record that starts in ``target``)."""
    link = _history_link(history, obj._meta.concrete_model)
    return history.objects.create(
        **{link: obj}, from_status=source, to_status=target, actor=actor, note=note or "", **fields
    )


def history_record_many(
    rows: Iterable[tuple[models.Model, str, str, str]],
    *,
    history: type[StateChange],
    actor: Actor,
    batch_size: int | None = None,
) -> list[StateChange]:
    """Append one history row per ``(obj, source, target, note)`` in one INSERT (``history_record`` for a set
    that moves together: a batch of reports, the alerts a scan raised, the matches a screening found)."""
    rows = list(rows)
    if not rows:
        return []
    link = _history_link(history, rows[0][0]._meta.concrete_model)
    return history.objects.bulk_create(
        [
            history(**{link: obj}, from_status=source, to_status=target, actor=actor, note=note or "")
            for obj, source, target, note in rows
        ],
        batch_size=batch_size,
    )


@functools.cache
def _table(model: type[models.Model], field_name: str) -> dict[tuple[str, str], str]:
    return transition_table(model, field_name)


@functools.cache
def _parameters(model: type[models.Model], method_name: str) -> frozenset[str]:
    return frozenset(inspect.signature(getattr(model, method_name)).parameters)


@functools.cache
def _history_link(history: type[StateChange], model: type[models.Model]) -> str:
    """The name of ``history``'s one foreign key to ``model``."""
    links = [
        f.name
        for f in history._meta.get_fields()
        if f.many_to_one and f.concrete and f.related_model._meta.concrete_model is model
    ]
    if len(links) != 1:
        raise TypeError(f"{history.__name__} needs exactly one foreign key to {model.__name__}, found {links}")
    return links[0]
