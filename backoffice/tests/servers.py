"""Private servers for the outage and serving tests: redis-server, a PostgreSQL cluster and gunicorn.

Each runs on a free port in the test's temporary directory, is started, stopped, frozen and
restarted by the test, and is ended by its process id when the test ends: the machine's shared
PostgreSQL and Redis are never touched. A test whose binary is missing is skipped, saying which.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
TEST_SECRET = "test-only-secret-key-not-for-production-use-0123456789"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(check, *, timeout: float = 30, what: str = "server") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise TimeoutError(f"{what} did not come up within {timeout} s")


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _end(process: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    if process is not None and process.poll() is None:
        try:
            os.kill(process.pid, signal.SIGCONT)  # a frozen process cannot act on SIGTERM
        except ProcessLookupError:
            return
        process.send_signal(sig)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


class RedisServer:
    """A redis-server of our own: ``stop``/``start`` (refused connections), ``freeze``/``thaw`` (SIGSTOP)."""

    def __init__(self, directory: Path):
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.binary, self.directory, self.port = binary, directory, free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: port_open(self.port), what="redis-server")

    def stop(self) -> None:
        _end(self.process)
        self.process = None

    def freeze(self) -> None:
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)


class PostgresCluster:
    """A PostgreSQL cluster of our own (initdb in a temporary directory), with ``stop``, ``start``, ``remove``,
    ``freeze`` and ``thaw`` (SIGSTOP and SIGCONT to the server and each of its processes, as a paused
    machine or a stalled disk would leave it: connections stay open and nothing answers).

    PostgreSQL refuses to run as root; as root the cluster runs as the ``postgres`` system user, in a
    directory of its own under the system's temporary directory (pytest's are closed to other users).
    """

    def __init__(self):
        if not (PG_BIN / "initdb").exists():
            pytest.skip(f"PostgreSQL binaries not found in {PG_BIN} (set PG_BIN)")
        directory = Path(tempfile.mkdtemp(prefix="vikela-test-pg-"))
        self.directory, self.port = directory, free_port()
        self.data = directory / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                pytest.skip("running as root without runuser: cannot start PostgreSQL as another user")
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(directory, "postgres")
            directory.chmod(0o700)
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True, cwd=self.directory)

    def url(self, database: str = "vikela") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.directory / "log")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def _processes(self) -> list[int]:
        """The server's process and its children (each session's backend, the background workers)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue  # ended meanwhile
                if int(stat.rsplit(")", 1)[1].split()[1]) == postmaster:
                    children.append(int(entry.name))
        return [postmaster, *children]

    def freeze(self) -> None:
        self.frozen = self._processes()
        for pid in self.frozen:
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in getattr(self, "frozen", []):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.frozen = []

    def remove(self) -> None:
        self.thaw()  # a frozen server cannot act on pg_ctl's stop
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def create_database(self, name: str = "vikela") -> None:
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)


def app_env(**overrides: str) -> dict:
    """The environment of a production-like server process for these tests."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update({"ENVIRONMENT": "production", "DEBUG": "false", "SECRET_KEY": TEST_SECRET, "LOG_LEVEL": "WARNING"})
    env.update(overrides)
    return env


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )


class Gunicorn:
    """``scripts/serve`` (gunicorn with our worker) on a free port, as ``make run`` starts it."""

    def __init__(self, env: dict, log: Path):
        self.env, self.log, self.port = env, log, free_port()
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                ["./scripts/serve", "127.0.0.1", str(self.port)], cwd=ROOT, env=self.env, stdout=log, stderr=log
            )
        wait_until(lambda: port_open(self.port), timeout=60, what="gunicorn")

    def stop(self) -> None:
        _end(self.process, signal.SIGINT)  # gunicorn's quick shutdown: no grace for stalled test sockets
        self.process = None


def http(method: str, url: str, *, body: bytes | None = None, headers: dict | None = None, timeout: float = 10):
    """(status, headers, body bytes) of one request; errors are answers too."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def raw_request(port: int, data: bytes, *, timeout: float = 10) -> bytes:
    """Send ``data`` as it is and read the whole answer (the server closes the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def children(pid: int) -> set[int]:
    """The process ids of ``pid``'s children (gunicorn's workers, Celery's pool processes)."""
    try:
        return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except FileNotFoundError:
        return set()


class Script:
    """One of scripts/worker or scripts/beat, started as ``make run`` starts it, its output in a log file."""

    def __init__(self, env: dict, log: Path, *args: str):
        self.env, self.log, self.args = env, log, args
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(list(self.args), cwd=ROOT, env=self.env, stdout=log, stderr=log)

    def events(self) -> list[dict]:
        """The JSON log events written so far (a line cut off by a write in progress is left out)."""
        import json

        events = []
        for line in self.log.read_text().splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
        return events

    def stop(self, timeout: float = 15) -> None:
        _end(self.process, signal.SIGTERM, timeout)
        self.process = None
