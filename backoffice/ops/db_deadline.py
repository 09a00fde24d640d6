"""A deadline on every wait for PostgreSQL, kept by the client: a frozen server costs a request seconds, not forever.

``statement_timeout`` and ``lock_timeout`` (``DB_STATEMENT_TIMEOUT``, ``DB_LOCK_TIMEOUT``) are kept by
the server: a query stuck behind a lock or running long is cancelled there, and the request answers 503.
A server that is frozen (a paused virtual machine, a stalled disk, a process stopped) cancels nothing,
and libpq waits for its answer without end; the kernel still acknowledges what is sent, so no TCP
timeout fires either. psycopg2 lets a *wait callback* do libpq's waiting; this one waits at most
``connect`` seconds for a connection and ``answer`` seconds for any other reply (the statement timeout
plus the connect timeout: longer than the server's own cancellation, so it acts only when the server
cannot). Then the connection is closed (nothing more can be expected of it) and ``OperationalError``
raised, which the API answers 503 like any database outage; Django opens a new connection next time.

``at_most(seconds)`` narrows every wait of a block, all together, for this thread: the readiness probe
and the check of a reused connection ask a question PostgreSQL answers in a millisecond, and must know
within seconds that it will not (a load balancer waits for readiness; a request must not spend its
whole deadline on the check and then as much again on connecting).

COPY and large objects do not work with a wait callback: code that needs them runs with
``DB_STATEMENT_TIMEOUT=0``, which installs none.
"""

import os
import selectors
import socket
import threading
import time
from contextlib import contextmanager

import psycopg2
from psycopg2 import extensions

NO_ANSWER = "The database did not answer within {seconds:g} s"
_narrowed = threading.local()


@contextmanager
def at_most(seconds: float):
    """Every wait for PostgreSQL in the block (connecting included) ends within ``seconds`` of the block's start."""
    outer = getattr(_narrowed, "deadline", None)
    deadline = time.monotonic() + seconds
    _narrowed.deadline = deadline if outer is None else min(outer, deadline)
    try:
        yield
    finally:
        _narrowed.deadline = outer


def deadline_wait(*, connect: float, answer: float):
    """A psycopg2 wait callback: libpq's polling loop, with a deadline."""

    def wait(connection) -> None:
        # a connection being opened reports a status other than READY/BEGIN/PREPARED until it is open
        connecting = connection.status not in (
            extensions.STATUS_READY,
            extensions.STATUS_BEGIN,
            extensions.STATUS_PREPARED,
        )
        seconds = connect if connecting else answer
        deadline = time.monotonic() + seconds
        narrowed = getattr(_narrowed, "deadline", None)
        if narrowed is not None and narrowed < deadline:
            deadline, seconds = narrowed, max(0.0, narrowed - time.monotonic())
        with selectors.DefaultSelector() as selector:
            while True:
                state = connection.poll()
                if state == extensions.POLL_OK:
                    return
                if state == extensions.POLL_READ:
                    events = selectors.EVENT_READ
                elif state == extensions.POLL_WRITE:
                    events = selectors.EVENT_WRITE
                else:
                    raise psycopg2.OperationalError(f"unexpected poll state {state}")
                selector.register(connection.fileno(), events)
                ready = selector.select(max(0.0, deadline - time.monotonic()))
                selector.unregister(connection.fileno())
                if not ready:
                    _cut(connection.fileno())
                    raise psycopg2.OperationalError(NO_ANSWER.format(seconds=seconds))

    return wait


def _cut(fileno: int) -> None:
    """End the connection under libpq: a late reply must never be read as the answer to another query.

    ``connection.close()`` cannot be called here (psycopg2 holds the connection's lock while it waits);
    shutting the socket down makes libpq see the connection as lost, so psycopg2 marks it closed.
    """
    try:
        with socket.socket(fileno=os.dup(fileno)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def install(*, connect: float, answer: float) -> None:
    extensions.set_wait_callback(deadline_wait(connect=connect, answer=answer))


def uninstall() -> None:
    extensions.set_wait_callback(None)
