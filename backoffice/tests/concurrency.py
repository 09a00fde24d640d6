"""Real concurrency for tests on PostgreSQL: N threads released together, each with its own connection."""

import threading

import pytest
from django.db import connection, connections


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and real concurrency need PostgreSQL")


def run_in_threads(count: int, target) -> list:
    """Call ``target(index)`` in ``count`` threads started at once; returns what each call returned or raised."""
    barrier = threading.Barrier(count)
    outcomes: list = [None] * count

    def worker(index):
        try:
            barrier.wait()
            outcomes[index] = target(index)
        except Exception as exc:  # handed back to the test, which asserts on it
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes
