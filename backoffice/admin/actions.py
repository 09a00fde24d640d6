"""One shape for the admin's action views: POST only, the permission, the object, the service, a redirect.

A button on an object's page (submit a batch, return a SAR, release a held
transaction) is always the same steps; written out by hand in each admin
they drifted apart (one answered a GET, one looked the object up before
asking who is signed in). A view now names only what is its own: who may
act, which object, which service call, what to say and where to go. A
DomainError the service raises comes back as an error message on the page
the officer came from, never a 500, and nothing the service wrote is kept
(services run inside ``transaction.atomic``).

``each_object`` is the same for the list's bulk actions: one service call
per chosen record, a refusal named by its record, the others carry on.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404

from backoffice.errors import DomainError


@dataclass(frozen=True)
class Done:
    """What a successful action tells the officer, and where it then goes (``None``: back where they came from)."""

    message: str
    url: str | None = None
    level: int = messages.SUCCESS


def error_text(exc: DomainError) -> str:
    """The refusal as the officer reads it: the service's message."""
    return exc.said


def error_with_reasons(exc: DomainError, *, key: str | None = None, limit: int | None = None) -> str:
    """The message followed by the reasons in its details (only ``key``'s when given; at most ``limit``)."""
    details = exc.details or {}
    reasons = details.get(key, []) if key else [reason for values in details.values() for reason in values]
    return " ".join([exc.said, *reasons[:limit]])


def object_action(
    model_admin,
    request,
    object_id,
    act: Callable[[Any], str | Done | HttpResponse],
    *,
    back: str,
    lookup: Callable[[], Any] | None = None,
    allowed: Callable[[Any], bool] | None = None,
    refused: str | None = None,
    error: Callable[[DomainError], str] = error_text,
    error_level: int = messages.ERROR,
    on_error: Callable[[Any], None] | None = None,
):
    """Run one action on one object from an admin page and redirect.

    - anything but POST is refused (405): an action never runs from a link or a prefetch;
    - ``allowed(request)`` (default: the admin's view permission) is asked before anything is read; a refusal is
      403, or, when ``refused`` is given, that message on the page ``back`` points to;
    - ``lookup()`` finds the object (default: the admin's model by primary key, 404 when missing);
    - ``act(obj)`` calls the service and returns the success message, a ``Done`` that also names where to go,
      or a response to send as it is (a step that needs a confirmation page first);
    - a DomainError is shown as ``error(exc)`` at ``error_level`` and the officer goes back; ``on_error(request)``
      runs first (to keep a form's choices for the page the officer returns to).
    """
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if not (allowed or model_admin.has_view_permission)(request):
        if refused is None:
            raise PermissionDenied
        model_admin.message_user(request, refused, messages.ERROR)
        return HttpResponseRedirect(back)
    obj = lookup() if lookup is not None else get_object_or_404(model_admin.model, pk=object_id)
    try:
        outcome = act(obj)
    except DomainError as exc:
        if on_error is not None:
            on_error(request)
        model_admin.message_user(request, error(exc), error_level)
        return HttpResponseRedirect(back)
    if isinstance(outcome, HttpResponse):
        return outcome
    done = outcome if isinstance(outcome, Done) else Done(outcome)
    model_admin.message_user(request, done.message, done.level)
    return HttpResponseRedirect(done.url or back)


def each_object(
    model_admin,
    request,
    objects: Iterable,
    act: Callable[[Any], Any],
    *,
    label: Callable[[Any], str] = str,
    done: Callable[[Any, Any], str] | None = None,
) -> list[tuple[Any, Any]]:
    """A bulk action: ``act(obj)`` for each object; a DomainError is that object's error message (``label(obj):
    message``) and the others go on. ``done(obj, result)``, when given, is each success's message. Returns the
    objects that succeeded with what ``act`` returned."""
    succeeded = []
    for obj in objects:
        try:
            result = act(obj)
        except DomainError as exc:
            model_admin.message_user(request, f"{label(obj)}: {exc.said}", messages.ERROR)
            continue
        if done is not None:
            model_admin.message_user(request, done(obj, result), messages.SUCCESS)
        succeeded.append((obj, result))
    return succeeded
