"""scripts/serve against a real gunicorn: requests gunicorn refuses itself, and clients that stall."""

import json
import select
import socket
import threading
import time

import pytest

from backoffice.tests.servers import Gunicorn, app_env, http, manage, raw_request

pytestmark = pytest.mark.outage
THREADS = 8  # scripts/serve's default
STALLED = 2 * THREADS
EMAIL, PASSWORD = "serving-admin@example.com", "Serving-Passw0rd!x"
JSON = {"Content-Type": "application/json"}
DEADLINE = 3  # seconds a request may take to arrive (30 by default): short, so that the tests are short


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("serve")
    # rates high enough that fifty clients at once are about the server, not the rate limits
    env = app_env(
        DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}",
        MEDIA_ROOT=str(directory / "media"),
        RATE_LIMIT_AUTH="10000/m",
        RATE_LIMIT_STANDARD="10000/m",
        GUNICORN_REQUEST_DEADLINE=str(DEADLINE),
    )
    # the staff tables only: enough to sign in (a second factor's devices are read at sign-in), a few seconds
    # rather than every app's migrations
    for app in ("backoffice", "token_blacklist", "otp_totp", "otp_static"):
        manage(env, "migrate", app, "--noinput")
    manage(env, "create_staff", "--email", EMAIL, "--password", PASSWORD, "--role", "admin")
    gunicorn = Gunicorn(env, directory / "gunicorn.log")
    gunicorn.start()
    yield gunicorn
    gunicorn.stop()


def envelope(answer: bytes) -> tuple[int, dict, dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body)


@pytest.mark.parametrize(
    "request_bytes, status, code",
    [
        (b"GET /api/v1/" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414, "URI_TOO_LONG"),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431, None),
        (b"NONSENSE\r\n\r\n", 400, "VALIDATION_ERROR"),
    ],
    ids=["request line", "header", "garbage"],
)
def test_requests_gunicorn_refuses_itself_answer_in_the_envelope(server, request_bytes, status, code):
    answered, headers, body = envelope(raw_request(server.port, request_bytes))
    assert answered == status and headers["Content-Type"] == "application/json"
    assert body["success"] is False and body["statusCode"] == status and body["message"]
    if code:
        assert body["error"]["code"] == code


def test_django_level_oddities_answer_in_the_envelope_through_gunicorn(server):
    for path, status in [("/api/v1/nothing%0A", 400), ("/api/v1/admin/aml/rules/%00", 400), ("/api/v1/x", 404)]:
        answered, headers, body = http("GET", server.base + path)
        assert (answered, headers["Content-Type"]) == (status, "application/json")
        assert json.loads(body)["statusCode"] == status
    answered, headers, body = http("GET", server.base + "/api/v1/health", headers={"Host": "evil.example"})
    assert answered == 400 and json.loads(body)["error"]["code"] == "VALIDATION_ERROR"


def test_a_chunked_body_is_answered_411_not_read_as_empty(server):
    body = json.dumps({"email": EMAIL, "password": PASSWORD}).encode()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    head = (
        b"POST /api/v1/auth/admin/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    answered, headers, answer = envelope(raw_request(server.port, head + chunked))
    assert (answered, answer["error"]["code"]) == (411, "LENGTH_REQUIRED"), answer
    assert "Content-Length" in answer["message"]
    # the same body with its length is served
    status, _, _ = http("POST", server.base + "/api/v1/auth/admin/login", body=body, headers=JSON)
    assert status == 200


@pytest.mark.parametrize("opening", [b"", b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0", b"POST /api/v1/auth/admin/lo"])
def test_stalled_clients_hold_no_thread_so_a_normal_request_is_answered(server, opening):
    stalled = []
    try:
        for _ in range(STALLED):  # twice the worker's threads
            sock = socket.create_connection(("127.0.0.1", server.port))
            if opening:
                sock.sendall(opening)
            stalled.append(sock)
        time.sleep(0.5)  # let the worker pick them all up
        status, _headers, body = http("GET", server.base + "/api/v1/health", timeout=10)
        assert status == 200 and json.loads(body)["data"]["status"] == "ok"
    finally:
        for sock in stalled:
            sock.close()


def test_a_body_that_trickles_in_is_still_served_once_complete(server):
    body = json.dumps({"email": "nobody@example.com", "note": "x" * 2000}).encode()
    head = (
        f"POST /api/v1/auth/admin/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        for piece in (head[:20], head[20:], body[:10], body[10:]):
            sock.sendall(piece)
            time.sleep(0.3)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status, _headers, payload = envelope(answer)
    # the whole body was read: the serializer saw the e-mail and found the password missing
    assert status == 400 and set(payload["error"]["details"]) == {"password"}


class Trickler:
    """Connections that send an opening, then one byte every ``every`` seconds, as a slow-loris attacker does.

    A thread trickles and collects what the server answers; a connection stops trickling once answered.
    """

    def __init__(self, port: int, opening: bytes, count: int, every: float = 2.0):
        self.sockets = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(opening)
            sock.setblocking(False)
            self.sockets.append(sock)
        self.answers = [b""] * count
        self.closed = [False] * count
        self.every, self.stop = every, threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self):
        while not self.stop.is_set() and not all(self.closed):
            waiting = [sock for sock, closed in zip(self.sockets, self.closed, strict=True) if not closed]
            readable, _, _ = select.select(waiting, [], [], self.every)
            for index, sock in enumerate(self.sockets):
                if self.closed[index]:
                    continue
                if sock in readable:
                    try:
                        chunk = sock.recv(65536)
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError:
                        chunk = b""
                    self.answers[index] += chunk
                    self.closed[index] = not chunk
                elif not self.answers[index]:
                    try:
                        sock.send(b" ")
                    except OSError:
                        pass

    def wait(self, timeout: float) -> list[bytes]:
        """What each connection was answered before the server closed it (the thread stops at ``timeout``)."""
        self.thread.join(timeout)
        assert all(self.closed), f"{self.closed.count(False)} connections still open after {timeout} s"
        return self.answers

    def close(self):
        self.stop.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


def large_body_head(path: str, headers: str = "", *, length: int = 400_000) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n{headers}\r\n{{"
    ).encode()


def test_large_bodies_of_unauthenticated_requests_are_refused_before_they_are_read(server):
    # 50 clients announce a 400 KB body (more than the event loop buffers) and trickle it a byte every 2 s:
    # none is authenticated, so none gets a thread to read its body; each is answered at once
    heads = [
        (large_body_head("/api/v1/admin/users"), 401),
        (large_body_head("/api/v1/admin/users", "Authorization: Bearer forged.token.here\r\n"), 401),
        (large_body_head("/api/v1/auth/admin/login"), 413),
    ]
    tricklers = [Trickler(server.port, head, 17) for head, _ in heads]
    try:
        status, _headers, body = http("GET", server.base + "/api/v1/health", timeout=10)
        assert status == 200 and json.loads(body)["data"]["status"] == "ok"
        for trickler, (_head, expected) in zip(tricklers, heads, strict=True):
            for answer in trickler.wait(timeout=20):
                answered, headers, payload = envelope(answer)
                assert (answered, payload["statusCode"], headers["Connection"]) == (expected, expected, "close")
    finally:
        for trickler in tricklers:
            trickler.close()


def test_clients_trickling_their_head_past_the_deadline_are_answered_408_and_closed_without_stalling_others(server):
    # each keeps sending a byte twice a second, well within the keep-alive, and never ends its head
    trickler = Trickler(server.port, b"GET /api/v1/health HTTP/1.1\r\nX-Slow: ", 30, every=0.5)
    try:
        time.sleep(DEADLINE + 1)  # past the deadline: the server is closing them all, while they still send
        status, _headers, body = http("GET", server.base + "/api/v1/health", timeout=10)
        assert status == 200 and json.loads(body)["data"]["status"] == "ok"
        for answer in trickler.wait(timeout=20):
            answered, headers, payload = envelope(answer)
            assert (answered, headers["Connection"], payload["error"]["code"]) == (408, "close", "REQUEST_TIMEOUT")
    finally:
        trickler.close()


def test_an_authenticated_body_trickling_past_its_deadline_is_answered_408_and_frees_its_thread(server):
    status, _headers, body = http(
        "POST",
        server.base + "/api/v1/auth/admin/login",
        body=json.dumps({"email": EMAIL, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json"},
    )
    assert status == 200, body
    token = json.loads(body)["data"]["accessToken"]
    # authenticated, so a thread reads the body; as many as the worker has threads, all trickling: each
    # read waits no longer than the body's deadline (the request deadline, or its size at the slowest
    # rate allowed), then the request is answered 408 and its thread is free again
    head = large_body_head("/api/v1/admin/users", f"Authorization: Bearer {token}\r\n", length=270_000)
    trickler = Trickler(server.port, head, THREADS, every=0.5)
    try:
        for answer in trickler.wait(timeout=60):
            answered, headers, payload = envelope(answer)
            assert (answered, headers["Connection"], payload["error"]["code"]) == (408, "close", "REQUEST_TIMEOUT")
        status, _headers, body = http("GET", server.base + "/api/v1/health", timeout=10)
        assert status == 200 and json.loads(body)["data"]["status"] == "ok"
    finally:
        trickler.close()
