"""Crawl throughput on the local demo site: pages/s end to end (fetch → classify → extract →
PostgreSQL) with 1 and 2 scrapy-redis workers, next to plain Scrapy fetching the same pages
with no item pipeline, all in one run.

Timing runs from the demo server's first request to the moment the last page is in the
database (for the fetch-only baseline: to the last request), so process start-up and the
workers' idle wait at the end are not counted. Over the same window the CPU time of each
process group is read from /proc: the Scrapy workers, this process (the demo server's
threads and the progress polling), PostgreSQL, Redis, and what the rest of the machine
used; it is printed as milliseconds of CPU per page. The workers' main threads (the
reactor) are also split into running, runnable but waiting for a core, and idle (waiting
for the network, Redis, a timer), from /proc/<pid>/schedstat.

The whole window holds the start-up ramp (one start URL fanning out) and the tail (the
last pages and the last batch written), fixed costs that weigh more the faster a mode
runs: the steady rate, read between the moments 10 % and 90 % of the pages were done,
is printed beside it.

    python -m bench.crawl [--admin-url postgresql://postgres@127.0.0.1:5432/test]
                          [--scale K] [--repeat N]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory, gettempdir

from redis import Redis
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from crawler.migrate import upgrade
from models import Page, Source
from models.db import PROJECT_ROOT, session_factory
from tests.demosite import DemoServer, SiteConfig

REDIS = "redis://127.0.0.1:6379/8"
LOCK = Path(gettempdir()) / "bench-crawl.lock"  # held for a whole run: see _exclusive
COMMON = ["-s", "LOG_LEVEL=WARNING", "-s", "AUTOTHROTTLE_ENABLED=False",
          "-s", "CONCURRENT_REQUESTS=32", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=16",
          "-s", "GLOBAL_DOMAIN_CONCURRENCY=32", "-s", "CLUSTER_HEARTBEAT_SECONDS=2",
          "-s", "ALLOW_PRIVATE_ADDRESSES=True"]  # the demo site is served on 127.0.0.1


TICK = os.sysconf("SC_CLK_TCK")
GROUPS = ("workers", "bench+demo", "postgres", "redis", "other")
STEADY_SPAN = (0.1, 0.9)  # the shares of the pages between which the steady rate is read


@dataclass
class Result:
    """One measured mode: pages in seconds, and CPU seconds per process group."""

    label: str
    processes: int
    pages: int
    seconds: float
    steady: float  # pages/s with the start-up ramp and the tail left out (steady_rate)
    cpu: dict[str, float]
    reactor: tuple[float, float]  # workers' main threads: seconds running, seconds runnable


def _proc_seconds(pid: int | str) -> tuple[str, float]:
    """A process' name and CPU seconds, its reaped children included (PostgreSQL's
    postmaster collects the time of backends that exit during the window)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # exited meanwhile
        return "", 0.0
    name = raw[raw.index("(") + 1:raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2:].split()
    return name, sum(int(v) for v in fields[11:15]) / TICK


def _machine_seconds() -> float:
    """Busy CPU seconds of the whole machine (all cores) since boot."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(
        int, Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9])
    return (user + nice + system + irq + softirq + steal) / TICK


def cpu_snapshot(workers: Iterable[int]) -> dict[str, float]:
    """Cumulative CPU seconds per process group, for a before/after difference."""
    totals = dict.fromkeys(GROUPS, 0.0)
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        name, seconds = _proc_seconds(pid)
        if name == "postgres" or name == "redis-server":
            totals[name.removesuffix("-server")] += seconds
    totals["workers"] = sum(_proc_seconds(pid)[1] for pid in workers)
    totals["bench+demo"] = _proc_seconds(os.getpid())[1]
    totals["other"] = _machine_seconds() - sum(totals.values())
    return totals


def reactor_times(workers: Iterable[int]) -> tuple[float, float]:
    """Seconds the workers' main threads spent on a core, and runnable waiting for one."""
    running = waiting = 0.0
    for pid in workers:
        try:
            fields = Path(f"/proc/{pid}/schedstat").read_text().split()
        except OSError:
            continue
        running += int(fields[0]) / 1e9
        waiting += int(fields[1]) / 1e9
    return running, waiting


def _measure(workers: list[int], progress: Callable[[], int], expected: int,
             every: float = 0.02) -> tuple[float, float, dict[str, float], tuple[float, float]]:
    """Wait until `progress()` reaches `expected`; the seconds it took, the steady rate,
    CPU seconds per group and reactor times."""
    began, cpu, threads = time.monotonic(), cpu_snapshot(workers), reactor_times(workers)
    samples = [(began, 0)]  # (when, pages done), for the steady rate

    def done() -> bool:
        samples.append((time.monotonic(), progress()))
        return samples[-1][1] >= expected

    _wait(done, every)
    seconds = time.monotonic() - began
    cpu = {group: spent - cpu[group] for group, spent in cpu_snapshot(workers).items()}
    running, waiting = (b - a for a, b in zip(threads, reactor_times(workers), strict=True))
    return seconds, steady_rate(samples, expected), cpu, (running, waiting)


def steady_rate(samples: list[tuple[float, int]], expected: int) -> float:
    """Pages/s between the moments STEADY_SPAN's first and last share of the pages were
    done: the crawl's rate without its start-up ramp (one start URL fanning out) and its
    tail (the last pages, the last batch written), which weigh more the faster a mode is."""
    low, high = (share * expected for share in STEADY_SPAN)
    start = next(when for when, done in samples if done >= low)
    end = next(when for when, done in samples if done >= high)
    return (high - low) / max(end - start, 1e-9)


def scrapy_process(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """`scrapy crawl site` with the benchmark's settings, its output appended to `log`."""
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


def site_config(scale: int) -> SiteConfig:
    """The demo site `scale` times as deep (≈ 500 pages per unit): a longer crawl measures
    the steady rate rather than the start-up ramp and the last batch."""
    base = SiteConfig()
    return SiteConfig(articles_per_section=base.articles_per_section * scale,
                      threads_per_board=base.threads_per_board * scale,
                      blog_posts=base.blog_posts * scale,
                      history_days=base.history_days * scale)


def pipeline_rate(workers: int, admin_url: str, expected: int, logs: Path,
                  config: SiteConfig) -> Result:
    """Pages stored per second with N cooperating workers."""
    url = _fresh_database(admin_url)
    Redis.from_url(REDIS).flushdb()
    env = {"DATABASE_URL": url, "REDIS_URL": REDIS, "JOURNAL_DIR": str(logs / "journal"),
           "MAX_IDLE_TIME_BEFORE_CLOSE": "12"}  # outlasts the start-up wait below
    # One held connection without transactions: each poll is one statement, not a pool
    # check-out with its pre-ping, BEGIN and ROLLBACK (PostgreSQL CPU the crawl is
    # charged with).
    poll = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool).connect()
    count = select(func.count()).select_from(Page)

    def stored() -> int:
        return poll.scalar(count)

    with DemoServer(config=config) as server:
        helpers = [scrapy_process([], env, logs / f"w{n}-{workers}.log")
                   for n in range(workers - 1)]
        time.sleep(4)  # let the plain workers start and idle-wait for work
        starter = scrapy_process(["-a", f"start_urls={server.url}/", "-a", "depth=8"], env,
                                 logs / f"w-start-{workers}.log")
        pids = [process.pid for process in [starter, *helpers]]
        _wait(lambda: sum(server.hits.values()) > 0)
        # light polling: the workers need the CPU (each count over the growing table is
        # PostgreSQL work the crawl is charged with)
        seconds, steady, cpu, reactor = _measure(pids, stored, expected, every=0.1)
        for process in [starter, *helpers]:
            process.wait(timeout=120)
    pages = stored()
    poll.close()
    _drop_database(admin_url, url)
    return Result(f"full pipeline, {workers} worker{'s' * (workers > 1)}", workers, pages,
                  seconds, steady, cpu, reactor)


def fetch_only_rate(paths: list[str], logs: Path, config: SiteConfig) -> Result:
    """Plain Scrapy fetching the same pages, items going nowhere: the no-pipeline ceiling.
    The URLs reach the spider as a Source row: in one `-a start_urls=…` argument, past
    about 6,000 of them (`--scale` 13) the kernel refused the command line."""
    with DemoServer(config=config) as server:
        env = {"REDIS_URL": "", "DATABASE_URL": "sqlite:///" + str(logs / "unused.sqlite3")}
        upgrade(env["DATABASE_URL"])
        with session_factory(env["DATABASE_URL"]).begin() as session:
            session.add(Source(name="fetch-only", start_urls=[server.url + p for p in paths],
                               allowed_domains=[], page_type_rules=[], settings={}))
        process = scrapy_process(["-a", "source=fetch-only", "-a", "depth=0",
                                  "-s", "ITEM_PIPELINES={}"], env, logs / "fetch-only.log")
        _wait(lambda: sum(server.hits.values()) > 0)
        pids = [process.pid]
        seconds, steady, cpu, reactor = _measure(
            pids, lambda: sum(1 for p in paths if server.hits.get(p)), len(paths))
        process.wait(timeout=120)
    return Result("plain Scrapy, no pipeline", 1, len(paths), seconds, steady, cpu, reactor)


def ceiling_rate(row: Result) -> float:
    """Pages/s this mode's CPU per page allows if the crawl had the machine's cores to
    itself: each worker is one thread-bound process (at most one core), and the workers,
    demo server, PostgreSQL and Redis share the cores."""
    own = sum(row.cpu[group] for group in GROUPS if group != "other") / row.pages
    return min(row.processes / (row.cpu["workers"] / row.pages), (os.cpu_count() or 1) / own)


def report(rows: list[Result]) -> None:
    """Rates against one worker and the no-pipeline ceiling, whole window and steady, then
    CPU ms per page."""
    ceiling, steady_ceiling = rows[0].pages / rows[0].seconds, rows[0].steady
    one, steady_one = rows[1].pages / rows[1].seconds, rows[1].steady
    print(f"{'mode':28} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'vs 1 worker':>12} "
          f"{'vs no pipeline':>15} {'steady p/s':>11} {'vs 1 worker':>12} {'vs no pipeline':>15}")
    for row in rows:
        rate = row.pages / row.seconds
        print(f"{row.label:28} {row.pages:6d} {row.seconds:8.2f} {rate:8.1f} {rate / one:12.2f} "
              f"{rate / ceiling:15.2f} {row.steady:11.1f} {row.steady / steady_one:12.2f} "
              f"{row.steady / steady_ceiling:15.2f}")
    print(f"\nCPU ms per page  {'mode':28} " + " ".join(f"{g:>10}" for g in GROUPS)
          + f" {'busy cores':>10} {'ceiling/s':>10}")
    for row in rows:
        per_page = " ".join(f"{1000 * row.cpu[g] / row.pages:10.2f}" for g in GROUPS)
        print(f"{'':16} {row.label:28} {per_page} {sum(row.cpu.values()) / row.seconds:10.2f} "
              f"{ceiling_rate(row):10.0f}")
    print(f"\nreactor threads  {'mode':28} {'running':>10} {'runnable':>10} {'idle':>10}")
    for row in rows:
        span = row.seconds * row.processes
        running, waiting = row.reactor
        print(f"{'':16} {row.label:28} {running / span:10.0%} {waiting / span:10.0%} "
              f"{1 - (running + waiting) / span:10.0%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crawl")
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    parser.add_argument("--scale", type=int, default=1, help="demo site size, ≈ 500 pages each")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of the three modes, one after the other; each is reported")
    args = parser.parse_args(argv)
    with _exclusive():
        return _rounds(args)


@contextmanager
def _exclusive() -> Iterator[None]:
    """One run at a time on the machine: every run flushes the same Redis database, so a
    second run started meanwhile emptied the first one's frontier (it then waited for
    pages that were never queued until its timeout)."""
    with open(LOCK, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"another bench.crawl holds {LOCK}; waiting for it", file=sys.stderr)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _rounds(args: argparse.Namespace) -> int:
    config = site_config(args.scale)
    with DemoServer(config=config) as server:
        truth = server.site.ground_truth()
    paths = sorted(p for p, r in truth.items() if not r["meta"].get("robots_disallowed"))
    for round_ in range(1, args.repeat + 1):
        with TemporaryDirectory() as tmp:
            logs = Path(tmp)
            rows = [fetch_only_rate(paths, logs, config)]
            rows += [pipeline_rate(n, args.admin_url, len(paths), logs, config) for n in (1, 2)]
        print(f"\n== round {round_} of {args.repeat}")
        report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
