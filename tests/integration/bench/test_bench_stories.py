"""bench.stories --store: the set is grouped on a copy of a filled store as on a fresh one,
both processes' CPU is counted, and the copy is dropped."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from bench.stories import grouped_stories, reprint, stored_grouping
from tests.factories import article_page
from tests.integration.bench import CORPUS
from tests.unit.reading.test_story_signatures import WIRE


@pytest.fixture
def prefix(postgres_admin_url: str) -> Iterator[str]:
    prefix = f"test_filled_{uuid.uuid4().hex[:8]}"
    yield prefix
    with create_engine(postgres_admin_url, isolation_level="AUTOCOMMIT").connect() as admin:
        for name in admin.execute(text("SELECT datname FROM pg_database WHERE datname LIKE :p"),
                                  {"p": f"{prefix}%"}).scalars().all():
            admin.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))


def _copies(admin_url: str) -> set[str]:
    with create_engine(admin_url).connect() as admin:
        return set(admin.execute(text(
            "SELECT datname FROM pg_database WHERE datname LIKE 'bench_stories_%'")).scalars())


def _partition(stories: dict[str, int]) -> set[frozenset[str]]:
    members: dict[int, set[str]] = {}
    for url, story in stories.items():
        members.setdefault(story, set()).add(url)
    return {frozenset(urls) for urls in members.values()}


def test_a_stored_grouping_matches_a_fresh_one(postgres_admin_url: str, prefix: str) -> None:
    rng = random.Random(3)
    bodies = [WIRE, WIRE[::-1]]
    pages = [article_page(f"http://site{copy}.example/{number}.html",
                          body=reprint(body, rng) if copy else body, comments=())
             for number, body in enumerate(bodies) for copy in range(3)]
    before = _copies(postgres_admin_url)
    stored = stored_grouping(pages, 20, postgres_admin_url, prefix, CORPUS)
    fresh = grouped_stories(pages)
    assert _copies(postgres_admin_url) == before
    assert stored.grouped == fresh.grouped == len(pages)
    assert _partition(stored.stories) == _partition(fresh.stories)
    assert len(_partition(fresh.stories)) == 2
    assert stored.database is not None and stored.database >= 0 and fresh.database is None
