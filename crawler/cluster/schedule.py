"""`python -m crawler schedule`: start a crawl run for every Source that is due.

A source is due when its interval has passed since it was last scheduled, or its
cron expression has fired since then. Starting a run records a CrawlRun and pushes
its start URLs to Redis, where idle workers pick them up. Runs end by themselves
when their last request is done. Run it as a long-lived process, or with --once
from cron or a systemd timer.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import time
from datetime import UTC, datetime, timedelta

from croniter import croniter
from redis import Redis
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from crawler.cluster.runs import create_run, push_start_urls
from models.crawl import Source
from models.db import session_factory

logger = logging.getLogger(__name__)
SPIDER = "site"


def is_due(source: Source, now: datetime) -> bool:
    """Never scheduled → due; else due once its interval or its next cron time has passed."""
    last = source.last_scheduled_at
    if last is None:
        return True
    last = last if last.tzinfo else last.replace(tzinfo=UTC)
    if source.cron:
        return croniter(source.cron, last).get_next(datetime) <= now
    return bool(source.interval_seconds) and last + timedelta(
        seconds=source.interval_seconds) <= now


def schedule_due(sessions: sessionmaker[Session], server: Redis,
                 now: datetime | None = None) -> list[int]:
    """Start a run for each due source; returns the new run ids."""
    now = now or datetime.now(UTC)
    started = []
    with sessions() as session:
        sources = session.scalars(select(Source).where(Source.enabled.is_(True))).all()
    for source in sources:
        if not is_due(source, now):
            continue
        run_id = create_run(sessions, SPIDER, source.id)
        pushed = push_start_urls(server, SPIDER, run_id, source.id, source.start_urls)
        with sessions.begin() as session:
            session.get(Source, source.id).last_scheduled_at = now
        logger.info("source %s is due: run %d started with %d start URLs", source.name, run_id,
                    pushed)
        started.append(run_id)
    return started


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m crawler schedule")
    parser.add_argument("--once", action="store_true", help="check once and exit (for cron)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between checks")
    parser.add_argument("--database-url", help="default: $DATABASE_URL")
    parser.add_argument("--redis-url", help="default: $REDIS_URL")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    server = Redis.from_url(args.redis_url or os.environ.get("REDIS_URL",
                                                             "redis://127.0.0.1:6379/0"))
    sessions = session_factory(args.database_url)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    while True:
        schedule_due(sessions, server)
        if args.once or stopping:
            return 0
        deadline = time.monotonic() + args.every
        while time.monotonic() < deadline and not stopping:
            time.sleep(0.2)
