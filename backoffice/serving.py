"""The gunicorn worker ``scripts/serve`` runs: gunicorn's threaded worker, hardened for the open internet.

``EnvelopeThreadWorker`` (``--worker-class backoffice.serving.EnvelopeThreadWorker``) changes two things:

* **Slow clients cost no thread.** gunicorn's ``gthread`` hands a connection to a thread as soon as its
  first bytes arrive, and the thread then blocks until the rest of the request comes; a handful of
  clients that send half a request and stall hold every thread. Here the request head (and a small
  body, up to ``BUFFERED_BODY_BYTES``) is gathered with non-blocking reads between trips through the
  worker's event loop; a connection goes to a thread only once its request is complete. A stalled
  connection waits in the poller and is closed after ``--keep-alive`` seconds of silence, or
  ``REQUEST_DEADLINE_SECONDS`` after its first byte however slowly it trickles.
* **Errors gunicorn answers itself are the API's envelope.** A request line over
  ``--limit-request-line``, oversized headers, a malformed request: gunicorn refuses these before
  Django sees them, with an HTML page. They leave as ``{success: false, message, statusCode, error}``
  with gunicorn's status (414, 431, 400...), whatever the path: the request could not be read, so its
  path is not known.

Large bodies (uploads) still stream in a thread; in production a reverse proxy that buffers requests
(nginx, see the README) shields the server from slow uploads too.

This module is imported by gunicorn's master before Django is set up: it imports nothing of Django.
"""

import json
import re
import time
import uuid
from http import HTTPStatus

from gunicorn import http, util
from gunicorn.workers.gthread import _DEFER, ThreadWorker

from backoffice.api.envelope import error_body, status_message

BUFFERED_HEAD_BYTES = 64 * 1024  # past this the head is handed to gunicorn, which enforces its own limits
BUFFERED_BODY_BYTES = 256 * 1024
REQUEST_DEADLINE_SECONDS = 30
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*([0-9]{1,12})[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_HEAD_END = re.compile(rb"\r?\n\r?\n")
# gunicorn's own 400 is about the bytes, not about a field: say so
READ_FAILED = "Bad request: the request could not be read"


def request_complete(buffered: bytes) -> bool:
    """Whether ``buffered`` holds a whole request head, and its whole body when that is small and sized."""
    end = _HEAD_END.search(buffered)
    if end is None:
        return len(buffered) > BUFFERED_HEAD_BYTES  # no end in sight: let gunicorn refuse it
    length = _CONTENT_LENGTH.search(buffered, 0, end.start())
    if length is None or int(length.group(1)) > BUFFERED_BODY_BYTES:
        return True  # no body, a chunked one, or one too large to hold here: it streams in the thread
    return len(buffered) - end.end() >= int(length.group(1))


def envelope_response(status: int) -> bytes:
    """A complete HTTP response carrying the error envelope for ``status``."""
    message = READ_FAILED if status == 400 else status_message(status)
    body = json.dumps(error_body(status, message), separators=(",", ":")).encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        "Cache-Control: no-store\r\n"
        # the request could not be read, so neither could its X-Request-ID: every response still has one
        f"X-Request-ID: {uuid.uuid4().hex}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class _CapturingSocket:
    """The client socket as gunicorn's error writer sees it: what it sends is kept, not sent."""

    def __init__(self, sock):
        self._sock = sock
        self.sent = bytearray()

    def sendall(self, data):
        self.sent += data

    def send(self, data):
        self.sent += data
        return len(data)

    def __getattr__(self, name):
        return getattr(self._sock, name)


class EnvelopeThreadWorker(ThreadWorker):
    def handle(self, conn):
        if self.cfg.is_ssl:
            return super().handle(conn)  # TLS is the proxy's job here; keep gunicorn's own path for it
        ready = self._gather(conn)
        if ready is None:
            return False  # the client left, or took too long: close
        if not ready:
            return _DEFER  # back to the poller until more arrives
        conn.data_ready = True
        conn.vk_started = None
        return super().handle(conn)

    def _gather(self, conn) -> bool | None:
        """Read what has arrived without blocking; True once the request is complete enough to serve."""
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        started = getattr(conn, "vk_started", None)
        if started is None:
            started = conn.vk_started = time.monotonic()
        unreader = conn.parser.unreader
        buffered = unreader.take_buffered()
        closed = False
        conn.sock.setblocking(False)
        try:
            while not request_complete(buffered):
                try:
                    chunk = conn.sock.recv(64 * 1024)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:
                    return None
                if not chunk:
                    closed = True
                    break
                buffered += chunk
        finally:
            unreader.unread(buffered)
        if request_complete(buffered):
            return True
        if closed or time.monotonic() - started > REQUEST_DEADLINE_SECONDS:
            return None
        return False

    def handle_error(self, req, client, addr, exc):
        # gunicorn decides the status and logs; only the page it writes is replaced
        capture = _CapturingSocket(client)
        super().handle_error(req, capture, addr, exc)
        status_line = bytes(capture.sent).split(b"\r\n", 1)[0].split()
        try:
            status = int(status_line[1])
        except (IndexError, ValueError):
            return
        try:
            util.write_nonblock(client, envelope_response(status))
        except Exception:  # the client is gone: nothing to answer
            self.log.debug("Failed to send the error envelope.")
