"""Keeping the search index current: a page's index rows are rebuilt from what is stored.

`save_pages` calls `reindex_pages` in its own transaction for every page whose content it
wrote, so a search never sees a page without its index rows or the other way round, on a
live crawl and on a journal replay alike. Rebuilding from the stored rows (rather than
from the batch) keeps the index right whatever the store did with the page's children.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from models.bulk import insert_rows
from models.page import Article, Comment, ListRecord, Page
from models.search.document import SearchDocument
from models.search.terms import index_texts

_CHUNK = 500  # ids per IN (…) list: SQLite's bound-parameter limit is the tightest
_COLUMNS = ("kind", "ref_id", "page_id", "source_id", "site", "page_type", "language",
            "published_at", "title_terms", "text_terms")


def vector_sql(title_terms: str, text_terms: str) -> str:
    """PostgreSQL's tsvector of a row's terms, title above text, as SQL over two text
    expressions: how `vector` is filled, by the store and by the search bench's loader."""
    return (f"setweight(to_tsvector('simple', {title_terms}), 'A') || "
            f"to_tsvector('simple', {text_terms})")


def _chunks(ids: Sequence[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield list(ids[start:start + _CHUNK])


@lru_cache(maxsize=4096)  # a page's rows share its URL
def _site(url: str) -> str:
    return (urlsplit(url).hostname or "")[:255]


_PAGE = (Page.id.label("page_id"), Page.url, Page.source_id, Page.page_type,
         Page.first_seen_at)


def _row(kind: str, ref: Any, language: str | None, published_at: datetime | None,
         title: str | None, text: str | None) -> tuple[Any, ...]:
    """An index row in `_COLUMNS` order, with the title and the text in place of their
    terms; `ref` carries the page's facts (`_PAGE`) and the thing's id."""
    return (kind, ref.id, ref.page_id, ref.source_id, _site(ref.url), ref.page_type, language,
            published_at or ref.first_seen_at, title, text)


def _rows(session: Session, page_ids: list[int]) -> list[tuple[Any, ...]]:
    """The pages' index rows, from what is stored (Core statements: rows, not objects); the
    terms of all their titles and texts are made in one call (`index_texts`)."""
    in_pages = Page.id.in_(page_ids)
    connection = session.connection()
    rows = [_row("article", ref, ref.language, ref.published_at, ref.title, ref.body_text)
            for ref in connection.execute(
                select(Article.id, Article.title, Article.body_text, Article.language,
                       Article.published_at, *_PAGE).join(Page).where(in_pages))]
    rows += [_row("comment", ref, ref.language, ref.published_at or ref.article_published_at,
                  None, ref.text)
             for ref in connection.execute(
                 select(Comment.id, Comment.text, Comment.published_at, Article.language,
                        Article.published_at.label("article_published_at"), *_PAGE)
                 .join(Article, Article.id == Comment.article_id).join(Page)
                 .where(in_pages, Comment.gone_at.is_(None)))]
    rows += [_row("record", ref, None, ref.date, ref.title, ref.snippet)
             for ref in connection.execute(
                 select(ListRecord.id, ListRecord.title, ListRecord.snippet, ListRecord.date,
                        *_PAGE).join(Page).where(in_pages))]
    terms = iter(index_texts([text for row in rows for text in row[-2:]]))
    return [(*row[:-2], next(terms), next(terms)) for row in rows]


# On PostgreSQL the terms go into `vector` only; SQLite keeps them as text for FTS5.
_VECTOR = {"vector": vector_sql("r.title_terms", "r.text_terms"),
           "title_terms": "''", "text_terms": "''"}


def reindex_pages(session: Session, page_ids: Iterable[int]) -> int:
    """Rebuild the index rows of these pages in the caller's transaction; returns how many
    rows the pages now have."""
    ids = sorted(set(page_ids))
    written = 0
    for chunk in _chunks(ids):
        session.execute(delete(SearchDocument).where(SearchDocument.page_id.in_(chunk)))
        rows = _rows(session, chunk)
        insert_rows(session, SearchDocument.__table__, _COLUMNS, rows, _VECTOR)
        written += len(rows)
    return written
