"""The multiprocess directory: created when missing, cleaned of processes that are gone, never of live ones."""

import os
from unittest import mock

from backoffice.ops import metrics
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.servers import app_env, manage


def test_a_command_run_with_the_servers_environment_creates_a_missing_directory(tmp_path):
    missing = tmp_path / "not-yet" / "metrics"
    env = app_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", PROMETHEUS_MULTIPROC_DIR=str(missing))
    manage(env, "check")  # raises when the command fails
    assert missing.is_dir()


def test_only_live_gauges_of_ended_processes_go_their_counters_stay_counted(tmp_path):
    alive_pid, gone_pid = os.getpid(), 4_194_304 + 7
    names = [
        f"counter_{alive_pid}.db",
        f"counter_{gone_pid}.db",
        f"histogram_{gone_pid}.db",
        f"gauge_livesum_{gone_pid}.db",
        f"gauge_liveall_{gone_pid}.db",
        f"gauge_livesum_{alive_pid}.db",
        "notes.txt",
    ]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    removed = metrics.clean_dead_processes(str(tmp_path))
    assert sorted(os.path.basename(name) for name in removed) == [
        f"gauge_liveall_{gone_pid}.db",
        f"gauge_livesum_{gone_pid}.db",
    ]
    # a dead process's counts stay summed: a total never falls because a worker died or another started
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"counter_{alive_pid}.db", f"counter_{gone_pid}.db", f"histogram_{gone_pid}.db"]
        + [f"gauge_livesum_{alive_pid}.db", "notes.txt"]
    )


def test_a_celery_worker_starting_keeps_the_counts_of_a_killed_gunicorn_worker(tmp_path, monkeypatch):
    from backoffice.tasks import _worker_started

    gone_pid = 4_194_304 + 9
    for name in (f"histogram_{gone_pid}.db", f"counter_{gone_pid}.db", f"gauge_livesum_{gone_pid}.db"):
        (tmp_path / name).write_bytes(b"x")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    _worker_started()
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"counter_{gone_pid}.db", f"histogram_{gone_pid}.db"]


def test_processes_starting_together_may_clean_one_directory_at_once(tmp_path):
    """``make run`` starts gunicorn, the workers and beat at once on one directory: each cleans it."""
    for trial in range(20):
        directory = tmp_path / str(trial)
        directory.mkdir()
        for pid in range(4_194_304 + 10, 4_194_304 + 410):
            (directory / f"gauge_livesum_{pid}.db").write_bytes(b"x")
        outcomes = run_in_threads(4, lambda _, where=str(directory): metrics.clean_dead_processes(where))
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        assert sum(len(o) for o in outcomes) == 400  # each file removed once, by whichever came first
        assert not list(directory.iterdir())


def test_a_worker_ending_after_its_gauges_were_cleaned_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    gone_pid = 4_194_304 + 11
    (tmp_path / f"gauge_livesum_{gone_pid}.db").write_bytes(b"x")
    with mock.patch("os.remove", side_effect=FileNotFoundError):
        metrics.process_dead(gone_pid)  # the file went between the listing and the removal
