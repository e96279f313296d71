"""Writing crawl results: batched, idempotent upserts keyed by normalised URL.

Input is plain JSON-able dicts (the shape `models.stored.stored_page` builds), so
the same call serves the live crawl and the replay of spilled journals. Writing a
batch twice leaves the database as writing it once: a retried batch never duplicates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from models.articles import save_articles
from models.crawl import CrawlRun
from models.page import ListRecord, Page
from models.revisit import RevisitPolicy, next_visit
from models.search import reindex_pages
from models.stored import to_datetime
from pipelines import ARTICLE_TYPES

_PAGES, _RECORDS = Page.__table__, ListRecord.__table__
_PAGE_COLUMNS = ("final_url", "status", "fetched_at", "content_hash", "encoding", "page_type",
                 "type_confidence", "type_decided_by", "type_candidates", "next_page_url",
                 "source_id", "crawl_run_id", "etag", "last_modified", "body_hash",
                 "thread_url", "thread_page")
_SCHEDULE_COLUMNS = ("next_visit_at", "revisit_seconds", "visits", "last_changed_at")
_VALIDATORS = ("etag", "last_modified", "body_hash")


@dataclass
class SaveCounts:
    """How a batch changed the store: per URL 'new', 'updated', 'unchanged' or
    'not_modified' (a revisit that found the page as stored: only its schedule moved), and
    per URL what its write added (`comments/new`, `comments/gone`, `versions/new`)."""

    by_url: dict[str, str] = field(default_factory=dict)
    events: dict[str, Counter[str]] = field(default_factory=dict)

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


@dataclass(frozen=True)
class _Stored:
    """What the store holds of a page that a new fetch of it needs."""

    id: int
    content_hash: str
    fetched_at: datetime
    first_seen_at: datetime
    revisit_seconds: int | None
    visits: int
    next_page_url: str | None
    thread_page: int | None
    next_visit_at: datetime | None
    last_changed_at: datetime | None

    def schedule(self) -> dict[str, Any]:
        return {column: getattr(self, column) for column in _SCHEDULE_COLUMNS}


def _insert(session: Session):  # type: ignore[no-untyped-def]
    return (postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert)


def _schedule(page: dict[str, Any], stored: _Stored | None, changed: bool) -> dict[str, Any]:
    """The page's revisit schedule after this fetch (models/revisit.py). A page the crawler
    does not revisit (no policy: a list), and a thread page with a page after it, has
    none. A fetch no newer than the stored one (a journal written twice) changes nothing."""
    fetched_at = to_datetime(page["fetched_at"])
    if stored is not None and fetched_at <= stored.fetched_at:
        return {}
    schedule: dict[str, Any] = {"visits": stored.visits + 1 if stored else 1}
    if changed:
        schedule["last_changed_at"] = fetched_at
    next_page = page.get("next_page_url", stored.next_page_url if stored else None)
    thread_page = page.get("thread_page") or (stored.thread_page if stored else None)
    if page.get("revisit") is None or (thread_page and next_page):
        return {**schedule, "next_visit_at": None, "revisit_seconds": None}
    visit = next_visit(RevisitPolicy.from_json(page["revisit"]),
                       stored.first_seen_at if stored else fetched_at, fetched_at,
                       stored.revisit_seconds if stored else None, changed)
    return {**schedule, "next_visit_at": visit.next_at, "revisit_seconds": visit.interval_seconds}


def _upsert_pages(session: Session, pages: Sequence[dict[str, Any]],
                  stored: dict[str, _Stored]) -> dict[str, int]:
    rows = []
    for page in pages:
        row = {"url": page["url"], "first_seen_at": to_datetime(page["fetched_at"]),
               **{column: page.get(column) for column in _PAGE_COLUMNS}}
        row["fetched_at"] = to_datetime(row["fetched_at"])
        row["type_candidates"] = row["type_candidates"] or []
        before = stored.get(page["url"])
        schedule = _schedule(page, before, changed=True) or (before and before.schedule())
        rows.append({**row, **{column: schedule.get(column) for column in _SCHEDULE_COLUMNS}})
    # One statement for any batch size, compiled once (a VALUES list of N rows was a new
    # statement, compiled again, for every N); sent as multi-row batches by SQLAlchemy.
    statement = _insert(session)(_PAGES)
    statement = statement.on_conflict_do_update(
        index_elements=[_PAGES.c.url],
        set_={column: statement.excluded[column]
              for column in (*_PAGE_COLUMNS, *_SCHEDULE_COLUMNS)},
    ).returning(_PAGES.c.id, _PAGES.c.url)
    return {url: page_id for page_id, url in session.execute(statement, rows)}


def _replace_records(session: Session, ids: dict[str, int],
                     pages: Sequence[dict[str, Any]]) -> None:
    """A changed page's list records are replaced whole (set-based, Core inserts: ORM
    bulk inserts walk each row's mapped attributes)."""
    page_ids = [ids[page["url"]] for page in pages]
    session.execute(delete(ListRecord).where(ListRecord.page_id.in_(page_ids)))
    records = [_record_row(ids[page["url"]], position, record) for page in pages
               for position, record in enumerate(page.get("records") or [])]
    if records:
        session.execute(insert(_RECORDS), records)


def _record_row(page_id: int, position: int, record: dict[str, Any]) -> dict[str, Any]:
    return {"page_id": page_id, "position": position, "title": record.get("title"),
            "url": record.get("url"), "date": to_datetime(record.get("date")),
            "date_raw": record.get("date_raw"), "snippet": record.get("snippet"),
            "extra": record.get("extra") or {}}


def _touch(session: Session, stored: dict[str, _Stored],
           pages: Sequence[dict[str, Any]]) -> None:
    """Pages whose content did not change (or a revisit found not modified): only their
    fetch facts, validators and schedule (one bulk UPDATE)."""
    rows = []
    for page in pages:
        facts = {"fetched_at": to_datetime(page["fetched_at"]),
                 "crawl_run_id": page.get("crawl_run_id")}
        if not page.get("not_modified"):
            facts["status"] = page["status"]
        facts.update({name: page[name] for name in _VALIDATORS if page.get(name)})
        schedule = _schedule(page, stored[page["url"]], changed=False)
        if schedule:
            rows.append({"id": stored[page["url"]].id, **facts, **schedule})
    if rows:
        session.execute(update(Page), rows)


def _stored(session: Session, urls: list[str]) -> dict[str, _Stored]:
    columns = (Page.url, Page.id, Page.content_hash, Page.fetched_at, Page.first_seen_at,
               Page.revisit_seconds, Page.visits, Page.next_page_url, Page.thread_page,
               Page.next_visit_at, Page.last_changed_at)
    return {row.url: _Stored(*row[1:]) for row in session.execute(
        select(*columns).where(Page.url.in_(urls)))}


def _status(page: dict[str, Any], stored: _Stored | None) -> str:
    if stored is None:
        return "new"
    if page.get("not_modified"):
        return "not_modified"
    return "unchanged" if stored.content_hash == page["content_hash"] else "updated"


def save_pages(session: Session, pages: Iterable[dict[str, Any]],
               index: bool = True) -> SaveCounts:
    """Upsert a batch of pages in the caller's transaction; unchanged content is only touched,
    and so is a revisit that found the page not modified. A not-modified record of a page
    the store no longer holds is dropped (it has nothing to write): counted unchanged.
    Without `index` the changed pages' search rows are left as they were (a bulk load
    indexed after by `python -m crawler reindex`)."""
    latest = {page["url"]: page for page in pages}  # one row per URL, the last fetch wins
    if not latest:
        return SaveCounts()
    stored = _stored(session, list(latest))
    counts = SaveCounts({url: _status(page, stored.get(url)) for url, page in latest.items()})
    counts.by_url.update({url: "unchanged" for url, page in latest.items()
                          if page.get("not_modified") and url not in stored})
    _touch(session, stored, [latest[url] for url, status in counts.by_url.items()
                             if status in ("unchanged", "not_modified") and url in stored])
    changed = [latest[url] for url, status in counts.by_url.items()
               if status in ("new", "updated")]
    if changed:
        ids = _upsert_pages(session, changed, stored)
        _replace_records(session, ids, changed)
        counts.events.update(save_articles(session, ids, changed))
        if index:
            reindex_pages(session, ids.values())
    return counts


def published_moments(pages: Iterable[dict[str, Any]]) -> list[datetime]:
    """Every publication time the pages (journal records) give their articles, comments and
    list records: the times their search rows are filed under (models/search/index.py; a
    row without one is filed under when its page was first seen, about now)."""
    found = []
    for page in pages:
        article = page.get("article") or {}
        found += [article.get("published_at"),
                  *(comment.get("published_at") for comment in article.get("comments") or ()),
                  *(record.get("date") for record in page.get("records") or ())]
    return [moment for moment in map(to_datetime, found) if moment is not None]


def stored_details(session: Session, urls: Iterable[str]) -> dict[str, datetime | None]:
    """Stored articles (news, blog, forum) among these URLs, with when each is due for a
    revisit (None: never): the frontier skips those not due."""
    wanted = list(set(urls))
    found: dict[str, datetime | None] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        rows = session.execute(select(Page.url, Page.next_visit_at).where(
            Page.url.in_(chunk), Page.page_type.in_(ARTICLE_TYPES)))
        found.update((url, due) for url, due in rows)
    return found


@dataclass(frozen=True)
class DuePage:
    """A stored page due for a revisit, with what its request sends and compares."""

    url: str
    etag: str | None
    last_modified: str | None
    body_hash: str | None
    thread_url: str | None
    thread_page: int | None


def due_pages(session: Session, source_id: int, now: datetime, limit: int) -> list[DuePage]:
    """The source's pages due for a revisit at `now`, most overdue first, at most `limit`."""
    rows = session.execute(
        select(Page.url, Page.etag, Page.last_modified, Page.body_hash, Page.thread_url,
               Page.thread_page)
        .where(Page.source_id == source_id, Page.next_visit_at <= now)
        .order_by(Page.next_visit_at).limit(limit))
    return [DuePage(*row) for row in rows]


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
