"""Waiting for an answer with a deadline: an outage test fails on a hang, never waits on it forever."""

import threading

from django.db import connections


def answered_within(seconds: float, call):
    """``call()``'s result, or fail if it has not answered after ``seconds`` (a hang, not a slow answer)."""
    result: list = []

    def run():
        try:
            result.append(call())
        finally:
            connections.close_all()  # this thread's database connection must not outlive the test

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert result, f"no answer after {seconds} s"
    return result[0]
