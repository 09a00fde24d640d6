"""The worker's pieces that bound slow clients, without a server: reads with a deadline, unread bodies."""

import io
import socket

import pytest
from gunicorn.http.body import Body, LengthReader
from gunicorn.http.unreader import SocketUnreader

from backoffice.http import serving


@pytest.fixture
def pair():
    ours, theirs = socket.socketpair()
    yield serving.DeadlineSocket(ours), theirs
    ours.close()
    theirs.close()


def test_an_armed_read_gives_up_at_its_deadline(pair):
    reader, _client = pair
    reader.deadline = serving.time.monotonic() + 0.2
    with pytest.raises(TimeoutError):
        reader.recv(10)
    assert reader.gettimeout() is None  # left blocking for the response gunicorn writes


def test_past_its_deadline_a_read_takes_what_has_arrived_and_never_waits(pair):
    reader, client = pair
    client.sendall(b"abc")
    reader.deadline = serving.time.monotonic() - 1
    assert reader.recv(10) == b"abc"
    with pytest.raises(TimeoutError):
        reader.recv(10)


def test_an_unarmed_read_is_gunicorns_own(pair):
    reader, client = pair
    client.sendall(b"abc")
    assert reader.recv(10) == b"abc"


def test_a_body_counts_as_arrived_only_once_all_of_it_is_buffered(pair):
    reader, client = pair
    unreader = SocketUnreader(reader)
    unreader.unread(b"12345")
    assert serving.body_arrived(Body(LengthReader(unreader, 5)))
    assert not serving.body_arrived(Body(LengthReader(unreader, 400_000)))
    assert serving.body_arrived(io.BytesIO(b""))  # no body reader at all: nothing to wait for


@pytest.mark.parametrize(
    "length, at_least",
    [(None, serving.REQUEST_DEADLINE_SECONDS), (10, serving.REQUEST_DEADLINE_SECONDS), (10**8, 10**8 / 32768)],
)
def test_a_large_body_has_time_for_the_slowest_rate_allowed(length, at_least):
    assert serving.body_deadline(length, now=0) == max(serving.REQUEST_DEADLINE_SECONDS, at_least)


def test_a_bad_request_deadline_stops_the_server(monkeypatch):
    monkeypatch.setenv("GUNICORN_REQUEST_DEADLINE", "soon")
    with pytest.raises(RuntimeError, match="GUNICORN_REQUEST_DEADLINE"):
        serving._deadline_seconds()
    monkeypatch.setenv("GUNICORN_REQUEST_DEADLINE", "2.5")
    assert serving._deadline_seconds() == 2.5
