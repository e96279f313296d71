"""Crawl throughput on the local demo site: pages/s end to end (fetch → classify → extract →
PostgreSQL) with 1 and 2 scrapy-redis workers, next to plain Scrapy fetching the same pages
with no item pipeline, all in one run.

Timing runs from the demo server's first request to the moment the last page is in the
database (for the fetch-only baseline: to the last request), so process start-up and the
workers' idle wait at the end are not counted.

    python -m bench.crawl [--admin-url postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory

from redis import Redis
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from crawler.demosite import DemoServer
from crawler.migrate import upgrade
from models import Page
from models.db import PROJECT_ROOT, session_factory

REDIS = "redis://127.0.0.1:6379/8"
COMMON = ["-s", "LOG_LEVEL=WARNING", "-s", "AUTOTHROTTLE_ENABLED=False",
          "-s", "CONCURRENT_REQUESTS=32", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=16",
          "-s", "GLOBAL_DOMAIN_CONCURRENCY=32", "-s", "CLUSTER_HEARTBEAT_SECONDS=2"]


def _scrapy(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("ab")
    return subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "site", *args, *COMMON],
                            cwd=PROJECT_ROOT, env={**os.environ, **env}, stdout=handle,
                            stderr=handle)


def _wait(until: Callable[[], bool], every: float = 0.02, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            raise TimeoutError("crawl did not finish in time")
        time.sleep(every)


def _fresh_database(admin_url: str) -> str:
    name = f"bench_crawl_{uuid.uuid4().hex[:8]}"
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    upgrade(url)
    return url


def _drop_database(admin_url: str, url: str) -> None:
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" '
                                "WITH (FORCE)"))


def pipeline_rate(workers: int, admin_url: str, expected: int, logs: Path) -> tuple[int, float]:
    """Pages stored per second with N cooperating workers."""
    url = _fresh_database(admin_url)
    Redis.from_url(REDIS).flushdb()
    env = {"DATABASE_URL": url, "REDIS_URL": REDIS, "JOURNAL_DIR": str(logs / "journal"),
           "MAX_IDLE_TIME_BEFORE_CLOSE": "12"}  # outlasts the start-up wait below
    sessions = session_factory(url)

    def stored() -> int:
        with sessions() as session:
            return session.scalar(select(func.count()).select_from(Page))

    with DemoServer() as server:
        helpers = [_scrapy([], env, logs / f"w{n}-{workers}.log") for n in range(workers - 1)]
        time.sleep(4)  # let the plain workers start and idle-wait for work
        starter = _scrapy(["-a", f"start_urls={server.url}/", "-a", "depth=8"], env,
                          logs / f"w-start-{workers}.log")
        _wait(lambda: sum(server.hits.values()) > 0)
        began = time.monotonic()
        _wait(lambda: stored() >= expected, every=0.1)  # light polling: the workers need the CPU
        seconds = time.monotonic() - began
        for process in [starter, *helpers]:
            process.wait(timeout=120)
    pages = stored()
    _drop_database(admin_url, url)
    return pages, seconds


def fetch_only_rate(paths: list[str], logs: Path) -> tuple[int, float]:
    """Plain Scrapy fetching the same pages, items going nowhere: the no-pipeline ceiling."""
    with DemoServer() as server:
        urls = ",".join(server.url + path for path in paths)
        env = {"REDIS_URL": "", "DATABASE_URL": "sqlite:///" + str(logs / "unused.sqlite3")}
        upgrade(env["DATABASE_URL"])
        process = _scrapy(["-a", f"start_urls={urls}", "-a", "depth=0",
                           "-s", "ITEM_PIPELINES={}"], env, logs / "fetch-only.log")
        _wait(lambda: sum(server.hits.values()) > 0)
        began = time.monotonic()
        _wait(lambda: sum(server.hits.get(p, 0) for p in paths) >= len(paths))
        seconds = time.monotonic() - began
        process.wait(timeout=120)
    return len(paths), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crawl")
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    args = parser.parse_args(argv)
    with DemoServer() as server:
        truth = server.site.ground_truth()
    paths = sorted(p for p, r in truth.items() if not r["meta"].get("robots_disallowed"))
    with TemporaryDirectory() as tmp:
        logs = Path(tmp)
        rows = [("plain Scrapy, no pipeline", 1, *fetch_only_rate(paths, logs))]
        rows += [(f"full pipeline, {n} worker{'s' * (n > 1)}", n,
                  *pipeline_rate(n, args.admin_url, len(paths), logs)) for n in (1, 2)]
    ceiling = rows[0][2] / rows[0][3]
    one = rows[1][2] / rows[1][3]
    print(f"{'mode':28} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'vs 1 worker':>12} "
          f"{'vs no pipeline':>15}")
    for label, _, pages, seconds in rows:
        rate = pages / seconds
        print(f"{label:28} {pages:6d} {seconds:8.2f} {rate:8.1f} {rate / one:12.2f} "
              f"{rate / ceiling:15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
