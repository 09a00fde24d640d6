"""The multiprocess directory: created when missing, cleaned of processes that are gone, never of live ones."""

import os

from backoffice.ops import metrics
from backoffice.tests.servers import app_env, manage


def test_a_command_run_with_the_servers_environment_creates_a_missing_directory(tmp_path):
    missing = tmp_path / "not-yet" / "metrics"
    env = app_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", PROMETHEUS_MULTIPROC_DIR=str(missing))
    manage(env, "check")  # raises when the command fails
    assert missing.is_dir()


def test_files_of_ended_processes_go_and_those_of_live_ones_stay(tmp_path):
    alive_pid, gone_pid = os.getpid(), 4_194_304 + 7
    names = [
        f"counter_{alive_pid}.db",
        f"histogram_{gone_pid}.db",
        f"gauge_livesum_{gone_pid}.db",
        f"gauge_livesum_{alive_pid}.db",
        "notes.txt",
    ]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    removed = metrics.clean_dead_processes(str(tmp_path))
    assert sorted(os.path.basename(name) for name in removed) == [
        f"gauge_livesum_{gone_pid}.db",
        f"histogram_{gone_pid}.db",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"counter_{alive_pid}.db", f"gauge_livesum_{alive_pid}.db", "notes.txt"]
    )
