"""Keeping the search index current: a page's index rows are rebuilt from what is stored.

`save_pages` calls `reindex_pages` in its own transaction for every page whose content it
wrote, so a search never sees a page without its index rows or the other way round, on a
live crawl and on a journal replay alike. Rebuilding from the stored rows (rather than
from the batch) keeps the index right whatever the store did with the page's children.

What a row holds besides its terms (page, source, type, language, date) is one query
(`_source`, a part a kind), on both stores. On PostgreSQL only the things' kinds, ids, URLs,
titles and texts are read back, and the rows are inserted by one statement that joins their
sites and terms (arrays, by kind and id) to that query (`_joined`): the other columns no
longer travel to Python and back (read, a tuple built a row and adapted again, they were a
third of the index's CPU in the worker), and a chunk takes three statements, not five. On
SQLite the query's rows are read whole and inserted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    CompoundSelect,
    Delete,
    Insert,
    Select,
    Text,
    bindparam,
    cast,
    delete,
    func,
    insert,
    literal_column,
    null,
    select,
    text,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from models.bulk import insert_rows, pg_array
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


def _in_pages(column: Any, postgresql: bool) -> ColumnElement[bool]:
    """`column` is one of the pages (`:pages`): on PostgreSQL one array (`= ANY`), elsewhere
    an IN list (SQLAlchemy renders it value by value)."""
    if postgresql:
        return column == func.any(cast(bindparam("pages"), ARRAY(BigInteger)))
    return column.in_(bindparam("pages", expanding=True))


@cache
def _source(postgresql: bool) -> CompoundSelect:
    """The pages' (`:pages`) index rows, each kind's read by one query: its kind and id, its
    page's facts and URL, its language and date, the title and text its terms are made of
    (in `_COLUMNS` order, with the URL for the site and the texts for the terms)."""
    page = (Page.id.label("page_id"), Page.source_id, Page.url, Page.page_type)
    in_pages = _in_pages(Page.id, postgresql)

    def kind(name: str) -> Any:
        return literal_column(f"'{name}'").label("kind")

    return union_all(
        select(kind("article"), Article.id.label("ref_id"), *page, Article.language,
               func.coalesce(Article.published_at, Page.first_seen_at).label("published_at"),
               Article.title.label("title"), Article.body_text.label("text"))
        .join(Page).where(in_pages),
        select(kind("comment"), Comment.id, *page, Article.language,
               func.coalesce(Comment.published_at, Article.published_at, Page.first_seen_at),
               null(), Comment.text)
        .join(Article, Article.id == Comment.article_id).join(Page)
        .where(in_pages, Comment.gone_at.is_(None)),
        select(kind("record"), ListRecord.id, *page, null(),
               func.coalesce(ListRecord.date, Page.first_seen_at), ListRecord.title,
               ListRecord.snippet)
        .join(Page).where(in_pages))


@cache
def _delete(postgresql: bool) -> Delete:
    return delete(SearchDocument).where(_in_pages(SearchDocument.page_id, postgresql))


def _terms(rows: Sequence[Sequence[Any]]) -> Iterator[tuple[str, str]]:
    """The (title, text) terms of each row that ends with its title and text, all made in
    one call (`index_texts`)."""
    terms = iter(index_texts([text for row in rows for text in row[-2:]]))
    return zip(terms, terms, strict=True)


def _rows(session: Session, page_ids: list[int]) -> list[tuple[Any, ...]]:
    """The pages' index rows in `_COLUMNS` order, read whole (a Core statement: rows, not
    objects)."""
    found = session.connection().execute(_source(False), {"pages": page_ids}).all()
    return [(kind, ref_id, page_id, source_id, _site(url), page_type, language, published_at,
             *terms) for (kind, ref_id, page_id, source_id, url, page_type, language,
                          published_at, *_), terms in zip(found, _terms(found), strict=True)]


# On PostgreSQL the terms go into `vector` only; SQLite keeps them as text for FTS5.
_VECTOR = {"vector": vector_sql("r.title_terms", "r.text_terms"),
           "title_terms": "''", "text_terms": "''"}


@cache
def _joined() -> tuple[Select[Any], Insert]:
    """PostgreSQL: the read of the things' kinds, ids, URLs, titles and texts, and the insert
    of their index rows: the source (`_source`) joined by kind and id with their sites and
    terms (`:kinds`, `:ids`, `:sites`, `:titles`, `:texts`: arrays in the order read, which
    the rows' ids follow)."""
    def array(name: str, kind: Any) -> Any:
        return cast(bindparam(name), ARRAY(kind))

    given = func.unnest(array("kinds", Text), array("ids", BigInteger), array("sites", Text),
                        array("titles", Text), array("texts", Text)).table_valued(
        "kind", "ref_id", "site", "title_terms", "text_terms", with_ordinality="position"
    ).render_derived(name="r")
    query = _source(True).subquery("q")
    values = {"site": given.c.site, **{name: literal_column(sql) for name, sql in _VECTOR.items()}}
    targets = [*_COLUMNS, "vector"]
    return (select(query.c.kind, query.c.ref_id, query.c.url, query.c.title, query.c.text),
            insert(SearchDocument).from_select(targets, select(
                *(values.get(name, query.c.get(name)) for name in targets))
                .select_from(given.join(query, (query.c.kind == given.c.kind)
                                        & (query.c.ref_id == given.c.ref_id)))
                .order_by(given.c.position)))


def _insert_joined(session: Session, page_ids: list[int]) -> int:
    """PostgreSQL: the pages' index rows made by `_joined`, arrays as literals (`pg_array`);
    returns how many."""
    connection = session.connection()
    read, write = _joined()
    pages = {"pages": pg_array(page_ids)}
    found = connection.execute(read, pages).all()
    if found:
        titles, texts = zip(*_terms(found), strict=True)
        kinds, ids, urls = zip(*(row[:3] for row in found), strict=True)
        connection.execute(write, {**pages, "kinds": pg_array(kinds), "ids": pg_array(ids),
                                   "sites": pg_array(list(map(_site, urls))),
                                   "titles": pg_array(titles), "texts": pg_array(texts)})
    return len(found)


def filed_moments(session: Session) -> list[datetime]:
    """PostgreSQL: the months (as their first instants, UTC) of every time the stored things'
    index rows may be filed under (`_source`'s dates and the pages' first sightings), for
    their partitions to be made before a rebuild; elsewhere none (nothing is partitioned)."""
    if session.get_bind().dialect.name != "postgresql":
        return []
    dated = ((Article.__table__, "published_at"), (Comment.__table__, "published_at"),
             (ListRecord.__table__, "date"), (Page.__table__, "first_seen_at"))
    return list(session.execute(text(" UNION ".join(
        f"SELECT DISTINCT date_trunc('month', {column} AT TIME ZONE 'UTC') FROM {table.name}"
        f" WHERE {column} IS NOT NULL" for table, column in dated))).scalars())


def reindex_pages(session: Session, page_ids: Iterable[int]) -> int:
    """Rebuild the index rows of these pages in the caller's transaction; returns how many
    rows the pages now have."""
    ids = sorted(set(page_ids))
    postgresql = session.get_bind().dialect.name == "postgresql"
    written = 0
    for chunk in _chunks(ids):
        session.execute(_delete(postgresql),
                        {"pages": pg_array(chunk) if postgresql else chunk})
        if postgresql:
            written += _insert_joined(session, chunk)
        else:
            rows = _rows(session, chunk)
            insert_rows(session, SearchDocument.__table__, _COLUMNS, rows, _VECTOR)
            written += len(rows)
    return written
