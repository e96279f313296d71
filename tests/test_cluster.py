"""Distributed crawling for real: scrapy-redis on the local Redis, PostgreSQL, the demo site."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from redis import Redis
from sqlalchemy import select

from crawler.cluster.schedule import schedule_due
from crawler.demosite import DemoServer
from models import CrawlRun, Source
from models.db import session_factory
from tests.crawling import ROOT, stored

CLUSTER_REDIS = "redis://127.0.0.1:6379/7"  # a database of its own, flushed per test
FAST = ["-s", "CLUSTER_HEARTBEAT_SECONDS=1", "-s", "AUTOTHROTTLE_ENABLED=False",
        "-s", "PERSIST_FLUSH_SECONDS=0.3", "-s", "LOG_LEVEL=INFO"]


@pytest.fixture
def cluster_redis(redis_url: str) -> Iterator[str]:
    server = Redis.from_url(CLUSTER_REDIS)
    server.flushdb()
    yield CLUSTER_REDIS
    server.flushdb()


def worker(database_url: str, redis: str, journal: Path, log: Path, *args: str,
           idle: int = 4) -> subprocess.Popen[bytes]:
    """One `scrapy crawl site` worker process, logging to a file."""
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis,
           "JOURNAL_DIR": str(journal), "MAX_IDLE_TIME_BEFORE_CLOSE": str(idle)}
    handle = log.open("ab")
    return subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "site", *args, *FAST],
                            cwd=ROOT, env=env, stdout=handle, stderr=handle)


def wait_all(*processes: subprocess.Popen[bytes], timeout: float = 240) -> None:
    for process in processes:
        assert process.wait(timeout=timeout) == 0


def wait_for_log(log: Path, text: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while text not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, f"{log.name} never said {text!r}"
        time.sleep(0.1)


def wait_until_busy(redis: str, pid: int, timeout: float = 60) -> None:
    """Block until the worker with this pid holds in-flight requests (its ledger hash)."""
    server = Redis.from_url(redis)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for key in server.scan_iter(match=f"site:inflight:*-{pid}-*"):
            if server.hlen(key) >= 2:
                return
        time.sleep(0.05)
    raise AssertionError(f"worker {pid} never took work")


def allowed_paths(server: DemoServer) -> set[str]:
    return {path for path, record in server.site.ground_truth().items()
            if not record["meta"].get("robots_disallowed")}


def runs(database_url: str) -> list[CrawlRun]:
    with session_factory(database_url)() as session:
        return list(session.scalars(select(CrawlRun).order_by(CrawlRun.id)))


def test_two_workers_crawl_each_page_once_and_match_a_single_worker(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    with DemoServer() as server:
        second = worker(pg_url, cluster_redis, tmp_path, tmp_path / "b.log", idle=8)
        wait_for_log(tmp_path / "b.log", "Spider opened")
        first = worker(pg_url, cluster_redis, tmp_path, tmp_path / "a.log",
                       "-a", f"start_urls={server.url}/", "-a", "depth=8", idle=8)
        wait_all(first, second)
        hits = dict(server.hits)
    pages = stored(pg_url)
    paths = {url.removeprefix(server.url) for url in pages}
    assert paths == allowed_paths(server)  # the union equals what one worker stores alone
    [run] = runs(pg_url)
    assert run.finished_at is not None and run.stats["pages/new"] == len(pages)
    refetched = sum(count - 1 for path, count in hits.items() if path in paths and count > 1)
    assert refetched <= run.stats.get("template/sibling_fetches", 0)  # only S2 siblings
    for log in ("a.log", "b.log"):  # both workers did real work
        assert "'item_scraped_count'" in (tmp_path / log).read_text()


def test_a_killed_worker_loses_nothing_and_its_restart_finishes(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    slow = ["-s", "DOWNLOAD_DELAY=0.05", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2"]
    with DemoServer() as server:
        survivor = worker(pg_url, cluster_redis, tmp_path, tmp_path / "a.log",
                          "-a", f"start_urls={server.url}/", "-a", "depth=8", *slow, idle=8)
        victim = worker(pg_url, cluster_redis, tmp_path, tmp_path / "b.log", *slow, idle=8)
        wait_until_busy(cluster_redis, victim.pid)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        restarted = worker(pg_url, cluster_redis, tmp_path, tmp_path / "c.log", idle=8)
        wait_all(survivor, restarted)
    assert "recovered" in (tmp_path / "a.log").read_text() + (tmp_path / "c.log").read_text()
    pages = stored(pg_url)
    assert {url.removeprefix(server.url) for url in pages} == allowed_paths(server)
    [run] = runs(pg_url)
    assert run.finished_at is not None  # the run's pending count drained to zero
    assert not list(tmp_path.glob("*/*.jsonl"))


def test_scheduled_revisit_fetches_lists_and_only_new_details(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    sessions = session_factory(pg_url)
    redis = Redis.from_url(cluster_redis)
    with DemoServer() as server:
        with sessions.begin() as session:
            session.add(Source(name="demo", start_urls=[server.url + "/"], allowed_domains=[],
                               max_depth=8, interval_seconds=600, page_type_rules=[],
                               settings={}))
        assert len(schedule_due(sessions, redis)) == 1
        assert schedule_due(sessions, redis) == []  # not due again yet
        wait_all(worker(pg_url, cluster_redis, tmp_path, tmp_path / "1.log"))
        before = stored(pg_url)
        server.set_edition(1)
        later = datetime.now(UTC) + timedelta(seconds=601)
        assert len(schedule_due(sessions, redis, now=later)) == 1
        wait_all(worker(pg_url, cluster_redis, tmp_path, tmp_path / "2.log"))
        truth = server.site.ground_truth()
    first, second = runs(pg_url)
    after = stored(pg_url)
    in_second = {url.removeprefix(server.url) for url, page in after.items()
                 if page.crawl_run_id == second.id}
    new_details = {path for path, record in truth.items() if record["edition"] == 1}
    old_details = {path for path, record in truth.items() if record["edition"] == 0}
    assert new_details <= in_second
    assert not in_second & old_details  # no stored article, post or thread fetched again
    assert {url.removeprefix(server.url) for url in after} == allowed_paths(server)
    assert set(before) <= set(after)
    assert second.finished_at is not None and first.finished_at is not None
