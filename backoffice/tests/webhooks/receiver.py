"""A real HTTP receiver on 127.0.0.1 for the webhook tests: records what it is sent, answers what it is told."""

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    client: tuple  # the sender's (address, port): one port for several calls is one kept-alive connection


@dataclass
class Receiver:
    answers: list[int] = field(default_factory=list)  # status codes to answer in turn; then 200
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    keep_alive: bool = False  # HTTP/1.1 with persistent connections, as most web servers answer

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks"

    def start(self) -> "Receiver":
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 -- http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                receiver.received.append(
                    Received(self.path, dict(self.headers), self.rfile.read(length), self.client_address)
                )
                status = receiver.answers.pop(0) if receiver.answers else 200
                self.send_response(status)
                if status in (301, 302, 307):
                    self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        Handler.protocol_version = "HTTP/1.1" if self.keep_alive else "HTTP/1.0"
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    """A receiver on 127.0.0.1 that the webhook rules let endpoints name (WEBHOOK_ALLOWED_HOSTS)."""
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    settings.WEBHOOK_TIMEOUT_SECONDS = 2
    server = Receiver().start()
    yield server
    server.stop()
