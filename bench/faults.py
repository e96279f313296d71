"""Service faults at length (`make fault-test`): the long versions of the tests in
tests/integration/crawler/test_redis_restart.py and test_database_partition.py, on a
larger demo site, with repeated faults; prints one row per fault for docs/RELIABILITY.md.

Each scenario gets a fresh PostgreSQL database, its own redis-server (never the shared one)
and the demo site `--scale` times its size. A Redis restart is a clean shutdown (SIGTERM)
and a start after `--down` seconds; a database partition is a proxy that stops forwarding
without closing anything (tests/tcp_proxy.py, blackhole) for `--partition` seconds.

Columns: in flight (requests the workers re-asserted after the restarts; for the database,
the most pages the health line reported waiting), stored (pages in the store after
recovery), lost (pages of the site allowed by robots.txt that were not stored), duplicated
(stores of a page beyond its first: the run's new + updated + unchanged counts minus the
pages stored), time (the crawl, start to the last worker's exit), the run's status.

    python -m bench.faults [--admin-url postgresql://postgres@127.0.0.1:5432/test]
                           [--scale K] [--restarts N] [--down S] [--partition S]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from bench.crawl import _drop_database, _fresh_database, site_config
from models import CrawlRun, Page
from models.db import PROJECT_ROOT, session_factory
from tests.demosite import DemoServer
from tests.services import OwnRedis
from tests.tcp_proxy import TcpProxy

SETTINGS = ["-s", "CLUSTER_HEARTBEAT_SECONDS=1", "-s", "AUTOTHROTTLE_ENABLED=False",
            "-s", "PERSIST_FLUSH_SECONDS=0.3", "-s", "LOG_LEVEL=INFO",
            "-s", "DOWNLOAD_DELAY=0.02", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=4"]
_REASSERTED = re.compile(r"re-asserting (\d+) in-flight requests")
_WAITING = re.compile(r"database unreachable for \d+ s, (\d+) pages waiting")


@dataclass
class Row:
    fault: str
    in_flight: int
    stored: int
    lost: int
    duplicated: int
    seconds: float
    status: str


class Scenario:
    """One crawl of the demo site by workers of one Redis, and what it stored."""

    def __init__(self, admin_url: str, folder: Path, server: DemoServer, aof: bool) -> None:
        self.database = _fresh_database(admin_url)
        self.admin_url = admin_url
        self.folder = folder
        self.server = server
        (folder / "redis").mkdir()
        self.redis = OwnRedis(str(folder / "redis"), aof=aof).start()
        self.started = time.monotonic()
        self.workers: list[subprocess.Popen[bytes]] = []

    def worker(self, *args: str, database: str | None = None, redis: bool = True,
               idle: int = 10) -> subprocess.Popen[bytes]:
        env = {**os.environ, "DATABASE_URL": database or self.database,
               "JOURNAL_DIR": str(self.folder / "journal"), "CRAWL_ALLOW_PRIVATE_ADDRESSES": "1",
               "MAX_IDLE_TIME_BEFORE_CLOSE": str(idle)}
        env.pop("REDIS_URL", None)
        if redis:
            env["REDIS_URL"] = self.redis.url
        log = (self.folder / f"worker{len(self.workers)}.log").open("ab")
        process = subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "site", *SETTINGS,
                                    *args], cwd=PROJECT_ROOT, env=env, stdout=log, stderr=log)
        self.workers.append(process)
        return process

    def start_run(self, **options: object) -> None:
        self.worker("-a", f"start_urls={self.server.url}/", "-a", "depth=12", **options)

    def stored(self) -> int:
        with session_factory(self.database)() as session:
            return session.scalar(select(func.count()).select_from(Page)) or 0

    def wait_for(self, until: Callable[[], bool], timeout: float = 900) -> None:
        deadline = time.monotonic() + timeout
        while not until():
            if time.monotonic() > deadline:
                raise TimeoutError("the crawl did not get there in time")
            time.sleep(0.2)

    def finish(self, fault: str, in_flight_pattern: re.Pattern[str], most: bool = False) -> Row:
        for process in self.workers:
            if process.poll() is None and process is not self.workers[0]:
                process.send_signal(signal.SIGTERM)
            process.wait(timeout=900)
        seconds = time.monotonic() - self.started
        self.redis.stop()
        logs = "".join(path.read_text(errors="replace") for path in self.folder.glob("*.log"))
        found = [int(n) for n in in_flight_pattern.findall(logs)]
        allowed = {self.server.url + path for path, record in
                   self.server.site.ground_truth().items()
                   if not record["meta"].get("robots_disallowed")}
        with session_factory(self.database)() as session:
            urls = set(session.scalars(select(Page.url)))
            run = session.scalars(select(CrawlRun).order_by(CrawlRun.id)).first()
        stats = run.stats or {} if run else {}
        writes = sum(stats.get(f"pages/{status}", 0) for status in ("new", "updated",
                                                                     "unchanged"))
        row = Row(fault, max(found, default=0) if most else sum(found), len(urls),
                  len(allowed - urls), max(0, writes - len(urls)), seconds,
                  run.status if run else "no run")
        _drop_database(self.admin_url, self.database)
        return row


def redis_restarts(admin_url: str, folder: Path, server: DemoServer, total: int,
                   restarts: int, down: float, aof: bool, kill: bool = False) -> Row:
    scenario = Scenario(admin_url, folder, server, aof)
    waiting = scenario.worker(idle=600)
    scenario.start_run(idle=10)
    scenario.workers.reverse()  # the run's starter first: it ends by itself
    for n in range(1, restarts + 1):
        scenario.wait_for(lambda n=n: scenario.stored() >= total * n // (restarts + 1))
        if kill and n == 1:
            waiting.send_signal(signal.SIGKILL)
            waiting.wait()
        scenario.redis.restart(down)
        if kill and n == 1:
            scenario.worker(idle=10)
    persistence = "AOF" if aof else "no persistence"
    fault = f"Redis restarted {restarts}× for {down:g} s ({persistence}), two workers"
    if kill:
        fault += ", one killed (-9) and replaced"
    return scenario.finish(fault, _REASSERTED)


def database_partition(admin_url: str, folder: Path, server: DemoServer, total: int,
                       seconds: float) -> Row:
    scenario = Scenario(admin_url, folder, server, aof=False)
    proxy = TcpProxy(make_url(scenario.database).port or 5432).start()
    via = make_url(scenario.database).set(port=proxy.port).render_as_string(
        hide_password=False)
    scenario.worker("-a", f"start_urls={server.url}/", "-a", "depth=12", database=via,
                    redis=False)
    scenario.wait_for(lambda: scenario.stored() >= total // 3)
    proxy.blackhole()
    time.sleep(seconds)
    proxy.heal()
    row = scenario.finish(f"database partition (no reset) for {seconds:g} s, one worker",
                          _WAITING, most=True)
    proxy.stop()
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    parser.add_argument("--scale", type=int, default=4, help="demo site size (≈ 500 pages each)")
    parser.add_argument("--restarts", type=int, default=3, help="Redis restarts per crawl")
    parser.add_argument("--down", type=float, default=3.0, help="seconds Redis stays down")
    parser.add_argument("--partition", type=float, default=30.0,
                        help="seconds the database stays partitioned")
    args = parser.parse_args(argv)
    rows = []
    with DemoServer(config=site_config(args.scale)) as server:
        total = sum(1 for record in server.site.ground_truth().values()
                    if not record["meta"].get("robots_disallowed"))
        scenarios: list[Callable[[Path], Row]] = [
            lambda folder: redis_restarts(args.admin_url, folder, server, total,
                                          args.restarts, args.down, aof=True),
            lambda folder: redis_restarts(args.admin_url, folder, server, total, 1,
                                          args.down, aof=False),
            lambda folder: redis_restarts(args.admin_url, folder, server, total, 1,
                                          args.down, aof=True, kill=True),
            lambda folder: database_partition(args.admin_url, folder, server, total,
                                              args.partition)]
        for scenario in scenarios:
            with TemporaryDirectory() as folder:
                rows.append(scenario(Path(folder)))
                print(_line(rows[-1]), flush=True)
    print(f"\n{total} pages on the demo site (scale {args.scale})")
    print("| fault | in flight | stored after recovery | lost | duplicated | time | status |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(_line(row))
    return 0


def _line(row: Row) -> str:
    return (f"| {row.fault} | {row.in_flight} | {row.stored} | {row.lost} | {row.duplicated} "
            f"| {row.seconds:.0f} s | {row.status} |")


if __name__ == "__main__":
    sys.exit(main())
