"""OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans reach a real OTLP/HTTP receiver."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from backoffice.ops import tracing
from backoffice.tasks import dispatch
from backoffice.tests.operations.tasks import remember_context

pytestmark = pytest.mark.django_db
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


class _Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def collector(settings):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    server.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.OTEL_EXPORTER_OTLP_ENDPOINT = f"http://127.0.0.1:{server.server_address[1]}"
    tracing._tracer = tracing._provider = None
    yield server
    tracing.flush()
    if tracing._provider is not None:
        tracing._provider.shutdown()
    tracing._tracer = tracing._provider = None
    server.shutdown()


def spans(server) -> list:
    tracing.flush()
    found = []
    for path, body in server.received:
        assert path == "/v1/traces"
        message = ExportTraceServiceRequest.FromString(body)
        for resource in message.resource_spans:
            service = {a.key: a.value.string_value for a in resource.resource.attributes}["service.name"]
            for scope in resource.scope_spans:
                for span in scope.spans:
                    attributes = {a.key: a.value for a in span.attributes}
                    found.append((service, span, attributes))
    return found


def test_a_request_span_continues_the_clients_trace_and_names_the_route(api, collector):
    r = api.get("/api/v1/health", HTTP_TRACEPARENT=f"00-{TRACE_ID}-{PARENT_ID}-01", HTTP_X_REQUEST_ID="traced-1")
    assert r.status_code == 200
    [(service, span, attributes)] = spans(collector)
    assert service == "vikela" and span.name == "GET /api/v1/health"
    assert span.trace_id.hex() == TRACE_ID and span.parent_span_id.hex() == PARENT_ID
    assert attributes["http.route"].string_value == "/api/v1/health"
    assert attributes["http.response.status_code"].int_value == 200
    assert attributes["vikela.request_id"].string_value == "traced-1"


def test_a_task_is_a_child_of_the_request_that_started_it(collector):
    from opentelemetry import trace

    with tracing.tracer().start_as_current_span("caller") as caller:
        dispatch(remember_context, args=("traced",))
        caller_ids = (caller.get_span_context().trace_id, caller.get_span_context().span_id)
    by_name = {span.name: span for _, span, _ in spans(collector)}
    task = by_name["task tests.remember_context"]
    assert (int.from_bytes(task.trace_id, "big"), int.from_bytes(task.parent_span_id, "big")) == caller_ids
    assert task.kind == trace.SpanKind.CONSUMER.value + 1  # OTLP counts kinds from UNSPECIFIED = 0


def test_without_the_setting_nothing_is_traced(api, settings):
    settings.OTEL_EXPORTER_OTLP_ENDPOINT = None
    tracing._tracer = None
    assert tracing.tracer() is None and tracing.start_request_span(object()) is None
    assert api.get("/api/v1/health").status_code == 200
