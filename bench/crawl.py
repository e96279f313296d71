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
is printed beside it, with the cores the whole machine kept busy over that span; a mode is
called bound by the cores from CORES_BUSY of them over the steady span (the goals compare
steady rates).

Latency mode (`--latency MS`) measures the crawl as real sites make it behave: each of
`--domains` demo sites (127.0.0.1, 127.0.0.2, …; their own content) answers in MS ± `--jitter`
ms, every worker runs at `--concurrency` requests with the crawler's per-domain politeness as
configured (crawler/settings.py: per-domain concurrency, AutoThrottle, the cluster's global
per-domain leases). The baseline is then a minimal Scrapy spider (bench/plain_spider.py)
fetching the same URLs at the same concurrency and politeness; the pipeline runs with each
of `--workers` (cluster mode, Redis and PostgreSQL), with one worker storing pages without
the search index (SEARCH_INDEX_ENABLED off: the store rate search costs), and, with
`--stored N`, once more with
one worker on a store already holding N generated pages (a copy of bench.filled's kept
template), for the CPU a stored page costs as the store grows (`--prewarm`: the copy's
indexes read into PostgreSQL's buffers first), with the server's WAL full-page images and
bytes a page over the window (pg_stat_wal). PostgreSQL's CPU is that of
the backends connected to the run's database; Redis is a server of the run's own
(tests.services.OwnRedis, unless `--redis-url` is given), so its CPU is the crawl's alone.
The machine's load average is printed before and after, and each mode's figures as soon as
it is done.

    python -m bench.crawl [--admin-url postgresql://postgres@127.0.0.1:5432/test]
                          [--scale K] [--repeat N] [--redis-url URL]
    python -m bench.crawl --latency 150 --jitter 50 --domains 8 --concurrency 16 \
                          --workers 1,2,4 --stored 10000
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
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory, gettempdir

from redis import Redis
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

from bench.filled import filled_copy
from crawler import settings as defaults
from crawler.migrate import upgrade
from models import Page, Source
from models.db import PROJECT_ROOT, session_factory
from tests.demosite import DemoServer, SiteConfig
from tests.services import OwnRedis

REDIS = "redis://127.0.0.1:6379/8"
PLAIN_SPIDER = Path(__file__).with_name("plain_spider.py")
LOCK = Path(gettempdir()) / "bench-crawl.lock"  # held for a whole run: see _exclusive
COMMON = ["-s", "LOG_LEVEL=WARNING", "-s", "AUTOTHROTTLE_ENABLED=False",
          "-s", "CONCURRENT_REQUESTS=32", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=16",
          "-s", "GLOBAL_DOMAIN_CONCURRENCY=32", "-s", "CLUSTER_HEARTBEAT_SECONDS=2",
          "-s", "ALLOW_PRIVATE_ADDRESSES=True"]  # the demo site is served on 127.0.0.1


# Latency mode: the crawler's own politeness, only the per-worker concurrency set; the plain
# spider gets the same values (POLITENESS, read from crawler/settings.py).
LATENCY_COMMON = ["-s", "LOG_LEVEL=WARNING", "-s", "CLUSTER_HEARTBEAT_SECONDS=2",
                  "-s", "ALLOW_PRIVATE_ADDRESSES=True"]
POLITENESS = ("CONCURRENT_REQUESTS_PER_DOMAIN", "DOWNLOAD_DELAY", "AUTOTHROTTLE_ENABLED",
              "AUTOTHROTTLE_START_DELAY", "AUTOTHROTTLE_MAX_DELAY",
              "AUTOTHROTTLE_TARGET_CONCURRENCY", "ROBOTSTXT_OBEY", "USER_AGENT")
CORES_BUSY = 0.9  # share of the machine's cores in use from which a mode is called CPU-bound
SEARCH_RATE = 0.9  # issue 26: the store rate with the search index at least this of without


@dataclass(frozen=True)
class Setup:
    """What every mode of one run crawls, and how."""

    config: SiteConfig
    redis: str = REDIS
    domains: int = 1
    latency: float = 0.0  # seconds
    jitter: float = 0.0
    concurrency: int = 32
    redis_pid: int | None = None  # the Redis server measured; None: every redis-server

    @property
    def common(self) -> list[str]:
        """The `-s` settings of every worker in this setup."""
        if not self.latency:
            return COMMON
        return [*LATENCY_COMMON, "-s", f"CONCURRENT_REQUESTS={self.concurrency}"]


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
    steady: float  # pages/s with the start-up ramp and the tail left out (steady_span)
    cpu: dict[str, float]
    reactor: tuple[float, float]  # workers' main threads: seconds running, seconds runnable
    steady_busy: float  # cores the machine kept busy over the steady rate's span (steady_span)
    stored_before: int = 0  # pages the store held when the crawl began
    # PostgreSQL's WAL over the window (the whole server's, pg_stat_wal): full-page images and
    # bytes. The first change of an index page after a checkpoint writes the whole page, so
    # inserts at random keys of a large store cost a page image each (docs/BENCHMARKS.md).
    wal: tuple[int, int] = (0, 0)
    search: bool = True  # the workers wrote the search index (SEARCH_INDEX_ENABLED)


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


def _own_backend(pid: str, database: str | None) -> bool:
    """Whether a postgres process serves `database` (its title names it); every postgres
    process counts when no database is given, none when it is "" (a crawl storing nothing)."""
    if not database:
        return database is None
    try:
        title = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return f" {database} ".encode() in title


def cpu_snapshot(workers: Iterable[int], database: str | None = None,
                 redis_pid: int | None = None) -> dict[str, float]:
    """Cumulative CPU seconds per process group, for a before/after difference. With
    `database`, "postgres" is the backends serving it (the machine is shared: other
    databases' work is not the crawl's); a backend that exits meanwhile is not counted.
    With `redis_pid`, "redis" is that server alone."""
    totals = dict.fromkeys(GROUPS, 0.0)
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        name, seconds = _proc_seconds(pid)
        if name == "postgres" and _own_backend(pid, database):
            totals["postgres"] += seconds
        elif name == "redis-server" and redis_pid in (None, int(pid)):
            totals["redis"] += seconds
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
             every: float = 0.02, database: str | None = None, redis_pid: int | None = None,
             ) -> tuple[float, float, dict[str, float], tuple[float, float], float]:
    """Wait until `progress()` reaches `expected`; the seconds it took, the steady rate,
    CPU seconds per group, reactor times and the cores busy over the steady span."""
    began, cpu = time.monotonic(), cpu_snapshot(workers, database, redis_pid)
    threads = reactor_times(workers)
    # (when, pages done, the machine's busy CPU seconds), for the steady rate and its cores
    samples = [(began, 0, _machine_seconds())]

    def done() -> bool:
        samples.append((time.monotonic(), progress(), _machine_seconds()))
        return samples[-1][1] >= expected

    _wait(done, every)
    seconds = time.monotonic() - began
    cpu = {group: spent - cpu[group]
           for group, spent in cpu_snapshot(workers, database, redis_pid).items()}
    running, waiting = (b - a for a, b in zip(threads, reactor_times(workers), strict=True))
    start, end = steady_span(samples, expected)
    rate = (STEADY_SPAN[1] - STEADY_SPAN[0]) * expected / max(end[0] - start[0], 1e-9)
    busy = (end[2] - start[2]) / max(end[0] - start[0], 1e-9)
    return seconds, rate, cpu, (running, waiting), busy


def steady_span(samples: list[tuple[float, int, float]], expected: int,
                ) -> tuple[tuple[float, int, float], tuple[float, int, float]]:
    """The samples at which STEADY_SPAN's first and last share of the pages were done: the
    crawl without its start-up ramp (one start URL fanning out) and its tail (the last pages,
    the last batch written), which weigh more the faster a mode is. The steady rate is read
    between them, and the cores the machine kept busy meanwhile: the goals compare steady
    rates, so whether the cores were busy is read over the same span (the whole window's
    ramp and tail leave cores idle that the steady crawl used)."""
    low, high = (share * expected for share in STEADY_SPAN)
    return (next(s for s in samples if s[1] >= low), next(s for s in samples if s[1] >= high))


def scrapy_process(args: list[str], env: dict[str, str], log: Path,
                   common: list[str] = COMMON) -> subprocess.Popen[bytes]:
    """`scrapy crawl site` with the benchmark's settings, its output appended to `log`."""
    handle = log.open("ab")
    return subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "site", *args, *common],
                            cwd=PROJECT_ROOT, env={**os.environ, **env}, stdout=handle,
                            stderr=handle)


def _wait(until: Callable[[], bool], every: float = 0.02, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            raise TimeoutError("crawl did not finish in time")
        time.sleep(every)


def _fresh_database(admin_url: str, stored: int = 0, prewarm: bool = False) -> str:
    """A new database at the schema's head, empty or (`stored`) a copy of bench.filled's
    template holding that many generated pages with articles, grouped into stories as a
    crawl leaves them (else the measured crawl's passes would group the newest of them),
    vacuumed and analysed (no autovacuum of the load runs within the measured window);
    with `prewarm`, the copy's indexes read into PostgreSQL's buffers (_prewarm)."""
    name = f"bench_crawl_{uuid.uuid4().hex[:8]}"
    if stored:
        url = filled_copy(stored, name, admin_url)
        if prewarm:
            _prewarm(url)
        return url
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    upgrade(url)
    return url


def _prewarm(url: str) -> None:
    """Read the database's indexes, smallest first, into PostgreSQL's shared buffers
    (pg_prewarm, shipped with Debian's PostgreSQL): the state of a server that has been
    storing pages for a while, whose hot indexes are in memory, where a fresh copy of the
    template makes every first touch of an index page a read from the file and the write of
    a dirty page to make room. What stays depends on `shared_buffers` (the largest indexes
    go last and evict the smallest when they do not fit)."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with engine.connect() as connection:
        connection.execute(text("CREATE EXTENSION IF NOT EXISTS pg_prewarm"))
        indexes = connection.scalars(text(
            "SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'i'"
            " ORDER BY pg_relation_size(c.oid)")).all()
        blocks = sum(connection.scalar(text("SELECT pg_prewarm(CAST(:oid AS regclass))"),
                                       {"oid": oid}) for oid in indexes)
    engine.dispose()
    print(f"  prewarmed {blocks * 8 / 1024:,.0f} MB of indexes", flush=True)


def _drop_database(admin_url: str, url: str) -> None:
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" '
                                "WITH (FORCE)"))


def site_config(scale: float) -> SiteConfig:
    """The demo site `scale` times as deep (≈ 500 pages per unit): a longer crawl measures
    the steady rate rather than the start-up ramp and the last batch; a fraction makes
    many small sites (latency mode) a crawl of minutes."""
    base = SiteConfig()
    return SiteConfig(articles_per_section=round(base.articles_per_section * scale),
                      threads_per_board=round(base.threads_per_board * scale),
                      blog_posts=round(base.blog_posts * scale),
                      history_days=round(base.history_days * scale))


@contextmanager
def serving(setup: Setup) -> Iterator[list[DemoServer]]:
    """The setup's demo sites, one per domain: 127.0.0.1, 127.0.0.2, …, seeds 0, 1, …"""
    with ExitStack() as stack:
        yield [stack.enter_context(DemoServer(seed=n, host=f"127.0.0.{n + 1}",
                                              latency=setup.latency, jitter=setup.jitter,
                                              config=setup.config))
               for n in range(setup.domains)]


def site_paths(setup: Setup) -> list[list[str]]:
    """Per domain, the paths a crawl stores (those robots.txt allows)."""
    with serving(Setup(setup.config, domains=setup.domains)) as servers:
        return [sorted(p for p, r in server.site.ground_truth().items()
                       if not r["meta"].get("robots_disallowed")) for server in servers]


def _fetched(servers: list[DemoServer], paths: list[list[str]]) -> Callable[[], int]:
    """How many of the listed paths the sites have been asked for, as a progress count."""
    return lambda: sum(1 for server, own in zip(servers, paths, strict=True)
                       for path in own if server.hits.get(path))


def _started(servers: list[DemoServer]) -> bool:
    return any(server.hits for server in servers)


def _wait_for_workers(redis: str, count: int) -> None:
    """Until `count` workers beat (they are open and polling the shared queue)."""
    server = Redis.from_url(redis)
    _wait(lambda: sum(1 for _ in server.scan_iter(match="site:worker:*")) >= count, 0.2, 120)


def pipeline_rate(workers: int, admin_url: str, paths: list[list[str]], logs: Path,
                  setup: Setup, stored: int = 0, prewarm: bool = False,
                  search: bool = True) -> Result:
    """Pages stored per second with N cooperating workers (on a store already holding
    `stored` other pages, its indexes read into memory first with `prewarm`; without
    `search`, the pages stored without their search rows, stories and watches)."""
    url = _fresh_database(admin_url, stored, prewarm)
    Redis.from_url(setup.redis).flushdb()
    env = {"DATABASE_URL": url, "REDIS_URL": setup.redis, "JOURNAL_DIR": str(logs / "journal"),
           "MAX_IDLE_TIME_BEFORE_CLOSE": "12"}  # outlasts the starter's start-up below
    # One held connection without transactions: each poll is one statement, not a pool
    # check-out with its pre-ping, BEGIN and ROLLBACK (PostgreSQL CPU the crawl is
    # charged with); pages are counted above the ids stored before (an index range).
    poll = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool).connect()
    before = poll.scalar(select(func.coalesce(func.max(Page.id), 0)))
    count = select(func.count()).select_from(Page).where(Page.id > before)

    def crawled() -> int:
        return poll.scalar(count)

    common = setup.common if search else [*setup.common, "-s", "SEARCH_INDEX_ENABLED=False"]
    with serving(setup) as servers:
        helpers = [scrapy_process([], env, logs / f"w{n}-{workers}.log", common)
                   for n in range(workers - 1)]
        _wait_for_workers(setup.redis, workers - 1)  # idle-waiting for work
        starts = ",".join(f"{server.url}/" for server in servers)
        starter = scrapy_process(["-a", f"start_urls={starts}", "-a", "depth=8"], env,
                                 logs / f"w-start-{workers}.log", common)
        pids = [process.pid for process in [starter, *helpers]]
        _wait(lambda: _started(servers))
        wal_before = _wal(poll)
        # light polling: the workers need the CPU (each count over the growing table is
        # PostgreSQL work the crawl is charged with)
        measured = _measure(pids, crawled, sum(map(len, paths)), every=0.1,
                            database=make_url(url).database, redis_pid=setup.redis_pid)
        wal_after = _wal(poll)
        for process in [starter, *helpers]:
            process.wait(timeout=120)
    pages = crawled()
    poll.close()
    _drop_database(admin_url, url)
    label = f"pipeline, {workers} worker{'s' * (workers > 1)}"
    if stored:
        label += f", {stored:,} stored" + (", prewarmed" if prewarm else "")
    if not search:
        label += ", no search"
    return Result(label, workers, pages,
                  *measured, stored_before=before,
                  wal=(wal_after[0] - wal_before[0], wal_after[1] - wal_before[1]), search=search)


def _wal(connection: Connection) -> tuple[int, int]:
    """The server's WAL so far: full-page images and bytes (pg_stat_wal)."""
    fpi, size = connection.execute(text("SELECT wal_fpi, wal_bytes FROM pg_stat_wal")).one()
    return int(fpi), int(size)


def fetch_only_rate(paths: list[list[str]], logs: Path, setup: Setup) -> Result:
    """The crawler's spider fetching the same pages, items going nowhere: the no-pipeline
    ceiling. The URLs reach the spider as a Source row: in one `-a start_urls=…` argument,
    past about 6,000 of them (`--scale` 13) the kernel refused the command line."""
    with serving(setup) as servers:
        env = {"REDIS_URL": "", "DATABASE_URL": "sqlite:///" + str(logs / "unused.sqlite3")}
        upgrade(env["DATABASE_URL"])
        urls = [server.url + p for server, own in zip(servers, paths, strict=True) for p in own]
        with session_factory(env["DATABASE_URL"]).begin() as session:
            session.add(Source(name="fetch-only", start_urls=urls, allowed_domains=[],
                               page_type_rules=[], settings={}))
        process = scrapy_process(["-a", "source=fetch-only", "-a", "depth=0",
                                  "-s", "ITEM_PIPELINES={}"], env, logs / "fetch-only.log",
                                 setup.common)
        _wait(lambda: _started(servers))
        measured = _measure([process.pid], _fetched(servers, paths), len(urls))
        process.wait(timeout=120)
    return Result("no pipeline", 1, len(urls), *measured)


def plain_rate(paths: list[list[str]], logs: Path, setup: Setup) -> Result:
    """A minimal Scrapy spider (bench/plain_spider.py) fetching the same pages at the same
    concurrency and per-domain politeness, with Scrapy's own components: the rate a crawl
    that keeps nothing reaches against these sites."""
    settings = [f"{name}={getattr(defaults, name)}" for name in POLITENESS]
    settings += [f"CONCURRENT_REQUESTS={setup.concurrency}", "LOG_LEVEL=WARNING"]
    with serving(setup) as servers:
        listed = logs / "urls.txt"
        listed.write_text("\n".join(server.url + p for server, own in
                                    zip(servers, paths, strict=True) for p in own))
        env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
        with (logs / "plain.log").open("ab") as log:
            # run outside the project: no scrapy.cfg, so none of the crawler's components
            process = subprocess.Popen(
                [sys.executable, "-m", "scrapy", "runspider", str(PLAIN_SPIDER),
                 "-a", f"urls={listed}", *(arg for s in settings for arg in ("-s", s))],
                cwd=logs, env=env, stdout=log, stderr=log)
        _wait(lambda: _started(servers))
        expected = sum(map(len, paths))
        measured = _measure([process.pid], _fetched(servers, paths), expected, every=0.1,
                            database="", redis_pid=setup.redis_pid)
        process.wait(timeout=120)
    return Result("plain Scrapy", 1, expected, *measured)


def ceiling_rate(row: Result) -> float:
    """Pages/s this mode's CPU per page allows if the crawl had the machine's cores to
    itself: each worker is one thread-bound process (at most one core), and the workers,
    demo server, PostgreSQL and Redis share the cores."""
    own = sum(row.cpu[group] for group in GROUPS if group != "other") / row.pages
    return min(row.processes / (row.cpu["workers"] / row.pages), (os.cpu_count() or 1) / own)


def busy_cores(row: Result) -> float:
    """Cores the whole machine kept busy during the mode (the crawl's and everything else's)."""
    return sum(row.cpu.values()) / row.seconds


def bound_by(row: Result) -> str:
    """Where this mode's steady rate met its ceiling: the machine's cores (busy over the
    steady span), or waiting (latency, politeness)."""
    if row.steady_busy >= CORES_BUSY * (os.cpu_count() or 1):
        return "cores busy"
    running, waiting = row.reactor
    idle = 1 - (running + waiting) / (row.seconds * row.processes)
    return f"waiting on sites ({idle:.0%} idle)"


def stored_page_ms(row: Result) -> float:
    """CPU ms a stored page costs the crawl: its workers, PostgreSQL, Redis."""
    return 1000 * sum(row.cpu[g] for g in ("workers", "postgres", "redis")) / row.pages


def report(rows: list[Result]) -> None:
    """Rates against the baseline (row 0) and N times one worker, whole window and steady,
    then CPU ms per page, the busy cores and where each mode's ceiling was."""
    base, steady_base = rows[0].pages / rows[0].seconds, rows[0].steady
    one = next(row for row in rows if row.processes == 1 and row is not rows[0])
    print(f"{'mode':32} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'vs N×one':>9} "
          f"{'vs ' + rows[0].label:>16} {'steady p/s':>11} {'vs N×one':>9} "
          f"{'vs ' + rows[0].label:>16}")
    for row in rows:
        rate = row.pages / row.seconds
        print(f"{row.label:32} {row.pages:6d} {row.seconds:8.2f} {rate:8.1f} "
              f"{rate / (row.processes * one.pages / one.seconds):9.2f} "
              f"{rate / base:16.2f} {row.steady:11.1f} "
              f"{row.steady / (row.processes * one.steady):9.2f} {row.steady / steady_base:16.2f}")
    print(f"\nCPU ms per page  {'mode':32} " + " ".join(f"{g:>10}" for g in GROUPS)
          + f" {'busy cores':>10} {'steady':>7} {'ceiling/s':>10}  bound by")
    for row in rows:
        per_page = " ".join(f"{1000 * row.cpu[g] / row.pages:10.2f}" for g in GROUPS)
        print(f"{'':16} {row.label:32} {per_page} {busy_cores(row):10.2f} "
              f"{row.steady_busy:7.2f} {ceiling_rate(row):10.0f}  {bound_by(row)}")
    print(f"\nreactor threads  {'mode':32} {'running':>10} {'runnable':>10} {'idle':>10}")
    for row in rows:
        span = row.seconds * row.processes
        running, waiting = row.reactor
        print(f"{'':16} {row.label:32} {running / span:10.0%} {waiting / span:10.0%} "
              f"{1 - (running + waiting) / span:10.0%}")


def goals(rows: list[Result]) -> None:
    """The latency mode's goals, each against this run's rows."""
    plain = rows[0]
    pipelines = [row for row in rows[1:] if not row.stored_before and row.search]
    one = next(row for row in pipelines if row.processes == 1)
    ratio = one.steady / plain.steady
    print(f"\ngoal: pipeline ≥ 0.85 × plain Scrapy (steady): {ratio:.2f} "
          f"(whole {one.pages / one.seconds / (plain.pages / plain.seconds):.2f}) "
          f"{'met' if ratio >= 0.85 else 'NOT met'}")
    for row in (row for row in pipelines if row.processes > 1):
        scaling = row.steady / (row.processes * one.steady)
        verdict = ("met" if scaling >= 0.9 else
                   "cores busy" if bound_by(row) == "cores busy" else "NOT met")
        print(f"goal: {row.processes} workers ≥ 0.9 × {row.processes} × one (steady): "
              f"{scaling:.2f}, {row.steady_busy:.2f} cores busy (steady; whole crawl "
              f"{busy_cores(row):.2f}): {verdict}")
    for row in (row for row in rows[1:] if not row.search):
        rate, cost = one.steady / row.steady, stored_page_ms(one) - stored_page_ms(row)
        print(f"goal: search keeps the store rate within {100 * (1 - SEARCH_RATE):.0f} % (steady): "
              f"{one.steady:.1f} p/s with it, {row.steady:.1f} without, {rate:.2f} "
              f"{'met' if rate >= SEARCH_RATE else 'NOT met'}; CPU a stored page "
              f"{cost:+.2f} ms ({100 * cost / stored_page_ms(row):+.0f} %)")
    for row in rows[1:]:
        print(f"CPU per stored page (workers + PostgreSQL + Redis), {row.label}, "
              f"{row.stored_before:,} pages stored before: {stored_page_ms(row):.2f} ms; "
              f"WAL {row.wal[0] / row.pages:.1f} full-page images, "
              f"{row.wal[1] / row.pages / 1024:.0f} KB a page")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crawl")
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis-url", help=f"flushed before each mode (default {REDIS}; "
                                             "latency mode: a Redis server of its own)")
    parser.add_argument("--scale", type=float, default=1,
                        help="demo site size, ≈ 500 pages each (a fraction: smaller)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of all modes, one after the other; each is reported")
    parser.add_argument("--latency", type=float, default=0.0,
                        help="ms each answer takes (latency mode when > 0)")
    parser.add_argument("--jitter", type=float, default=0.0, help="± ms around --latency")
    parser.add_argument("--domains", type=int, help="demo sites (latency mode: 8, else 1)")
    parser.add_argument("--concurrency", type=int, default=16,
                        help="CONCURRENT_REQUESTS of each worker (latency mode)")
    parser.add_argument("--workers", help="worker counts, 1 among them (latency mode: 1,2,4, "
                                          "else 1,2)")
    parser.add_argument("--stored", type=int, default=0,
                        help="also one worker on a store already holding this many pages")
    parser.add_argument("--prewarm", action="store_true",
                        help="--stored: read the store's indexes into PostgreSQL's "
                             "buffers first (a server that has been storing pages a while)")
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


def _load() -> str:
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def _rounds(args: argparse.Namespace) -> int:
    latency = args.latency > 0
    with ExitStack() as stack:
        redis, redis_pid = args.redis_url or REDIS, None
        if latency and not args.redis_url:
            own = stack.enter_context(OwnRedis(stack.enter_context(TemporaryDirectory()),
                                               aof=False))
            redis, redis_pid = own.url, own.pid
        setup = Setup(site_config(args.scale), redis, args.domains or (8 if latency else 1),
                      args.latency / 1000, args.jitter / 1000, args.concurrency, redis_pid)
        _modes(args, setup)
    return 0


def _modes(args: argparse.Namespace, setup: Setup) -> None:
    latency = bool(setup.latency)
    workers = [int(n) for n in (args.workers or ("1,2,4" if latency else "1,2")).split(",")]
    paths = site_paths(setup)
    for round_ in range(1, args.repeat + 1):
        print(f"\n== round {round_} of {args.repeat}, {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, "
              f"{_load()}", flush=True)
        with TemporaryDirectory() as tmp:
            logs = Path(tmp)
            rows = [_shown(plain_rate(paths, logs, setup) if latency
                           else fetch_only_rate(paths, logs, setup))]
            rows += [_shown(pipeline_rate(n, args.admin_url, paths, logs, setup))
                     for n in workers]
            if latency:
                rows.append(_shown(pipeline_rate(1, args.admin_url, paths, logs, setup,
                                                 search=False)))
            if args.stored:
                rows.append(_shown(pipeline_rate(1, args.admin_url, paths, logs, setup,
                                                 args.stored, args.prewarm)))
        print(f"(after the round: {_load()})")
        report(rows)
        if latency:
            goals(rows)


def _shown(row: Result) -> Result:
    """Print a mode's figures as soon as it is done (a long run interrupted keeps them)."""
    per_page = ", ".join(f"{group} {1000 * row.cpu[group] / row.pages:.2f}" for group in GROUPS)
    print(f"  {row.label}: {row.pages} pages in {row.seconds:.1f} s, steady {row.steady:.1f} "
          f"p/s; CPU ms per page: {per_page}; {_load()}", flush=True)
    return row


if __name__ == "__main__":
    sys.exit(main())
