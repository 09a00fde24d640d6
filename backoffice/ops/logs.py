"""Structured logs: one JSON object per line, with the request id, the principal and the route.

``JsonFormatter`` is what ``LOG_FORMAT=json`` (the default) installs for every logger, gunicorn's own
included (``backoffice.http.gunicorn_conf``), and what Celery's workers use (they keep Django's logging). An
event is a log record: its message, its level and logger, the context of ``backoffice.ops.context`` and
whatever was passed as ``extra={...}``. A traceback is a field of the same line, never lines of its own, so
a log shipper never splits one event into several. This module imports nothing of Django.
"""

import datetime as dt
import json
import logging

from backoffice.ops import context

# the attributes every LogRecord has; anything else on a record came from ``extra`` and is logged
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class ContextFilter(logging.Filter):
    """Puts the current request id, principal, route and task on every record (for the plain format too)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in context.FIELDS.items():
            if not hasattr(record, name):
                setattr(record, name, var.get())
        return True


def _plain(value):
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return str(value)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        event = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name, var in context.FIELDS.items():
            value = getattr(record, name, None) or var.get()
            if value is not None:
                event[name] = value
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in event and key not in context.FIELDS and not key.startswith("_"):
                event[key] = _plain(value)
        if record.exc_info:
            event["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            event["exc"] = record.exc_text
        if record.stack_info:
            event["stack"] = self.formatStack(record.stack_info)
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"), default=str)


def logging_config(*, fmt: str, level: str) -> dict:
    """The ``LOGGING`` dict: every record to stderr, as JSON (``json``) or one readable line (``plain``).

    Python's warnings become log records too (``py.warnings``): printed as they are, a warning is two bare
    lines in the middle of the JSON ones.
    """
    logging.captureWarnings(True)
    formatter = (
        {"()": "backoffice.ops.logs.JsonFormatter"}
        if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "backoffice.ops.logs.ContextFilter"}},
        "formatters": {"main": formatter},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "main", "filters": ["context"]}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # django.request repeats what the request log says about every 4xx; its errors still count
            "django.request": {"level": "ERROR"},
            # pikepdf (the upload checks' PDF parser) announces its C++ log bridge at INFO on import
            "pikepdf": {"level": "WARNING"},
            # gunicorn's loggers write to their own handlers unless told to propagate to ours
            "gunicorn.error": {"level": level, "handlers": ["console"], "propagate": False},
            "gunicorn.access": {"level": "WARNING", "handlers": ["console"], "propagate": False},
            "celery": {"level": level},
        },
    }
