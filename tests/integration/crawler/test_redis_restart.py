"""Redis restarted under two workers crawling the demo site: with its append-only file the
run completes with every page stored once; without persistence the run says what it lost;
with a worker killed as well, no live worker's requests are recovered.

Each test runs its own redis-server (tests.services.OwnRedis), never the shared one."""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.crawling import stored
from tests.demosite import DemoServer
from tests.integration.crawler.test_cluster import (
    allowed_paths,
    runs,
    tail,
    wait_for_log,
    wait_until_busy,
    worker,
)
from tests.services import OwnRedis

SLOW = ("-s", "DOWNLOAD_DELAY=0.05", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2")
DOWN_SECONDS = 2.5
_RECOVERED = re.compile(r"recovered \d+ in-flight requests of stopped worker (\S+)")


@pytest.fixture
def aof_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    (tmp_path / "redis").mkdir()
    with OwnRedis(str(tmp_path / "redis"), aof=True) as redis:
        yield redis


@pytest.fixture
def volatile_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    (tmp_path / "redis").mkdir()
    with OwnRedis(str(tmp_path / "redis"), aof=False) as redis:
        yield redis


def two_workers(pg_url: str, redis: OwnRedis, tmp_path: Path,
                server: DemoServer) -> tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]:
    """A waiting worker (it never idles out: `finish` stops it), then one that starts the
    run; both busy before this returns."""
    waiting = worker(pg_url, redis.url, tmp_path, tmp_path / "b.log", *SLOW, idle=600)
    wait_for_log(tmp_path / "b.log", "Spider opened")
    starter = worker(pg_url, redis.url, tmp_path, tmp_path / "a.log",
                     "-a", f"start_urls={server.url}/", "-a", "depth=8", *SLOW, idle=8)
    wait_until_busy(redis.url, waiting, tmp_path / "b.log")
    return starter, waiting


def logs(tmp_path: Path) -> str:
    return "".join(log.read_text(errors="replace") for log in sorted(tmp_path.glob("*.log")))


def exit_code(process: subprocess.Popen[bytes], log: Path, stop: bool = False) -> int:
    """The worker's exit code once it ends (by itself, or after SIGTERM with `stop`)."""
    if stop:
        process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"worker never ended:\n{tail(log)}") from None


def test_a_redis_restart_with_aof_loses_and_duplicates_nothing(
        pg_url: str, aof_redis: OwnRedis, tmp_path: Path) -> None:
    with DemoServer() as server:
        starter, waiting = two_workers(pg_url, aof_redis, tmp_path, server)
        aof_redis.restart(DOWN_SECONDS)
        assert exit_code(starter, tmp_path / "a.log") == 0, tail(tmp_path / "a.log")
        assert exit_code(waiting, tmp_path / "b.log", stop=True) == 0, tail(tmp_path / "b.log")
    text = logs(tmp_path)
    assert "Redis restarted" in text
    assert "Traceback" not in text and "Unhandled error" not in text, text[-3000:]
    assert not _RECOVERED.search(text)  # both workers lived: nothing of theirs recovered
    pages = stored(pg_url)
    assert {url.removeprefix(server.url) for url in pages} == allowed_paths(server)
    [run] = runs(pg_url)
    assert run.status == "finished" and run.stats["pages/new"] == len(pages)  # each page once
    assert not list(tmp_path.glob("**/*.jsonl"))


def test_a_redis_restart_without_persistence_ends_the_run_as_frontier_lost(
        pg_url: str, volatile_redis: OwnRedis, tmp_path: Path) -> None:
    with DemoServer() as server:
        starter, waiting = two_workers(pg_url, volatile_redis, tmp_path, server)
        volatile_redis.restart(DOWN_SECONDS)
        codes = [exit_code(starter, tmp_path / "a.log"),
                 exit_code(waiting, tmp_path / "b.log", stop=True)]
    text = logs(tmp_path)
    [run] = runs(pg_url)
    assert run.status == "frontier_lost" and run.finished_at is not None, text[-3000:]
    assert run.stats["frontier/lost"] == 1 and run.stats["frontier/pending_at_loss"] >= 0
    assert "lost its Redis frontier" in text
    assert 3 in codes and set(codes) <= {0, 3}, codes  # the worker that saw it says so
    pages = stored(pg_url)
    assert 0 < len(pages) < len(allowed_paths(server))  # what was stored stays stored
    assert not list(tmp_path.glob("**/*.jsonl"))


def test_a_killed_worker_and_a_redis_restart_recover_only_the_dead_worker(
        pg_url: str, aof_redis: OwnRedis, tmp_path: Path) -> None:
    with DemoServer() as server:
        starter, victim = two_workers(pg_url, aof_redis, tmp_path, server)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        aof_redis.restart(DOWN_SECONDS)
        restarted = worker(pg_url, aof_redis.url, tmp_path, tmp_path / "c.log", idle=8)
        assert exit_code(starter, tmp_path / "a.log") == 0, tail(tmp_path / "a.log")
        assert exit_code(restarted, tmp_path / "c.log") == 0, tail(tmp_path / "c.log")
    text = logs(tmp_path)
    recovered = _RECOVERED.findall(text)
    assert recovered and all(f"-{victim.pid}-" in name for name in recovered), recovered
    assert "Traceback" not in text and "Unhandled error" not in text, text[-3000:]
    pages = stored(pg_url)
    assert {url.removeprefix(server.url) for url in pages} == allowed_paths(server)
    [run] = runs(pg_url)
    assert run.status == "finished" and run.stats["pages/new"] == len(pages)
