"""The run-level crawl health the scheduler evaluates at each check: sources whose runs
store nothing new, sources whose latest run mostly failed (from `crawl_run`), and workers
whose heartbeat stopped (from the workers' hash in Redis, `keys.workers`). Facts are read
here; the rules are pipelines/health.py's, the reporting reading/health_alerts.py's.

Settings (crawler/settings.py, the environment first): HEALTH_EMPTY_RUNS,
HEALTH_ERROR_RATE, HEALTH_ERROR_MIN_PAGES, HEALTH_WORKER_SILENT_SECONDS,
HEALTH_WORKER_FORGET_SECONDS.
"""

from __future__ import annotations

import time

from redis import Redis
from sqlalchemy import select, true
from sqlalchemy.orm import Session

from crawler import settings
from crawler.cluster import keys
from models.crawl import CrawlRun, Source
from pipelines.health import HealthEvent, RunFacts, empty_runs, error_rate, stopped_workers


def latest_runs(session: Session, per_source: int) -> dict[str, list[RunFacts]]:
    """Each enabled source's last `per_source` finished runs, newest first: a short walk
    down the (source_id, id) index per source, however many runs the store keeps. On
    PostgreSQL in one round trip (LATERAL); SQLite, in-process, has none to save."""
    finished = (select(CrawlRun.id, CrawlRun.stats).where(CrawlRun.status == "finished")
                .order_by(CrawlRun.id.desc()).limit(per_source))
    enabled = Source.enabled.is_(True)
    if session.get_bind().dialect.name == "postgresql":
        latest = finished.where(CrawlRun.source_id == Source.id).lateral()
        rows = session.execute(select(Source.name, latest.c.id, latest.c.stats)
                               .join(latest, true()).where(enabled)).all()
    else:
        rows = [(name, *run) for source_id, name in session.execute(
                    select(Source.id, Source.name).where(enabled))
                for run in session.execute(finished.where(CrawlRun.source_id == source_id))]
    runs: dict[str, list[RunFacts]] = {}
    for name, run_id, stats in sorted(rows, key=lambda row: (row[0], -row[1])):
        runs.setdefault(name, []).append(RunFacts(run_id, stats or {}))
    return runs


def worker_beats(server: Redis, spider: str, now: float) -> dict[str, float]:
    """Each worker's last heartbeat; workers silent for HEALTH_WORKER_FORGET_SECONDS are
    dropped from the hash (and so their condition clears)."""
    beats = {(name.decode() if isinstance(name, bytes) else name): float(beat)
             for name, beat in server.hgetall(keys.workers(spider)).items()}
    forgotten = [name for name, beat in beats.items()
                 if now - beat >= settings.HEALTH_WORKER_FORGET_SECONDS]
    if forgotten:
        server.hdel(keys.workers(spider), *forgotten)
    return {name: beat for name, beat in beats.items() if name not in forgotten}


def run_health(session: Session, server: Redis, spider: str) -> list[HealthEvent]:
    """The run-level conditions that hold now."""
    runs = latest_runs(session, max(1, settings.HEALTH_EMPTY_RUNS))
    now = time.time()
    return [*empty_runs(runs, settings.HEALTH_EMPTY_RUNS),
            *error_rate(runs, settings.HEALTH_ERROR_RATE, settings.HEALTH_ERROR_MIN_PAGES),
            *stopped_workers(worker_beats(server, spider, now), now,
                             settings.HEALTH_WORKER_SILENT_SECONDS)]
