"""What the scheduler's run-level health check costs as the store keeps more runs: a fresh
PostgreSQL database with N sources and R finished runs each (every run without a new page,
so every source raises a condition), then the check's facts and rules
(`crawler.cluster.health.run_health`) timed, wall and this process's CPU, over 7 rounds.

    python -m bench.health [--sources 500] [--runs 20 200] [--admin-url …]
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from datetime import UTC, datetime

from redis import Redis
from sqlalchemy import create_engine, insert, select, text
from sqlalchemy.engine import make_url

from bench.crawl import _drop_database
from crawler.cluster.health import run_health
from crawler.migrate import upgrade
from models import CrawlRun, Source
from models.db import session_factory

ROUNDS = 7
STATS = {"pages/new": 0, "pages/unchanged": 40, "pages/type/news": 30, "pages/type/list": 10,
         "errors/http_404": 2, "records/found": 300, "finish_reason": "finished"}


def _fresh_database(admin_url: str) -> str:
    name = f"health_bench_{uuid.uuid4().hex[:8]}"
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    upgrade(url)
    return url


def measure(url: str, redis_url: str, sources: int, runs: int) -> tuple[int, list[float],
                                                                        list[float]]:
    """(conditions found, wall seconds, CPU seconds) of each round."""
    sessions = session_factory(url)
    now = datetime.now(UTC)
    with sessions.begin() as session:
        session.execute(insert(Source), [
            {"name": f"s{i}", "start_urls": [f"https://s{i}.example.cn/"], "allowed_domains": [],
             "page_type_rules": [], "settings": {}} for i in range(sources)])
        ids = session.scalars(select(Source.id)).all()
        session.execute(insert(CrawlRun), [
            {"spider": "site", "source_id": source_id, "started_at": now, "finished_at": now,
             "status": "finished", "stats": STATS} for source_id in ids for _ in range(runs)])
        session.execute(text("ANALYZE"))
    server = Redis.from_url(redis_url)
    walls, cpus, found = [], [], 0
    for _ in range(ROUNDS):
        wall, cpu = time.perf_counter(), time.process_time()
        with sessions() as session:
            found = len(run_health(session, server, "site"))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return found, walls, cpus


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.health")
    parser.add_argument("--sources", type=int, default=500)
    parser.add_argument("--runs", type=int, nargs="+", default=[20, 200],
                        help="finished runs per source, one store each")
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/4",
                        help="read for the workers' heartbeats (none there: none stopped)")
    args = parser.parse_args(argv)
    print("| sources × finished runs | conditions | wall ms, median (min) | check CPU ms, median |")
    print("|---|---|---|---|")
    for runs in args.runs:
        url = _fresh_database(args.admin_url)
        try:
            found, walls, cpus = measure(url, args.redis_url, args.sources, runs)
        finally:
            _drop_database(args.admin_url, url)
        print(f"| {args.sources} × {runs} | {found} | {statistics.median(walls) * 1000:.0f} "
              f"({min(walls) * 1000:.0f}) | {statistics.median(cpus) * 1000:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
