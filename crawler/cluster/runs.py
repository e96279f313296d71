"""Starting a crawl run: a CrawlRun row, and in distributed mode its start URLs in Redis."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from redis import Redis
from sqlalchemy.orm import Session, sessionmaker

from crawler.cluster import keys
from crawler.cluster.ledger import RUN_KEY_TTL_SECONDS
from models.store import start_run


def create_run(sessions: sessionmaker[Session], spider: str, source_id: int | None) -> int:
    with sessions.begin() as session:
        return start_run(session, spider, source_id)


def push_start_urls(server: Redis, spider: str, run_id: int, source_id: int | None,
                    urls: Iterable[str],
                    revisits: Iterable[tuple[str, dict[str, Any]]] = ()) -> int:
    """Queue a run's start URLs, and its due revisits with their meta, where every worker's
    spider reads them (scrapy-redis), and mark the run live."""
    run = {"run_id": run_id, "source_id": source_id, "depth": 0}
    entries = [json.dumps({"url": url, "meta": {**run, **extra}})
               for url, extra in [*((url, {}) for url in urls), *revisits]]
    if entries:
        with server.pipeline() as pipe:
            pipe.set(keys.live(spider, run_id), "1", ex=RUN_KEY_TTL_SECONDS)
            pipe.rpush(keys.start_urls(spider), *entries)
            pipe.execute()
    return len(entries)
