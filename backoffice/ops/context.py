"""What a log event says about the work it belongs to: the request id, the principal, the route, the task.

Context variables, so each request thread (and each task) sees its own. Set by the request middleware
(``backoffice.http.requestlog``), by token authentication (the principal) and by the task signals
(``backoffice.tasks``), read by the JSON log formatter (``backoffice.ops.logs``) and passed on to background
tasks in their message headers. This module imports nothing of Django: gunicorn's master process uses the
formatter before Django is set up.
"""

import contextvars
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
principal: contextvars.ContextVar[str | None] = contextvars.ContextVar("principal", default=None)
route: contextvars.ContextVar[str | None] = contextvars.ContextVar("route", default=None)
task: contextvars.ContextVar[str | None] = contextvars.ContextVar("task", default=None)
task_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("task_id", default=None)

FIELDS = {"request_id": request_id, "principal": principal, "route": route, "task": task, "task_id": task_id}


def new_request_id() -> str:
    return uuid.uuid4().hex


def accepted_request_id(value: str | None) -> str:
    """The client's own id when it is letters, digits, ``-``, ``_`` and ``.`` (at most 64), else a new one.

    Anything else could smuggle text into the logs (newlines, quotes) or grow without bound, so it is
    replaced rather than cleaned.
    """
    if value and _REQUEST_ID.match(value):
        return value
    return new_request_id()


def snapshot() -> dict[str, str]:
    """The fields set now, to carry into a background task."""
    return {name: var.get() for name, var in FIELDS.items() if var.get() is not None}


@contextmanager
def bound(**values: str | None) -> Iterator[None]:
    """Set some fields for the duration of a block, restoring what was there before."""
    tokens = [(FIELDS[name], FIELDS[name].set(value)) for name, value in values.items()]
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)
