"""Revisits in a cluster: the scheduler queues a source's due articles with its start
pages, workers fetch them conditionally, and the run's ledger counts what they found."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from redis import Redis
from sqlalchemy import func, select

from crawler.cluster.schedule import schedule_due
from models import Comment, Source
from models.db import session_factory
from tests.integration.crawler.test_cluster import runs, wait_all, worker
from tests.integration.crawler.test_revisits import (
    ALWAYS_DUE,
    RULES,
    _publish_first_edition,
    _publish_second_edition,
)
from tests.revisit_site import RevisitSite
from tests.services import redis_database


@pytest.fixture
def revisit_redis() -> Iterator[str]:
    with redis_database(8) as url:
        yield url


def test_a_scheduled_run_revisits_due_articles_and_its_ledger_counts_them(
        pg_url: str, revisit_redis: str, tmp_path: Path) -> None:
    sessions = session_factory(pg_url)
    redis = Redis.from_url(revisit_redis)
    with RevisitSite() as site:
        with sessions.begin() as session:
            session.add(Source(name="revisits", start_urls=[site.url + "/"], allowed_domains=[],
                               max_depth=2, interval_seconds=600, page_type_rules=RULES,
                               settings=ALWAYS_DUE))
        _publish_first_edition(site)
        assert len(schedule_due(sessions, redis)) == 1
        wait_all(worker(pg_url, revisit_redis, tmp_path, tmp_path / "1.log"))
        _publish_second_edition(site)
        later = datetime.now(UTC) + timedelta(seconds=601)
        assert len(schedule_due(sessions, redis, now=later)) == 1
        wait_all(worker(pg_url, revisit_redis, tmp_path, tmp_path / "2.log"))
    first, second = runs(pg_url)
    assert "revisits/fetched" not in first.stats
    assert second.finished_at is not None  # the revisits drained with the run
    assert (second.stats["revisits/fetched"], second.stats["comments/new"],
            second.stats["comments/gone"], second.stats["versions/new"]) == (4, 5, 2, 1)
    assert site.conditional["/news/1.html"] == 1  # its ETag travelled through Redis
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(Comment)) == 4 + 4 + 6
