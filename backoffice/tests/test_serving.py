"""scripts/serve against a real gunicorn: requests gunicorn refuses itself, and clients that stall."""

import json
import socket
import time

import pytest

from backoffice.tests.servers import Gunicorn, app_env, http, raw_request

pytestmark = pytest.mark.outage
STALLED = 16


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("serve")
    # an empty SQLite file is enough: health runs SELECT 1, and nothing here needs a table
    env = app_env(DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}", MEDIA_ROOT=str(directory / "media"))
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


@pytest.mark.parametrize("opening", [b"", b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0", b"POST /api/v1/auth/admin/lo"])
def test_stalled_clients_hold_no_thread_so_a_normal_request_is_answered(server, opening):
    stalled = []
    try:
        for _ in range(STALLED):  # twice the worker's eight threads
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
