"""Optional OpenTelemetry tracing, on when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set (docs/operations.md).

A SERVER span per request (``GET /api/v1/verification/status/{job_id}``: the route template, as in the
metrics), continuing the client's W3C ``traceparent`` when it sends one, and a CONSUMER span per background
task, continuing the span of the request that sent it (its ``traceparent`` travels in the task's
``vikela_context`` header with the request id). Spans carry the request id, so a trace and the log events
of one request find each other. Exported over OTLP/HTTP in batches by a thread of each process (the SDK
starts it again in a forked child).

Written by hand on the SDK: the Django instrumentation package published beside this SDK pins an older API
and does not install with it. Off, this module imports nothing of OpenTelemetry.
"""

import logging
import threading

from django.conf import settings

logger = logging.getLogger("backoffice.tracing")

_tracer = None
_provider = None
_lock = threading.Lock()


def enabled() -> bool:
    return bool(settings.OTEL_EXPORTER_OTLP_ENDPOINT)


def tracer():
    """The tracer of this process, made on first use; None when tracing is off."""
    global _tracer, _provider
    if not enabled():
        return None
    if _tracer is None:
        with _lock:
            if _tracer is None:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
                from opentelemetry.sdk.resources import Resource
                from opentelemetry.sdk.trace import TracerProvider
                from opentelemetry.sdk.trace.export import BatchSpanProcessor

                endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT.rstrip("/") + "/v1/traces"
                _provider = TracerProvider(resource=Resource.create({"service.name": settings.OTEL_SERVICE_NAME}))
                _provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
                _tracer = _provider.get_tracer("vikela")
    return _tracer


def flush(timeout_ms: int = 5000) -> None:
    if _provider is not None:
        _provider.force_flush(timeout_ms)


def start_request_span(request):
    """A SERVER span for ``request`` made current; returns (span, token) or None when tracing is off."""
    current = tracer()
    if current is None:
        return None
    from opentelemetry import context as otel_context
    from opentelemetry import propagate, trace

    parent = propagate.extract({k.lower(): v for k, v in request.headers.items()})
    span = current.start_span(request.method, context=parent, kind=trace.SpanKind.SERVER)
    span.set_attribute("http.request.method", request.method)
    span.set_attribute("url.path", request.path)
    token = otel_context.attach(trace.set_span_in_context(span, parent))
    return span, token


def end_request_span(started, *, route: str, status: int, request_id: str, principal: str | None) -> None:
    if started is None:
        return
    from opentelemetry import context as otel_context
    from opentelemetry.trace import Status, StatusCode

    span, token = started
    span.update_name(f"{span.name} {route}")
    span.set_attribute("http.route", route)
    span.set_attribute("http.response.status_code", status)
    span.set_attribute("vikela.request_id", request_id)
    if principal:
        span.set_attribute("vikela.principal", principal)
    if status >= 500:
        span.set_status(Status(StatusCode.ERROR))
    span.end()
    otel_context.detach(token)


def inject(carrier: dict) -> None:
    """Put the current span's ``traceparent`` into ``carrier`` (a task's headers)."""
    if tracer() is None:
        return
    from opentelemetry import propagate

    propagate.inject(carrier)


def start_task_span(name: str, carried: dict):
    current = tracer()
    if current is None:
        return None
    from opentelemetry import context as otel_context
    from opentelemetry import propagate, trace

    sent = {k: v for k, v in carried.items() if k in ("traceparent", "tracestate")}
    # sent through a broker: continue the sender's trace; run in-process: the current span is the parent
    parent = propagate.extract(sent) if sent else None
    span = current.start_span(f"task {name}", context=parent, kind=trace.SpanKind.CONSUMER)
    span.set_attribute("vikela.task", name)
    return span, otel_context.attach(trace.set_span_in_context(span, parent))


def end_task_span(started, *, state: str | None, request_id: str | None) -> None:
    if started is None:
        return
    from opentelemetry import context as otel_context
    from opentelemetry.trace import Status, StatusCode

    span, token = started
    span.set_attribute("vikela.task.state", state or "")
    if request_id:
        span.set_attribute("vikela.request_id", request_id)
    if state not in ("SUCCESS", "RETRY"):
        span.set_status(Status(StatusCode.ERROR))
    span.end()
    try:
        otel_context.detach(token)
    except Exception:  # detached in another context (an eager retry inside the task)
        pass
