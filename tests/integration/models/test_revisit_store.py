"""The revisit schedule as the store writes it, on the fetch's own clock, and the
idempotence of writing a revisit's records twice (a journal replayed)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from models import Article, ArticleVersion, Comment, Page, Source
from models.db import session_factory
from models.revisit import RevisitPolicy
from models.store import due_pages, save_pages
from tests.factories import article_page

URL = "https://a.cn/thread/1.html"
START = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)
POLICY = RevisitPolicy(min_seconds=60, max_seconds=300, backoff=2.0, max_age_seconds=3600)


def _visit(at: datetime, comments: tuple[str, ...] = ("好文章！",), body: str = "正文。",
           not_modified: bool = False, source_id: int | None = None,
           url: str = URL) -> dict[str, Any]:
    """A fetch of the page at `at` (a revisit found it not modified, if so)."""
    page = article_page(url, body=body, comments=comments)
    page.update(fetched_at=at.isoformat(), revisit=POLICY.json(), source_id=source_id)
    if not_modified:
        page = {key: page[key] for key in ("url", "final_url", "status", "fetched_at",
                                           "revisit", "source_id")}
        page.update(status=304, not_modified=True)
    return page


def _schedule(url: str) -> tuple[int | None, datetime | None, int]:
    with session_factory(url)() as session:
        page = session.scalars(select(Page)).one()
        return page.revisit_seconds, page.next_visit_at, page.visits


def _save(url: str, *pages: dict[str, Any]) -> dict[str, str]:
    with session_factory(url).begin() as session:
        return save_pages(session, pages).by_url


def test_the_interval_grows_while_nothing_changes_and_resets_on_a_new_comment(
        pg_url: str) -> None:
    at = START
    _save(pg_url, _visit(at))
    assert _schedule(pg_url) == (60, at + timedelta(seconds=60), 1)
    seen = []
    for _ in range(3):  # unchanged twice, then a 304: 120, 240, then capped at 300
        at += timedelta(seconds=seen[-1] if seen else 60)
        _save(pg_url, _visit(at, not_modified=len(seen) == 2))
        seen.append(_schedule(pg_url)[0])
    assert seen == [120, 240, 300]
    at += timedelta(seconds=300)
    assert _save(pg_url, _visit(at, comments=("好文章！", "新评论"))) == {URL: "updated"}
    assert _schedule(pg_url) == (60, at + timedelta(seconds=60), 5)  # reset: it is alive
    at = START + timedelta(seconds=3590)
    _save(pg_url, _visit(at, comments=("好文章！", "新评论", "又一条")))
    assert _schedule(pg_url)[1] is None  # past its maximum age: never again


def test_a_replayed_revisit_changes_nothing_the_first_write_did_not(pg_url: str) -> None:
    _save(pg_url, _visit(START))
    revisit = _visit(START + timedelta(seconds=60), comments=("新评论",), body="改写。")
    _save(pg_url, revisit)
    schedule = _schedule(pg_url)
    for _ in range(2):
        assert _save(pg_url, revisit) == {URL: "unchanged"}
    assert _schedule(pg_url) == schedule
    with session_factory(pg_url)() as session:
        assert session.scalar(select(func.count()).select_from(Comment)) == 2  # 1 gone, 1 new
        assert session.scalar(select(func.count()).select_from(ArticleVersion)) == 1
        assert session.scalars(select(Article.body_text)).one() == "改写。"


def test_due_pages_are_the_source_s_own_most_overdue_first_and_bounded(pg_url: str) -> None:
    with session_factory(pg_url).begin() as session:
        sources = [Source(name=name, start_urls=[], allowed_domains=[]) for name in "ab"]
        session.add_all(sources)
        session.flush()
        a, b = (source.id for source in sources)
        save_pages(session, [_visit(START, source_id=a, url="https://a.cn/1"),
                             _visit(START + timedelta(seconds=30), source_id=a,
                                    url="https://a.cn/2"),
                             _visit(START, source_id=b, url="https://b.cn/1")])
    with session_factory(pg_url)() as session:
        def due(seconds: int, limit: int = 10) -> list[str]:
            return [p.url for p in due_pages(session, a, START + timedelta(seconds=seconds),
                                             limit)]
        assert due(59) == []
        assert due(60) == ["https://a.cn/1"]
        assert due(100) == ["https://a.cn/1", "https://a.cn/2"]
        assert due(100, limit=1) == ["https://a.cn/1"]
