"""Writing crawl results: batched, idempotent upserts keyed by normalised URL.

Input is plain JSON-able dicts (the shape `models.stored.stored_page` builds), so
the same call serves the live crawl and the replay of spilled journals. Writing a
batch twice leaves the database as writing it once: a retried batch never duplicates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.crawl import CrawlRun
from models.page import Article, Comment, ListRecord, Page

_PAGES, _ARTICLES = Page.__table__, Article.__table__
_COMMENTS, _RECORDS = Comment.__table__, ListRecord.__table__
_PAGE_COLUMNS = ("final_url", "status", "fetched_at", "content_hash", "encoding", "page_type",
                 "type_confidence", "type_decided_by", "type_candidates", "next_page_url",
                 "source_id", "crawl_run_id")


@dataclass
class SaveCounts:
    """How a batch changed the store: per URL 'new', 'updated' or 'unchanged'."""

    by_url: dict[str, str] = field(default_factory=dict)

    def _count(self, status: str) -> int:
        return sum(1 for value in self.by_url.values() if value == status)

    @property
    def new(self) -> int:
        return self._count("new")

    @property
    def updated(self) -> int:
        return self._count("updated")

    @property
    def unchanged(self) -> int:
        return self._count("unchanged")


def to_datetime(value: str | datetime | None) -> datetime | None:
    """Read an ISO 8601 string (as spilled to JSON) back into a datetime."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


def _insert(session: Session):  # type: ignore[no-untyped-def]
    return (postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert)


def _upsert_pages(session: Session, pages: Sequence[dict[str, Any]]) -> dict[str, int]:
    rows = [{"url": page["url"], "first_seen_at": to_datetime(page["fetched_at"]),
             **{column: page.get(column) for column in _PAGE_COLUMNS}} for page in pages]
    for row in rows:
        row["fetched_at"] = to_datetime(row["fetched_at"])
        row["type_candidates"] = row["type_candidates"] or []
    # One statement for any batch size, compiled once (a VALUES list of N rows was a new
    # statement, compiled again, for every N); sent as multi-row batches by SQLAlchemy.
    statement = _insert(session)(_PAGES)
    statement = statement.on_conflict_do_update(
        index_elements=[_PAGES.c.url],
        set_={column: statement.excluded[column] for column in _PAGE_COLUMNS},
    ).returning(_PAGES.c.id, _PAGES.c.url)
    return {url: page_id for page_id, url in session.execute(statement, rows)}


def _replace_children(session: Session, ids: dict[str, int],
                      pages: Sequence[dict[str, Any]]) -> None:
    """Extraction results are replaced whole: a changed page's old article (its comments
    go by cascade) and records go. A few set-based statements per batch, not a flush of
    ORM objects per page: most of the worker's database CPU went to the unit of work.
    Inserts go to the tables (Core), not the ORM classes: ORM bulk inserts still walk
    each row's mapped attributes."""
    page_ids = [ids[page["url"]] for page in pages]
    session.execute(delete(Article).where(Article.page_id.in_(page_ids)))
    session.execute(delete(ListRecord).where(ListRecord.page_id.in_(page_ids)))
    articles = {ids[page["url"]]: page["article"] for page in pages if page.get("article")}
    if articles:
        rows = [_article_row(page_id, article) for page_id, article in articles.items()]
        article_ids = dict(session.execute(
            insert(_ARTICLES).returning(_ARTICLES.c.page_id, _ARTICLES.c.id), rows).all())
        comments = [_comment_row(article_ids[page_id], position, comment)
                    for page_id, article in articles.items()
                    for position, comment in enumerate(article.get("comments") or [])]
        if comments:
            session.execute(insert(_COMMENTS), comments)
    records = [_record_row(ids[page["url"]], position, record) for page in pages
               for position, record in enumerate(page.get("records") or [])]
    if records:
        session.execute(insert(_RECORDS), records)


def _article_row(page_id: int, article: dict[str, Any]) -> dict[str, Any]:
    return {"page_id": page_id, "title": article.get("title"), "author": article.get("author"),
            "source": article.get("source"),
            "published_at": to_datetime(article.get("published_at")),
            "published_raw": article.get("published_raw"), "language": article.get("language"),
            "body_text": article.get("body_text", ""), "body_html": article.get("body_html", "")}


def _comment_row(article_id: int, position: int, comment: dict[str, Any]) -> dict[str, Any]:
    return {"article_id": article_id, "position": position, "author": comment.get("author"),
            "text": comment["text"], "published_at": to_datetime(comment.get("published_at"))}


def _record_row(page_id: int, position: int, record: dict[str, Any]) -> dict[str, Any]:
    return {"page_id": page_id, "position": position, "title": record.get("title"),
            "url": record.get("url"), "date": to_datetime(record.get("date")),
            "date_raw": record.get("date_raw"), "snippet": record.get("snippet"),
            "extra": record.get("extra") or {}}


def _touch_unchanged(session: Session, ids: dict[str, int],
                     pages: Sequence[dict[str, Any]]) -> None:
    """Only the fetch facts of pages whose content did not change (one bulk UPDATE)."""
    if pages:
        session.execute(update(Page), [
            {"id": ids[page["url"]], "fetched_at": to_datetime(page["fetched_at"]),
             "status": page["status"], "crawl_run_id": page.get("crawl_run_id")}
            for page in pages])


def save_pages(session: Session, pages: Iterable[dict[str, Any]]) -> SaveCounts:
    """Upsert a batch of pages in the caller's transaction; unchanged content is only touched."""
    latest = {page["url"]: page for page in pages}  # one row per URL, the last fetch wins
    if not latest:
        return SaveCounts()
    ids: dict[str, int] = {}
    hashes: dict[str, str] = {}
    for url, page_id, content_hash in session.execute(
            select(Page.url, Page.id, Page.content_hash).where(Page.url.in_(list(latest)))):
        ids[url], hashes[url] = page_id, content_hash
    counts = SaveCounts({url: "new" if url not in hashes else
                         "unchanged" if hashes[url] == page["content_hash"] else "updated"
                         for url, page in latest.items()})
    _touch_unchanged(session, ids, [latest[url] for url, status in counts.by_url.items()
                                    if status == "unchanged"])
    changed = [latest[url] for url, status in counts.by_url.items() if status != "unchanged"]
    if changed:
        _replace_children(session, _upsert_pages(session, changed), changed)
    return counts


def stored_page_types(session: Session, urls: Iterable[str]) -> dict[str, str | None]:
    """Stored URLs among these, with their page type: a revisit skips known detail pages."""
    wanted = list(set(urls))
    found: dict[str, str | None] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        rows = session.execute(select(Page.url, Page.page_type).where(Page.url.in_(chunk)))
        found.update((url, page_type) for url, page_type in rows)
    return found


def now_utc() -> datetime:
    return datetime.now(UTC)


def start_run(session: Session, spider: str, source_id: int | None) -> int:
    """Record a crawl run's start; its id tags every page the run stores."""
    run = CrawlRun(spider=spider, source_id=source_id, started_at=now_utc(), status="running")
    session.add(run)
    session.flush()
    return run.id


def finish_run(session: Session, run_id: int, status: str, stats: dict[str, Any]) -> bool:
    """Record a run's end, once: False if it had ended already (a run that lost its frontier
    is not later marked finished by a worker that drains what was left of it)."""
    ended = session.execute(update(CrawlRun).where(CrawlRun.id == run_id,
                                                   CrawlRun.finished_at.is_(None))
                            .values(finished_at=now_utc(), status=status, stats=stats)
                            .execution_options(synchronize_session=False))
    return ended.rowcount == 1
