"""Migration 0011: a store's band rows get their articles' publication days."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from models.schema import alembic_config
from models.store import save_pages
from reading.stories import published_day
from tests.factories import article_page


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_the_band_rows_are_dated_by_their_articles(backend: str, request: pytest.FixtureRequest,
                                                    tmp_path: Path) -> None:
    url = (request.getfixturevalue("empty_pg_url") if backend == "postgresql"
           else f"sqlite:///{tmp_path / 'store.sqlite3'}")
    config = alembic_config(url)
    command.upgrade(config, "0010")
    pages = [article_page(f"http://news.example.cn/{n}.html", body=f"第{n}篇报道。", comments=())
             for n in range(3)]
    pages[0]["article"]["published_at"] = "2026-11-29T23:59:59+00:00"
    pages[1]["article"]["published_at"] = "1999-01-01T00:00:01+08:00"  # 1998-12-31 in UTC
    pages[2]["article"]["published_at"] = None
    engine = create_engine(url)
    with Session(engine) as session, session.begin():
        save_pages(session, pages)
        session.execute(text("INSERT INTO story_band (article_id, band, bucket) "
                             "SELECT id, band, id * 100 + band FROM article, "
                             "(SELECT 0 AS band UNION ALL SELECT 1) AS bands"))
    engine.dispose()

    command.upgrade(config, "head")

    engine = create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT p.url, b.published_day FROM story_band b JOIN article a ON a.id = "
            "b.article_id JOIN page p ON p.id = a.page_id ORDER BY p.url, b.band")).all()
    engine.dispose()
    expected = [published_day(datetime(2026, 11, 29, 23, 59, 59, tzinfo=UTC))] * 2 + [
        published_day(datetime(1998, 12, 31, 16, 0, 1, tzinfo=UTC))] * 2 + [None, None]
    assert [day for _, day in rows] == expected
