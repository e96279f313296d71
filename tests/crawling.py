"""Run the real `scrapy crawl site` command in a subprocess, as a user or cron would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from models import CrawlRun, Page
from models.db import session_factory

ROOT = Path(__file__).resolve().parent.parent


def run_crawl(start_urls: str | None, database_url: str, journal_dir: Path, *options: str,
              timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`scrapy crawl site -a start_urls=…` with the given extra `-a`/`-s` options (no
    start_urls argument when None, as for `-a source=NAME`)."""
    seeds = ("-a", f"start_urls={start_urls}") if start_urls is not None else ()
    return run_spider(database_url, journal_dir, *seeds, *options, timeout=timeout)


def run_spider(database_url: str, journal_dir: Path, *options: str, timeout: float = 300,
               redis_url: str | None = None) -> subprocess.CompletedProcess[str]:
    """`scrapy crawl site` with exactly the given `-a`/`-s` options (a worker of the
    cluster at `redis_url` if given)."""
    env = {**os.environ, "DATABASE_URL": database_url, "JOURNAL_DIR": str(journal_dir)}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    level = os.environ.get("CRAWL_LOG_LEVEL", "INFO")
    command = [sys.executable, "-m", "scrapy", "crawl", "site",
               "-s", f"LOG_LEVEL={level}", "-s", "AUTOTHROTTLE_ENABLED=False", *options]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def stored(database_url: str) -> dict[str, Page]:
    """Every stored page by URL, with its article and records loaded."""
    with session_factory(database_url)() as session:
        pages = session.scalars(select(Page)).all()
        for page in pages:
            _ = page.article and page.article.comments, page.records
        return {page.url: page for page in pages}


def latest_run_stats(database_url: str) -> dict[str, object]:
    with session_factory(database_url)() as session:
        run = session.scalars(select(CrawlRun).order_by(CrawlRun.id.desc())).first()
        assert run is not None and run.finished_at is not None
        return run.stats
