"""`python -m crawler schedule`: start a crawl run for every Source that is due.

A source is due when its interval has passed since it was last scheduled, or its cron
expression has fired since then. Cron is read on the source's clock (its `settings.timezone`,
else the machine's zone), so `0 8 * * *` is 08:00 where the source is, DST included.
Starting a run records a CrawlRun and pushes its start URLs, and its stored articles due
for a revisit (crawler/revisits.py), to Redis, where idle workers pick them up. Runs end by
themselves when their last request is done. Run it as a long-lived process, or with --once
from cron or a systemd timer; run any number of them.

One run per due source however many schedulers run: a compare-and-set UPDATE of
`source.last_scheduled_at` claims it (same SQL on PostgreSQL and SQLite; no lock to outlive
a killed scheduler).

With `--metrics-port` it serves Prometheus metrics: runs started per source, checks, and
the shared queue (`crawler.metrics`). Each check also evaluates the run-level crawl health
(crawler/cluster/health.py) and reports its changes (reading/health_alerts.py): a --once
check sends each alert once, a long-running scheduler retries a target that is down with
back-off.

Settings (read from crawler/settings.py, not a crawl's `-s`): SCHEDULE_CHECK_SECONDS,
SCHEDULE_REDIS_TIMEOUT_SECONDS, REVISIT_MAX_PER_RUN, LOG_FORMAT, METRICS_HOST,
HEALTH_ALERT_URLS and the other HEALTH_*; REDIS_URL, DATABASE_URL and METRICS_PORT from
the environment.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from datetime import UTC, datetime, timedelta, tzinfo
from typing import NamedTuple

from croniter import croniter
from prometheus_client import CollectorRegistry
from redis import Redis, RedisError
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from tzlocal import get_localzone

from crawler import settings
from crawler.cluster.health import run_health
from crawler.cluster.keys import SPIDER
from crawler.cluster.runs import push_start_urls
from crawler.metrics.cluster import ClusterCollector
from crawler.metrics.names import SchedulerMetrics
from crawler.metrics.serve import serve
from crawler.revisits import due_revisits, revisits_per_run
from crawler.sources import target_of
from models.crawl import Source
from models.db import session_factory
from models.schema import DatabaseNotReady, DatabaseUnreachable, check_schema, shown_url
from models.store import start_run
from pipelines import JSON_LINES, LogGuard, LogLineParams, guard_root_logging, zone_named
from reading.health_alerts import SCHEDULER, HealthAlerts, targets_from

logger = logging.getLogger(__name__)
NO_REDIS = ("the scheduler starts runs on the shared Redis frontier that the workers read: "
            "set REDIS_URL or pass --redis-url")


class Started(NamedTuple):
    """A run the scheduler started."""

    source: str
    run_id: int


class Unavailable(Exception):
    """Redis or the database cannot be reached; the message is one line, worth a retry."""


def source_zone(source: Source, local_zone: tzinfo) -> tzinfo:
    """The clock a source's cron is read on: its `timezone` setting, else `local_zone`; a
    name no zone has is logged and the local zone used, not the source's runs lost."""
    name = (source.settings or {}).get("timezone")
    if not name:
        return local_zone
    try:
        return zone_named(name)
    except ValueError as error:
        logger.error("source %s: %s; its cron is read on the machine's clock", source.name,
                     error)
        return local_zone


def is_due(source: Source, now: datetime, local_zone: tzinfo | None = None) -> bool:
    """Never scheduled → due; else due once its interval or its next cron time (on the
    source's clock, `local_zone` standing for the machine's) has passed."""
    last = source.last_scheduled_at
    if last is None:
        return True
    if source.cron:
        zone = source_zone(source, local_zone or get_localzone())
        return croniter(source.cron, last.astimezone(zone)).get_next(datetime) <= now
    return bool(source.interval_seconds) and last + timedelta(
        seconds=source.interval_seconds) <= now


def claim_time(source: Source, now: datetime) -> datetime:
    """The start an interval source's run is recorded with: the moment it fell due, when that
    was less than one interval ago, so its runs keep their cadence (a run every
    `interval_seconds`, not every interval plus the scheduler's check delay, which added up
    to 30 s a run with the default check: 5-minute runs up to 5.5 minutes apart); else `now`."""
    last, every = source.last_scheduled_at, source.interval_seconds
    if source.cron or not every or last is None:
        return now
    due = last + timedelta(seconds=every)
    return due if due <= now < due + timedelta(seconds=every) else now


def next_start(source: Source, started: datetime, local_zone: tzinfo | None = None) -> datetime:
    """When the run after one started at `started` falls due (`started` for a source that
    runs only when asked)."""
    if source.cron:
        zone = source_zone(source, local_zone or get_localzone())
        return croniter(source.cron, started.astimezone(zone)).get_next(datetime)
    if source.interval_seconds:
        return started + timedelta(seconds=source.interval_seconds)
    return started


def due_sources(sessions: sessionmaker[Session], now: datetime,
                local_zone: tzinfo | None = None) -> list[Source]:
    """The enabled sources due at `now`; one whose cron, page-type rules or settings are
    malformed is logged with the reason and skipped."""
    with sessions() as session:
        sources = session.scalars(select(Source).where(Source.enabled.is_(True))
                                  .order_by(Source.id)).all()
    due = []
    for source in sources:
        try:
            if is_due(source, now, local_zone):
                target_of(source)  # a malformed rule or setting: refused here, not per page
                due.append(source)
        except ValueError as error:  # croniter's and target_of's errors are ValueErrors
            logger.error("source %s is not started: %s", source.name, error)
    return due


def start_if_unclaimed(sessions: sessionmaker[Session], server: Redis, source: Source,
                       now: datetime) -> int | None:
    """Start a run of `source`, read as due, unless another scheduler did since it was read.

    The claim (last_scheduled_at still as read → its `claim_time`), the CrawlRun row and the
    push of its start URLs commit together: a push that fails leaves the source unclaimed
    and due. The run revisits the articles due before the next run would start, so no
    revisit waits up to a whole schedule period past its interval (docs/BENCHMARKS.md,
    "Freshness")."""
    was = Source.last_scheduled_at
    unchanged = was.is_(None) if source.last_scheduled_at is None else (
        was == source.last_scheduled_at)
    claimed = claim_time(source, now)
    with sessions.begin() as session:
        claim = session.execute(update(Source).where(Source.id == source.id, unchanged)
                                .values(last_scheduled_at=claimed)
                                .execution_options(synchronize_session=False))
        if claim.rowcount != 1:
            return None
        run_id = start_run(session, SPIDER, source.id)
        limit = revisits_per_run(None, target_of(source).settings)
        push_start_urls(server, SPIDER, run_id, source.id, source.start_urls,
                        due_revisits(session, source.id, max(next_start(source, claimed), now),
                                     limit))
    return run_id


def schedule_due(sessions: sessionmaker[Session], server: Redis, now: datetime | None = None,
                 local_zone: tzinfo | None = None) -> list[Started]:
    """Start a run for each due source no other scheduler started first; returns them."""
    now = now or datetime.now(UTC)
    started = []
    for source in due_sources(sessions, now, local_zone):
        run_id = start_if_unclaimed(sessions, server, source, now)
        if run_id is not None:
            started.append(Started(source.name, run_id))
    return started


def check(sessions: sessionmaker[Session], server: Redis,
          health: HealthAlerts | None = None) -> list[Started]:
    """One round: Redis and the schema checked first, then due sources started, then the
    run-level health reported to `health`. Raises Unavailable (worth a retry) or
    DatabaseNotReady (a schema to migrate), one line each."""
    url = sessions.kw["bind"].url.render_as_string(hide_password=False)
    try:
        server.ping()
        check_schema(url)
        started = schedule_due(sessions, server)
        if health is not None:
            with sessions.begin() as session:
                health.shared(session, run_health(session, server, SPIDER))
            health.send()
        return started
    except RedisError as error:
        raise Unavailable(f"cannot reach Redis at {_redis_address(server)}: "
                          f"{_first_line(error)}") from error
    except (DatabaseUnreachable, OperationalError) as error:
        cause = error.__cause__ if isinstance(error, DatabaseUnreachable) else error
        raise Unavailable(f"cannot reach the database {shown_url(url)}: "
                          f"{_first_line(getattr(cause, 'orig', None) or cause)}") from error


def report(started: list[Started]) -> str:
    """'nothing due', or 'started N runs: name (run id), …'."""
    if not started:
        return "nothing due"
    runs = ", ".join(f"{run.source} (run {run.run_id})" for run in started)
    return f"started {len(started)} run{'s' * (len(started) != 1)}: {runs}"


def _first_line(error: BaseException | None) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def _redis_address(server: Redis) -> str:
    """Where the client connects, without its password."""
    where = server.connection_pool.connection_kwargs
    if "path" in where:
        return f"unix:{where['path']}"
    return f"{where.get('host')}:{where.get('port')}/{where.get('db', 0)}"


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive number of seconds")
    return seconds


def parser() -> argparse.ArgumentParser:
    every = settings.SCHEDULE_CHECK_SECONDS
    result = argparse.ArgumentParser(
        prog="python -m crawler schedule",
        description="Start a crawl run of every enabled source that is due; the workers "
                    "(`scrapy crawl site` with the same REDIS_URL) crawl it.")
    result.add_argument("--once", action="store_true",
                        help="check once, print what was started, and exit (for cron or a "
                             "systemd timer); non-zero when Redis or the database fails")
    result.add_argument("--every", type=_seconds, default=every, metavar="SECONDS",
                        help=f"seconds between checks when long-running (default: {every:g}, "
                             "SCHEDULE_CHECK_SECONDS in crawler/settings.py)")
    result.add_argument("--database-url",
                        help="the store the sources and runs are in (default: $DATABASE_URL, "
                             "else the embedded SQLite file)")
    result.add_argument("--redis-url",
                        help="the Redis of the shared frontier the workers read (default: "
                             "$REDIS_URL; one of the two is required)")
    result.add_argument("--metrics-port", type=int, metavar="PORT",
                        help="serve Prometheus metrics on this port (0: a free one, logged; "
                             "default: $METRICS_PORT, else none); long-running only")
    result.add_argument("--metrics-host", default=settings.METRICS_HOST,
                        help=f"the address metrics listen on (default: $METRICS_HOST, else "
                             f"{settings.METRICS_HOST})")
    return result


def _port(value: str | None) -> int | None:
    """METRICS_PORT from the environment (a value that is no port number: none)."""
    return int(value) if value and value.strip().isdigit() else None


def main(argv: list[str]) -> int:
    """Exit 0 after a --once check or a signal; 1 when --once cannot check or the database
    has no schema; 2 without a Redis URL, or when its metrics cannot be served."""
    args = parser().parse_args(argv)
    redis_url = args.redis_url or os.environ.get("REDIS_URL")
    if not redis_url:
        print(f"schedule: {NO_REDIS}", file=sys.stderr)
        return 2
    guard = LogGuard.from_environment(os.environ, (args.database_url, redis_url), LogLineParams(
        settings.LOG_LINE_MAX_CHARS, settings.LOG_RECORD_MAX_LINES))
    guard_root_logging(guard, level=logging.WARNING if args.once else logging.INFO,
                       fmt="%(asctime)s %(levelname)s %(message)s",
                       json_lines=settings.LOG_FORMAT == JSON_LINES)
    timeout = settings.SCHEDULE_REDIS_TIMEOUT_SECONDS
    server = Redis.from_url(redis_url, socket_connect_timeout=timeout, socket_timeout=timeout)
    sessions = session_factory(args.database_url)
    health = HealthAlerts(SCHEDULER, targets_from(settings.HEALTH_ALERT_URLS), sessions)
    if args.once:
        if args.metrics_port is not None:
            print("schedule: --metrics-port serves a long-running scheduler, not --once",
                  file=sys.stderr)
            return 2
        try:
            print(report(check(sessions, server, health)))
        except (Unavailable, DatabaseNotReady) as error:
            print(f"schedule: {error}", file=sys.stderr)
            return 1
        return 0
    metrics = None
    port = args.metrics_port if args.metrics_port is not None else _port(
        os.environ.get("METRICS_PORT"))
    if port is not None:
        registry = CollectorRegistry()
        metrics = SchedulerMetrics.create(registry)
        registry.register(ClusterCollector.for_url(redis_url, SPIDER))
        try:
            serve(registry, args.metrics_host, port, "scheduler")
        except (OSError, OverflowError) as error:
            print(f"schedule: cannot serve metrics on {args.metrics_host}:{port}: {error}",
                  file=sys.stderr)
            return 2
    return _run_forever(sessions, server, args.every, health, metrics)


def _run_forever(sessions: sessionmaker[Session], server: Redis, every: float,
                 health: HealthAlerts, metrics: SchedulerMetrics | None = None) -> int:
    """Check every `every` seconds until SIGTERM or Ctrl-C; an unreachable service is a
    warning and the next check retries, a database without the schema ends it. Each check
    and each run started is counted in `metrics`, if given."""
    stopping: list[bool] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.append(True))
    logger.info("checking the sources every %g s (SIGTERM or Ctrl-C stops)", every)
    while not stopping:
        try:
            started = check(sessions, server, health)
        except Unavailable as error:
            logger.warning("%s; retrying in %g s", error, every)
            if metrics:
                metrics.checks.labels("unavailable").inc()
        except DatabaseNotReady as error:
            logger.error("%s", error)
            return 1
        else:
            if started:
                logger.info("%s", report(started))
            if metrics:
                metrics.checks.labels("ok").inc()
                for run in started:
                    metrics.runs_started.labels(run.source).inc()
        deadline = time.monotonic() + every
        while time.monotonic() < deadline and not stopping:
            time.sleep(min(0.2, every))
    return 0
