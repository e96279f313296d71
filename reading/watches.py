"""Watches: standing queries matched against what the store indexes, raising alerts.

Matching reads the search index by id: each watch remembers the last index row it has
matched (`matched_through`). A page the store writes anew gets new index rows (the store
rebuilds them), an unchanged revisit gets none, so a watch sees what was stored or changed
after it was added, and each thing once. Rows committed late by a concurrent writer may
carry an id below that mark, so every pass looks back MATCH_LOOKBACK rows; the unique
(watch, story) constraint keeps that from raising anything twice. Matching runs after each
committed persist batch of a crawl (crawler/watching.py), and by `python -m crawler
alerts deliver`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, aliased

from models.page import Article, Page
from models.search import SearchDocument
from models.story import ArticleStory
from models.watch import Alert, Delivery, Watch
from reading.delivery import understood
from reading.query import parse, positive_terms
from reading.search import Filters, filtered, matching, texts_of
from reading.snippets import snippet

MATCH_LOOKBACK = 5000  # index rows re-read behind a watch's mark (see the module docstring)
_FILTER_FIELDS = ("sources", "sites", "page_types", "kinds", "languages")


class WatchError(ValueError):
    """A watch that cannot be saved; the message says why."""


@dataclass
class WatchSpec:
    name: str
    query: str
    filters: dict[str, list[str]] = field(default_factory=dict)
    targets: list[str] = field(default_factory=list)


def _check_targets(targets: Sequence[str]) -> None:
    for target in targets:
        if not understood(target):
            raise WatchError(f"{target!r} is not a delivery target apprise understands "
                             "(a webhook URL, dingtalk://, wecombot://, feishu://, slack://, "
                             "json://, mailto://, …)")


def add_watch(session: Session, spec: WatchSpec) -> Watch:
    """Save a watch; it matches what is stored or changed from now on."""
    parse(spec.query)  # a bad query is refused now, not at every batch
    unknown = set(spec.filters) - set(_FILTER_FIELDS)
    if unknown:
        raise WatchError(f"unknown filters {sorted(unknown)}; known: {list(_FILTER_FIELDS)}")
    _check_targets(spec.targets)
    if session.scalar(select(Watch.id).where(Watch.name == spec.name)) is not None:
        raise WatchError(f"a watch named {spec.name!r} exists; remove it first")
    mark = session.scalar(select(func.max(SearchDocument.id))) or 0
    watch = Watch(name=spec.name, query=spec.query, targets=list(spec.targets),
                  filters={key: list(values) for key, values in spec.filters.items() if values},
                  matched_through=mark, started_after=mark)
    session.add(watch)
    session.flush()
    return watch


def story_key(kind: str, ref_id: int, url: str) -> str:
    """What makes two hits the same news for a watch: an article is its story, named by the
    URL of the story's first copy (all copies of a reprint are one, and the name outlives
    the rows); a list record is the URL it links (a record of an article already alerted is
    not news); a comment is itself."""
    return f"comment:{ref_id}" if kind == "comment" else f"url:{url}"[:100]


def _first_copies(session: Session, article_ids: list[int]) -> dict[int, str]:
    """article id → URL of its story's first copy, for articles grouped into a story."""
    first = aliased(Article)
    return dict(session.execute(
        select(ArticleStory.article_id, Page.url)
        .join(first, first.id == ArticleStory.story_id).join(Page, Page.id == first.page_id)
        .where(ArticleStory.article_id.in_(article_ids))).all())


def _insert_ignoring_duplicates(session: Session, table: Any, rows: list[dict[str, Any]],
                                unique: list[str]) -> None:
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    session.execute(dialect.insert(table).on_conflict_do_nothing(index_elements=unique), rows)


def match_watch(session: Session, watch: Watch, through: int) -> int:
    """Match one watch against index rows up to id `through`; returns new alerts."""
    node = parse(watch.query)
    filters = Filters(**{key: tuple(watch.filters.get(key) or ()) for key in _FILTER_FIELDS})
    statement = filtered(matching(session, node), filters).where(
        SearchDocument.id > max(watch.started_after, watch.matched_through - MATCH_LOOKBACK),
        SearchDocument.id <= through)
    found = [row.id for row in session.execute(statement)]
    watch.matched_through = max(watch.matched_through, through)
    if not found:
        return 0
    documents = session.scalars(select(SearchDocument).where(SearchDocument.id.in_(found))).all()
    terms = positive_terms(node)
    stories = _first_copies(session, [doc.ref_id for doc in documents if doc.kind == "article"])
    rows = []
    for kind in {doc.kind for doc in documents}:
        texts = texts_of(session, kind, [doc.ref_id for doc in documents if doc.kind == kind])
        for doc in (doc for doc in documents if doc.kind == kind and doc.ref_id in texts):
            title, text, url, _, _ = texts[doc.ref_id]
            named = stories.get(doc.ref_id, url) if kind == "article" else url
            rows.append({"watch_id": watch.id, "story_key": story_key(kind, doc.ref_id, named),
                         "kind": kind, "ref_id": doc.ref_id, "url": url, "title": title,
                         "snippet": snippet(text or title, terms), "site": doc.site,
                         "published_at": doc.published_at})
    before = session.scalar(select(func.count()).where(Alert.watch_id == watch.id))
    _insert_ignoring_duplicates(session, Alert.__table__, rows, ["watch_id", "story_key"])
    alerts = session.scalars(select(Alert.id).where(
        Alert.watch_id == watch.id,
        Alert.story_key.in_([row["story_key"] for row in rows]))).all()
    if watch.targets and alerts:
        _insert_ignoring_duplicates(session, Delivery.__table__, [
            {"alert_id": alert_id, "target": target, "status": "pending", "attempts": 0,
             "next_attempt_at": datetime.now(UTC)} for alert_id in alerts
            for target in watch.targets], ["alert_id", "target"])
    return (session.scalar(select(func.count()).where(Alert.watch_id == watch.id)) or 0) - \
        (before or 0)


def match_new(session: Session) -> int:
    """Match every enabled watch against the index rows stored since its mark, in the
    caller's transaction; returns how many alerts were raised."""
    watches = session.scalars(select(Watch).where(Watch.enabled.is_(True))
                              .with_for_update(skip_locked=True)).all()
    if not watches:  # the newest id is a look into every partition of the search table
        return 0
    through = session.scalar(select(func.max(SearchDocument.id))) or 0
    return sum(match_watch(session, watch, through) for watch in watches)
