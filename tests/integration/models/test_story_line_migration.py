"""Migration 0010: the sentence counts of a store grouped before keys began with the site are
taken again from its grouped articles, with the keys the crawl now writes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from models.schema import alembic_config
from models.search.terms import normalise
from models.store import save_pages
from reading.story_text import story_texts
from tests.factories import article_page

NOTICE = "本站声明：转载请注明出处。"
BODIES = {f"http://news.example.cn/{n}.html": f"第{n}篇报道的正文讲了{'一件事' * n}。{NOTICE}"
          for n in range(1, 5)}
BODIES["http://bbs.example.cn/t/1"] = f"论坛的帖子正文。{NOTICE}"


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_the_counts_are_taken_again_from_the_grouped_articles(
        backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    url = (request.getfixturevalue("empty_pg_url") if backend == "postgresql"
           else f"sqlite:///{tmp_path / 'store.sqlite3'}")
    config = alembic_config(url)
    command.upgrade(config, "0009")
    engine = create_engine(url)
    with Session(engine) as session, session.begin():
        save_pages(session, [article_page(page_url, body=body, comments=())
                             for page_url, body in BODIES.items()])
        # grouped as a pass of that schema left them (today's pass writes later columns)
        session.execute(text("INSERT INTO article_story (article_id, story_id, shingles) "
                             "SELECT id, id, 0 FROM article"))
        save_pages(session, [article_page("http://news.example.cn/late.html",
                                          body=f"还没有分组的文章。{NOTICE}", comments=())])
        # counts under keys of the earlier scheme: digests the new code never writes
        session.execute(text("DELETE FROM story_line"))
        session.execute(text("INSERT INTO story_line (key, pages) VALUES (12345, 9), (-7, 3)"))
    engine.dispose()

    command.upgrade(config, "head")

    texts = story_texts([normalise(body) for body in BODIES.values()], list(BODIES))
    expected = Counter(key for _, story_text in texts for key in set(story_text.keys))
    engine = create_engine(url)
    with engine.connect() as connection:
        counted = dict(connection.execute(text("SELECT key, pages FROM story_line")).all())
    engine.dispose()
    assert counted == expected  # the grouped articles only: the late one is the next pass's
    notice_key = texts[0][1].keys[-1]
    assert counted[notice_key] == 4  # the news site's four pages; the forum's is its own key
