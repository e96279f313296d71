"""Keeping the search index current: a page's index rows are rebuilt from what is stored.

`save_pages` calls `reindex_pages` in its own transaction for every page whose content it
wrote, so a search never sees a page without its index rows or the other way round, on a
live crawl and on a journal replay alike. Rebuilding from the stored rows (rather than
from the batch) keeps the index right whatever the store did with the page's children.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import bindparam, delete, func, insert, literal, select
from sqlalchemy.dialects.postgresql import REGCONFIG
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from models.page import Article, Comment, ListRecord, Page
from models.search.document import SearchDocument
from models.search.terms import index_text

_CHUNK = 500  # ids per IN (…) list: SQLite's bound-parameter limit is the tightest
_COLUMNS = ("kind", "ref_id", "page_id", "source_id", "site", "page_type", "language",
            "published_at", "title_terms", "text_terms")


def vector_of(title_terms: Any, text_terms: Any) -> ColumnElement[Any]:
    """PostgreSQL's tsvector of a row's terms, title above text: how `vector` is filled and
    how a query's ranking reads it."""
    simple = literal("simple", REGCONFIG)
    return (func.setweight(func.to_tsvector(simple, title_terms), "A")
            .op("||")(func.to_tsvector(simple, text_terms)))


def _chunks(ids: Sequence[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield list(ids[start:start + _CHUNK])


def _site(url: str) -> str:
    return (urlsplit(url).hostname or "")[:255]


_PAGE = (Page.id.label("page_id"), Page.url, Page.source_id, Page.page_type,
         Page.first_seen_at)


def _row(kind: str, ref: Any, language: str | None, published_at: datetime | None,
         title: str | None, text: str | None) -> dict[str, Any]:
    """An index row; `ref` carries the page's facts (`_PAGE`) and the thing's id."""
    return {"kind": kind, "ref_id": ref.id, "page_id": ref.page_id, "source_id": ref.source_id,
            "site": _site(ref.url), "page_type": ref.page_type, "language": language,
            "published_at": published_at or ref.first_seen_at,
            "title_terms": index_text(title), "text_terms": index_text(text)}


def _rows(session: Session, page_ids: list[int]) -> Iterator[dict[str, Any]]:
    in_pages = Page.id.in_(page_ids)
    for ref in session.execute(
            select(Article.id, Article.title, Article.body_text, Article.language,
                   Article.published_at, *_PAGE).join(Page).where(in_pages)):
        yield _row("article", ref, ref.language, ref.published_at, ref.title, ref.body_text)
    for ref in session.execute(
            select(Comment.id, Comment.text, Comment.published_at, Article.language,
                   Article.published_at.label("article_published_at"), *_PAGE)
            .join(Article, Article.id == Comment.article_id).join(Page)
            .where(in_pages, Comment.gone_at.is_(None))):
        yield _row("comment", ref, ref.language, ref.published_at or ref.article_published_at,
                   None, ref.text)
    for ref in session.execute(
            select(ListRecord.id, ListRecord.title, ListRecord.snippet, ListRecord.date, *_PAGE)
            .join(Page).where(in_pages)):
        yield _row("record", ref, None, ref.date, ref.title, ref.snippet)


def _insert(session: Session) -> Any:
    """One INSERT for any number of rows (Core: the ORM's bulk path walks every row). On
    PostgreSQL the terms go into `vector` only; SQLite keeps them as text for FTS5."""
    values = {column: bindparam(f"v_{column}") for column in _COLUMNS}
    if session.get_bind().dialect.name == "postgresql":
        values["vector"] = vector_of(values["title_terms"], values["text_terms"])
        values["title_terms"] = values["text_terms"] = literal("")
    return insert(SearchDocument.__table__).values(values)


def reindex_pages(session: Session, page_ids: Iterable[int]) -> int:
    """Rebuild the index rows of these pages in the caller's transaction; returns how many
    rows the pages now have."""
    ids = sorted(set(page_ids))
    written = 0
    for chunk in _chunks(ids):
        session.execute(delete(SearchDocument).where(SearchDocument.page_id.in_(chunk)))
        rows = [{f"v_{key}": value for key, value in row.items()}
                for row in _rows(session, chunk)]
        if rows:
            session.execute(_insert(session), rows)
            written += len(rows)
    return written
