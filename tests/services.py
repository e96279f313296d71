"""Make sure the real PostgreSQL and Redis the tests use are installed and running.

Starts them when stopped and installs them with apt when missing, so the suite
passes on a fresh Debian machine as on a developer's. Never mocks them.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

from redis import Redis

PG_PORT = 5432
REDIS_PORT = 6379


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _wait_for(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not _port_open(port):
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds}s")
        time.sleep(0.3)


def _apt_install(*packages: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-q", *packages], check=True, env=env)


def _trust_local_tcp(version: str) -> None:
    """A freshly installed cluster asks passwords over TCP; the tests' cluster trusts loopback."""
    hba = f"/etc/postgresql/{version}/main/pg_hba.conf"
    with open(hba, encoding="utf-8") as handle:
        rules = handle.read()
    if "127.0.0.1/32            trust" not in rules:
        with open(hba, "w", encoding="utf-8") as handle:
            handle.write("host all all 127.0.0.1/32            trust\n"
                         "host all all ::1/128                 trust\n" + rules)


def ensure_postgres() -> None:
    if _port_open(PG_PORT):
        return
    installed_now = not glob.glob("/etc/postgresql/*/main")
    if installed_now:
        _apt_install("postgresql")
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    if installed_now:
        _trust_local_tcp(version)
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"],
                   check=False)
    _wait_for(PG_PORT)


def ensure_redis() -> None:
    if _port_open(REDIS_PORT):
        return
    if shutil.which("redis-server") is None:
        _apt_install("redis-server")
    subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1",
                    "--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"], check=True)
    _wait_for(REDIS_PORT)


@contextmanager
def redis_database(number: int) -> Iterator[str]:
    """The URL of Redis database `number`, a test module's own, empty before and after (so
    modules run together never see each other's keys)."""
    ensure_redis()
    url = f"redis://127.0.0.1:{REDIS_PORT}/{number}"
    server = Redis.from_url(url)
    server.flushdb()
    try:
        yield url
    finally:
        server.flushdb()


class OwnRedis:
    """A redis-server of the test's own on a free port, which the test may restart (never
    the shared one): with `aof`, its data survives a restart, as a production Redis with
    appendonly; without, a restart empties it."""

    def __init__(self, directory: str, aof: bool) -> None:
        ensure_redis()  # installs redis-server if missing
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.directory, self.aof = directory, aof
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> OwnRedis:
        self._process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes" if self.aof else "no", "--dir", self.directory],
            stdout=subprocess.DEVNULL)
        _wait_for(self.port)
        return self

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self._process.pid if self._process is not None else None

    def stop(self) -> None:
        """A clean shutdown (SIGTERM): the append-only file is complete."""
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=30)
            self._process = None

    def restart(self, down_seconds: float) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def __enter__(self) -> OwnRedis:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
