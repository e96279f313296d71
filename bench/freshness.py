"""Freshness: a scheduled source against the live demo site, for an hour of simulated time.

The demo site (tests/demosite/live.py) publishes articles, threads and posts and adds, edits
and deletes comments over `--hours` of its life, run `--scale` times faster than real
time. A source for it is crawled as in production: `python -m crawler schedule` starts a
run every `--schedule-minutes` (list pages, feeds and sitemaps, and the articles due for a
revisit), `scrapy crawl site` workers on a Redis of the bench's own crawl it into a fresh
PostgreSQL database. Every duration the crawler waits by (the source's interval, its
revisit intervals, the scheduler's check, the workers' idle poll and persist flush) is
divided by the same factor; the crawl's own work (fetching, extracting, writing) is not,
so a larger factor makes the crawler look slower, never faster.

The site is crawled once before its clock starts (a new source's first run); the clock
then runs the hour, and the crawl goes on for a tail (`TAIL_SECONDS` simulated) so the
last changes have their window. The bench polls the database and reports:

- new articles: delay from appearing to the page row, p50 / p95, share within 5 minutes
  (the wait for the run scaled, the run's own work in real seconds, and all of it scaled:
  bench/freshness_score.py says why);
- new comments on stored articles: delay to the comment row, share within the revisit
  interval their article had when they appeared;
- comment rows beyond one per comment of the final site (duplicates), missing and stray;
- traffic: requests and bytes the site served during the hour, against fetching every
  page, feed and sitemap once per scheduled cycle (the naive policy, from the site's size
  at each cycle).

    python -m bench.freshness [--scale 12] [--hours 1] [--schedule-minutes 5]
                              [--revisit-min 900] [--revisit-backoff 2] [--check-seconds 30]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from tempfile import TemporaryDirectory
from urllib.parse import urlsplit

from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import NullPool

from bench.freshness_score import (
    Delays,
    Duplicates,
    Schedule,
    StoredComment,
    article_delays,
    comment_delays,
    duplicates,
    percentile,
)
from crawler import settings as defaults
from crawler.migrate import upgrade
from models import Article, Comment, CrawlRun, Page, Source
from models.db import PROJECT_ROOT, session_factory
from tests.demosite import DemoServer, SiteConfig
from tests.demosite.live import LiveConfig
from tests.services import OwnRedis

ADMIN_URL = "postgresql+psycopg2://postgres@127.0.0.1:5432/test"
ARTICLE_GOAL = 300.0  # simulated seconds: 95 % of new articles stored within 5 minutes
GOAL_SHARE = 0.95
TAIL_SECONDS = 900.0  # simulated seconds crawled after the last change
POLL_SECONDS = 0.1  # wall seconds between the bench's looks at the database
WARM_UP_TIMEOUT = 600.0  # wall seconds the first run may take
# The live site's size: about 170 pages (a tenth of the default demo site's articles), so
# the first run's revisits take seconds, not minutes, of wall time at the default scale.
SITE = SiteConfig(articles_per_section=10, threads_per_board=6, blog_posts=12)
DETAIL_KINDS = ("news", "blog", "forum")


@dataclass(frozen=True)
class Policy:
    """The crawler's side in real seconds: list-page schedule, revisit policy, checks."""

    schedule_seconds: float = 300.0
    revisit_min: float = float(defaults.REVISIT_MIN_INTERVAL)
    revisit_max: float = float(defaults.REVISIT_MAX_INTERVAL)
    revisit_backoff: float = defaults.REVISIT_BACKOFF
    revisit_max_age: float = float(defaults.REVISIT_MAX_AGE)
    check_seconds: float = defaults.SCHEDULE_CHECK_SECONDS


@dataclass
class Report:
    """What one run measured."""

    scale: float
    articles: Delays
    comments: Delays
    duplicates: Duplicates
    runs: int
    requests: int
    bytes: int
    detail_requests: int
    detail_bytes: int
    naive_requests: int
    naive_bytes: int
    changes: dict[str, int] = field(default_factory=dict)

    def goals_met(self) -> bool:
        return (self.articles.share_within >= GOAL_SHARE
                and self.comments.share_within >= GOAL_SHARE
                and self.duplicates.duplicated == 0)


def _epoch(value: datetime | None) -> float | None:
    return value.timestamp() if value is not None else None


class Watcher:
    """What the database holds, polled: when each article and comment row first appeared,
    and each article's visits with the interval each planned."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.articles: dict[str, float] = {}
        self.comment_seen: dict[int, float] = {}
        self.schedules: dict[str, Schedule] = {}

    def poll(self) -> None:
        now = time.time()
        with self.engine.connect() as connection:
            for url, fetched, interval in connection.execute(
                    select(Page.url, Page.fetched_at, Page.revisit_seconds)
                    .where(Page.page_type.in_(DETAIL_KINDS))):
                path = urlsplit(url).path
                self.articles.setdefault(path, now)
                self.schedules.setdefault(path, Schedule()).note(_epoch(fetched), interval)
            last = max(self.comment_seen, default=0)
            for (comment_id,) in connection.execute(select(Comment.id).where(Comment.id > last)):
                self.comment_seen[comment_id] = now

    def comments(self) -> list[StoredComment]:
        """Every comment row as it stands, with the time it was first seen."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(Comment.id, Page.url, Comment.author, Comment.text, Comment.gone_at)
                .join(Article, Article.id == Comment.article_id)
                .join(Page, Page.id == Article.page_id)).all()
        return [StoredComment(urlsplit(url).path, author, body, gone is not None,
                              self.comment_seen.get(comment_id, time.time()))
                for comment_id, url, author, body, gone in rows]


@contextmanager
def _database(admin_url: str) -> Iterator[str]:
    name = f"fresh_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        upgrade(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _scaled(seconds: float, scale: float) -> float:
    return seconds / scale


def _source(url: str, policy: Policy, scale: float) -> Source:
    """The live site as a source, every interval divided by `scale` (the interval column
    holds whole seconds: the schedule must divide into them)."""
    interval = policy.schedule_seconds / scale
    if interval < 1 or abs(interval - round(interval)) > 1e-9:
        raise ValueError(f"a {policy.schedule_seconds:g} s schedule at scale {scale:g} is "
                         f"{interval:g} s: the source's interval must be whole seconds ≥ 1")
    return Source(
        name="live-demo", start_urls=[url + "/"], allowed_domains=[], max_depth=3,
        interval_seconds=round(interval), page_type_rules=[], enabled=True, settings={
            "timezone": "Asia/Shanghai", "ALLOW_PRIVATE_ADDRESSES": True,
            "REVISIT_MIN_INTERVAL": _scaled(policy.revisit_min, scale),
            "REVISIT_MAX_INTERVAL": _scaled(policy.revisit_max, scale),
            "REVISIT_BACKOFF": policy.revisit_backoff,
            "REVISIT_MAX_AGE": _scaled(policy.revisit_max_age, scale)})


def _processes(database: str, redis: str, policy: Policy, scale: float, folder: Path,
               workers: int) -> list[subprocess.Popen[bytes]]:
    """The scheduler and the workers, their waits scaled; output in `folder`."""
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis,
           "JOURNAL_DIR": str(folder / "journal"), "MAX_IDLE_TIME_BEFORE_CLOSE": "0",
           "CRAWL_ALLOW_PRIVATE_ADDRESSES": "1"}
    waits = {"PERSIST_FLUSH_SECONDS": defaults.PERSIST_FLUSH_SECONDS,
             "CLUSTER_IDLE_POLL_SECONDS": defaults.CLUSTER_IDLE_POLL_SECONDS,
             "CLUSTER_HEARTBEAT_SECONDS": defaults.CLUSTER_HEARTBEAT_SECONDS}
    options = ["-s", "LOG_LEVEL=INFO", "-s", "AUTOTHROTTLE_ENABLED=False"]
    for name, seconds in waits.items():
        options += ["-s", f"{name}={seconds / scale:g}"]
    started = [subprocess.Popen(
        [sys.executable, "-m", "crawler", "schedule",
         "--every", f"{policy.check_seconds / scale:g}"],
        cwd=PROJECT_ROOT, env=env, stdout=(folder / "schedule.log").open("ab"),
        stderr=subprocess.STDOUT)]
    for n in range(workers):
        log = (folder / f"worker-{n}.log").open("ab")
        started.append(subprocess.Popen(
            [sys.executable, "-m", "scrapy", "crawl", "site", *options],
            cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
    return started


def _finished_runs(engine: Engine) -> int:
    with engine.connect() as connection:
        return len(connection.execute(select(CrawlRun.id)
                                      .where(CrawlRun.finished_at.is_not(None))).all())


def _run_starts(engine: Engine) -> list[float]:
    """When each run was started (its start URLs pushed), wall seconds."""
    with engine.connect() as connection:
        started = connection.execute(select(CrawlRun.started_at)).scalars().all()
    return sorted(when.timestamp() for when in started)


def measure(scale: float = 12.0, hours: float = 1.0, policy: Policy | None = None,
            live: LiveConfig | None = None, admin_url: str = ADMIN_URL, workers: int = 1,
            site: SiteConfig = SITE, tail: float = TAIL_SECONDS,
            log_folder: Path | None = None) -> Report:
    """One live run, as the module's docstring says; `log_folder` keeps the processes' logs."""
    policy = policy or Policy()
    live = live or LiveConfig(scale=scale, duration=hours * 3600)
    with TemporaryDirectory(prefix="bench-fresh-") as scratch, _database(admin_url) as db:
        folder = log_folder or Path(scratch)
        redis = OwnRedis(scratch, aof=False).start()
        engine = create_engine(db, poolclass=NullPool)
        try:
            with DemoServer(config=site, live=live) as server:
                with session_factory(db).begin() as session:
                    session.add(_source(server.url, policy, scale))
                processes = _processes(db, redis.url, policy, scale, folder, workers)
                try:
                    return _run(server, engine, processes, policy, scale, tail)
                finally:
                    for process in processes:
                        process.terminate()
                    for process in processes:
                        process.wait(timeout=60)
        finally:
            engine.dispose()
            redis.stop()


def _run(server: DemoServer, engine: Engine, processes: list[subprocess.Popen[bytes]],
         policy: Policy, scale: float, tail: float) -> Report:
    assert server.live is not None
    watcher = Watcher(engine)
    deadline = time.monotonic() + WARM_UP_TIMEOUT
    while _finished_runs(engine) == 0:
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            raise RuntimeError("the first run did not finish (see the workers' logs)")
        time.sleep(POLL_SECONDS)
    watcher.poll()
    with server._lock:
        server.hits.clear()
        server.sent.clear()
    server.live.start()
    clock = server.live.clock
    end = clock.wall(server.live.config.duration + tail)
    cycle = policy.schedule_seconds
    naive_requests = naive_bytes = 0
    next_cycle = 0.0
    while time.time() < end:
        if clock.now() >= next_cycle and clock.now() <= server.live.config.duration + tail:
            pages, size = server.live.size(server.url)
            naive_requests, naive_bytes = naive_requests + pages, naive_bytes + size
            next_cycle += cycle
        watcher.poll()
        time.sleep(POLL_SECONDS)
    stopped = time.time()
    server.live.site()  # every change due is applied (and logged)
    truth = list(server.live.truth)
    details = {item.path for item in server.live.items.values()}
    rows = [row for row in watcher.comments() if row.path in details]
    final = {path: [(cm.author, cm.text) for cm in server.live.items[path].comments]
             for path in watcher.articles if path in details}
    with server._lock:
        hits, sent = dict(server.hits), dict(server.sent)
    changes: dict[str, int] = {}
    for record in truth:
        changes[record["kind"]] = changes.get(record["kind"], 0) + 1
    starts = _run_starts(engine)
    return Report(
        scale=scale,
        articles=article_delays(truth, watcher.articles, starts, scale, ARTICLE_GOAL, stopped),
        comments=comment_delays(truth, rows, watcher.articles, watcher.schedules, starts,
                                scale, stopped),
        duplicates=duplicates(final, rows),
        runs=sum(start >= clock.wall(0) for start in starts),
        requests=sum(hits.values()), bytes=sum(sent.values()),
        detail_requests=sum(n for path, n in hits.items() if path in details),
        detail_bytes=sum(n for path, n in sent.items() if path in details),
        naive_requests=naive_requests, naive_bytes=naive_bytes, changes=changes)


def _spread(delays: list[float]) -> str:
    return (f"p50 {percentile(delays, 0.5):.0f} s, p95 {percentile(delays, 0.95):.0f} s, "
            f"max {max(delays, default=0):.0f} s")


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"


def render(report: Report, policy: Policy) -> str:
    """The report as printed."""
    a, c, d = report.articles, report.comments, report.duplicates
    verdict = "met" if report.goals_met() else "NOT met"
    return "\n".join([
        f"scale {report.scale:g} (simulated s per wall s); schedule every "
        f"{_minutes(policy.schedule_seconds)}, revisits {policy.revisit_min:g} s ×"
        f"{policy.revisit_backoff:g} up to {policy.revisit_max:g} s, scheduler check "
        f"{policy.check_seconds:g} s; {report.runs} runs; changes: {report.changes}",
        f"new articles: {len(a.delays)} stored, {a.missed} missed, {a.censored} censored; "
        f"delay {_spread(a.delays)}; all scaled {_spread(a.scaled)}; within 5 min: "
        f"{a.share_within:.1%} (goal {GOAL_SHARE:.0%}; all scaled "
        f"{sum(d <= ARTICLE_GOAL for d in a.scaled) / max(a.judged, 1):.1%})",
        f"new comments: {len(c.delays)} stored, {c.missed} missed, {c.censored} censored; "
        f"delay {_spread(c.delays)}; all scaled {_spread(c.scaled)}; within their article's "
        f"revisit interval: {c.share_within:.1%} (goal {GOAL_SHARE:.0%})",
        f"comment rows: {d.rows} live, {d.duplicated} duplicated (goal 0), "
        f"{d.missing} missing, {d.stray} stray",
        f"traffic: {report.requests} requests, {report.bytes / 1e6:.2f} MB "
        f"(article pages: {report.detail_requests} requests, "
        f"{report.detail_bytes / 1e6:.2f} MB); naive refetch of everything each cycle: "
        f"{report.naive_requests} requests, {report.naive_bytes / 1e6:.2f} MB "
        f"({report.requests / max(report.naive_requests, 1):.1%} of its requests, "
        f"{report.bytes / max(report.naive_bytes, 1):.1%} of its bytes)",
        f"goals {verdict}"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.freshness", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=12.0,
                        help="simulated seconds per wall second (default 12: an hour in 5 min)")
    parser.add_argument("--hours", type=float, default=1.0, help="simulated hours of site life")
    parser.add_argument("--schedule-minutes", type=float, default=5.0)
    parser.add_argument("--revisit-min", type=float, default=Policy.revisit_min)
    parser.add_argument("--revisit-backoff", type=float, default=Policy.revisit_backoff)
    parser.add_argument("--revisit-max", type=float, default=Policy.revisit_max)
    parser.add_argument("--check-seconds", type=float, default=Policy.check_seconds,
                        help="the scheduler's check interval, real seconds")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--admin-url", default=ADMIN_URL)
    parser.add_argument("--logs", type=Path, help="keep the processes' logs in this folder")
    args = parser.parse_args(argv)
    policy = Policy(schedule_seconds=args.schedule_minutes * 60, revisit_min=args.revisit_min,
                    revisit_max=args.revisit_max, revisit_backoff=args.revisit_backoff,
                    check_seconds=args.check_seconds)
    if args.logs:
        args.logs.mkdir(parents=True, exist_ok=True)
    report = measure(args.scale, args.hours, policy, admin_url=args.admin_url,
                     workers=args.workers, log_folder=args.logs)
    print(render(report, policy))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
