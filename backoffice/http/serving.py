"""The gunicorn worker ``scripts/serve`` runs: gunicorn's threaded worker, hardened for the open internet.

``EnvelopeThreadWorker`` (``--worker-class backoffice.http.serving.EnvelopeThreadWorker``) changes these things:

* **Slow clients cost no thread.** gunicorn's ``gthread`` hands a connection to a thread as soon as its
  first bytes arrive, and the thread then blocks until the rest of the request comes; a handful of
  clients that send half a request and stall hold every thread. Here the request head (and a small
  body, up to ``BUFFERED_BODY_BYTES``) is gathered with non-blocking reads between trips through the
  worker's event loop; a connection goes to a thread only once its request is complete. A stalled
  connection waits in the poller and is closed after ``--keep-alive`` seconds of silence, or answered
  408 and closed ``REQUEST_DEADLINE_SECONDS`` after its first byte however slowly it trickles.
* **Every read in a thread has a deadline.** A body too large to gather in the event loop is read by
  the thread that serves the request (the application decides whether to read it: a body over
  ``UNAUTHENTICATED_BODY_MAX_BYTES`` is refused, unread, when the request is not authenticated). No
  read of it waits past ``REQUEST_DEADLINE_SECONDS`` or a time allowing ``MIN_BODY_BYTES_PER_SECOND``
  for the body, whichever is longer: the application then sees the body as unreadable (408).
  A response that starts before its request's body has arrived closes the connection; what the client
  still sends is never waited for in a thread.
* **Closing never blocks the event loop.** gunicorn closes a connection gracefully (FIN, then reading
  what the client still sends for up to 2 s, so the kernel does not reset the connection and cut off
  the answer) in the event loop itself, blocking every other connection meanwhile: a client that keeps
  trickling makes each close cost 2 s of the whole worker. Here the lingering is done by the poller.
* **Errors gunicorn answers itself are the API's envelope.** A request line over
  ``--limit-request-line``, oversized headers, a malformed request: gunicorn refuses these before
  Django sees them, with an HTML page. They leave as ``{success: false, message, statusCode, error}``
  with gunicorn's status (414, 431, 400...), whatever the path: the request could not be read, so its
  path is not known.

In production a reverse proxy that buffers requests (nginx, see the README) shields the server too.

This module is imported by gunicorn's master before Django is set up: it imports nothing of Django.
"""

import json
import os
import re
import selectors
import socket
import time
import uuid
from collections import deque
from functools import partial
from http import HTTPStatus

from gunicorn import http, util
from gunicorn.http.body import ChunkedReader, LengthReader
from gunicorn.workers.gthread import _DEFER, ThreadWorker

from backoffice.api.envelope import error_body, status_message

BUFFERED_HEAD_BYTES = 64 * 1024  # past this the head is handed to gunicorn, which enforces its own limits
BUFFERED_BODY_BYTES = 256 * 1024
# A body larger than the event loop gathers must still come at this rate on average (a 10 MB upload may
# take 5 minutes); slower than that it is someone holding a thread on purpose.
MIN_BODY_BYTES_PER_SECOND = 32 * 1024
LINGER_SECONDS = 2.0  # as gunicorn's close_graceful
LINGER_MAX_BYTES = 64 * 1024
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*([0-9]{1,12})[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)
_HEAD_END = re.compile(rb"\r?\n\r?\n")
# gunicorn's own 400 is about the bytes, not about a field: say so
READ_FAILED = "Bad request: the request could not be read"
TOO_SLOW = "The request did not arrive in time"


def _deadline_seconds() -> float:
    """``GUNICORN_REQUEST_DEADLINE`` (seconds, default 30), read strictly: a typo stops the server."""
    raw = os.environ.get("GUNICORN_REQUEST_DEADLINE", "").strip()
    if not raw:
        return 30.0
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value <= 3600:
        raise RuntimeError(f"GUNICORN_REQUEST_DEADLINE must be a number of seconds in (0, 3600], got {raw!r}")
    return value


REQUEST_DEADLINE_SECONDS = _deadline_seconds()


def declared_body_length(buffered: bytes) -> int | None:
    """The Content-Length of the request head in ``buffered`` (None: none given, or no whole head yet)."""
    end = _HEAD_END.search(buffered)
    if end is None:
        return None
    length = _CONTENT_LENGTH.search(buffered, 0, end.start())
    return None if length is None else int(length.group(1))


def request_complete(buffered: bytes) -> bool:
    """Whether ``buffered`` holds a whole request head, and its whole body when that is small and sized."""
    end = _HEAD_END.search(buffered)
    if end is None:
        return len(buffered) > BUFFERED_HEAD_BYTES  # no end in sight: let gunicorn refuse it
    length = _CONTENT_LENGTH.search(buffered, 0, end.start())
    if length is None or int(length.group(1)) > BUFFERED_BODY_BYTES:
        return True  # no body, a chunked one, or one too large to hold here: it streams in the thread
    return len(buffered) - end.end() >= int(length.group(1))


def body_deadline(length: int | None, *, now: float) -> float:
    """When reading a request's body must be over: the request deadline, longer for a large body."""
    allowance = (length or 0) / MIN_BODY_BYTES_PER_SECOND
    return now + max(REQUEST_DEADLINE_SECONDS, allowance)


def envelope_response(status: int, message: str | None = None) -> bytes:
    """A complete HTTP response carrying the error envelope for ``status``."""
    message = message or (READ_FAILED if status == 400 else status_message(status))
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


class DeadlineSocket:
    """The client socket as the request parser reads it: once armed, no ``recv`` waits past ``deadline``.

    Past the deadline a read takes only what has already arrived, then raises ``TimeoutError`` (an
    ``OSError``: Django reports the body as unreadable). Between reads the socket is left blocking
    without a timeout, as gunicorn writes the response on it.
    """

    def __init__(self, sock):
        self._sock = sock
        self.deadline: float | None = None

    def recv(self, size: int) -> bytes:
        if self.deadline is None:
            return self._sock.recv(size)
        remaining = self.deadline - time.monotonic()
        try:
            if remaining > 0:
                self._sock.settimeout(remaining)
                return self._sock.recv(size)
            self._sock.settimeout(0.0)
            try:
                return self._sock.recv(size)
            except BlockingIOError:
                raise TimeoutError(TOO_SLOW) from None
        finally:
            self._sock.settimeout(None)

    def __getattr__(self, name):
        return getattr(self._sock, name)


def body_arrived(body) -> bool:
    """Whether all of a request body (gunicorn's ``wsgi.input``) is read or waiting in its buffers."""
    reader = getattr(body, "reader", None)
    if isinstance(reader, LengthReader):
        return reader.length <= len(reader.unreader.buf.getvalue())
    if isinstance(reader, ChunkedReader):
        return reader.parser is None
    return True


def close_when_body_unread(app):
    """The WSGI application, closing the connection of a response that starts before its body has arrived.

    The client is then still sending (or pretending to); keeping the connection would mean reading the
    rest first, in a thread, for as long as the client takes.
    """

    def application(environ, start_response):
        def start(status, headers, exc_info=None):
            response = getattr(start_response, "__self__", None)
            if response is not None and not body_arrived(environ.get("wsgi.input")):
                response.force_close()
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return application


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
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lingering = deque()  # connections being closed, oldest first (so by deadline)

    def load_wsgi(self):
        super().load_wsgi()
        self.wsgi = close_when_body_unread(self.wsgi)

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
        conn.parser.unreader.sock.deadline = body_deadline(conn.vk_length, now=time.monotonic())
        return super().handle(conn)

    def _gather(self, conn) -> bool | None:
        """Read what has arrived without blocking; True once the request is complete enough to serve."""
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, DeadlineSocket(conn.sock), conn.client)
        started = getattr(conn, "vk_started", None)
        if started is None:
            started = conn.vk_started = time.monotonic()
        unreader = conn.parser.unreader
        unreader.sock.deadline = None  # the thread's deadline is armed once the request is handed over
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
            conn.vk_length = declared_body_length(buffered)
            return True
        if closed:
            return None
        if time.monotonic() - started > REQUEST_DEADLINE_SECONDS:
            self._answer_unread(conn, 408, TOO_SLOW)
            return None
        return False

    def _answer_unread(self, conn, status: int, message: str) -> None:
        """Send an envelope without waiting: the client is slow, and its request was never served."""
        try:
            conn.sock.send(envelope_response(status, message))
        except OSError:
            pass  # its buffer is full or it is gone: closing is answer enough

    def _keepalive_after(self, conn, keepalive):
        """Whether the connection can serve another request: only if the unread rest of the body has arrived.

        gunicorn drains an unread body for up to 5 s in the thread; a client trickling a body the
        application refused would hold the thread that long. Past the deadline the reader takes only
        what has arrived, so a body still on its way closes the connection instead.
        """
        if not keepalive:
            return False
        conn.parser.unreader.sock.deadline = time.monotonic()
        return bool(conn.parser.finish_body(max_bytes=BUFFERED_BODY_BYTES))

    def finish_request(self, conn, fs):
        """As gunicorn's, except that a connection to close lingers in the poller instead of the event loop."""
        if self.cfg.is_ssl or fs.cancelled() or fs.exception() is not None or fs.result():
            return super().finish_request(conn, fs)  # keep-alive, deferred, or an error: gunicorn's way
        self._linger(conn)

    def _linger(self, conn) -> None:
        """Half-close (FIN) and let the poller read what the client still sends until it closes, or time is up."""
        try:
            conn.sock.setblocking(False)
            conn.sock.shutdown(socket.SHUT_WR)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_lingering_readable, conn))
        except (OSError, ValueError, KeyError):
            self._close_lingering(conn, registered=False)
            return
        conn.vk_linger_until = time.monotonic() + LINGER_SECONDS
        conn.vk_drained = 0
        conn.vk_closed = False
        self.lingering.append(conn)

    def _on_lingering_readable(self, conn, _sock) -> None:
        try:
            data = conn.sock.recv(LINGER_MAX_BYTES)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        conn.vk_drained += len(data)
        if not data or conn.vk_drained >= LINGER_MAX_BYTES:
            self._close_lingering(conn)

    def _close_lingering(self, conn, *, registered: bool = True) -> None:
        if getattr(conn, "vk_closed", False):
            return
        conn.vk_closed = True
        if registered:
            try:
                self.poller.unregister(conn.sock)
            except (OSError, KeyError, ValueError):
                pass
        self.nr_conns -= 1
        util.close(conn.sock)

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        while self.lingering and (self.lingering[0].vk_closed or self.lingering[0].vk_linger_until <= now):
            self._close_lingering(self.lingering.popleft())

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
