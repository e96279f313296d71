"""Keeping the search index current: a page's index rows are rebuilt from what is stored.

`save_pages` calls `reindex_pages` in its own transaction for every page whose content it
wrote, so a search never sees a page without its index rows or the other way round, on a
live crawl and on a journal replay alike. Rebuilding from the stored rows (rather than
from the batch) keeps the index right whatever the store did with the page's children.

What a row holds besides its terms (page, source, type, language, date) is one query a kind
(`_sources`), on both stores. On PostgreSQL only the things' ids, titles and texts are read
back, and each kind's rows are inserted by one statement that joins their terms (arrays,
by id) and the pages' sites (by page) to that query (`_joined`): the other columns no longer
travel to Python and back (read, a tuple built a row and adapted again, they were a third of
the index's CPU in the worker). On SQLite the query's rows are read whole and inserted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import islice
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import (
    BigInteger,
    ColumnElement,
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
def _sources(postgresql: bool) -> dict[str, Select[Any]]:
    """Each kind's index rows of the pages (`:pages`): its id, its page's facts and URL, its
    language and date, the title and text its terms are made of."""
    page = (Page.id.label("page_id"), Page.source_id, Page.url, Page.page_type)
    in_pages = _in_pages(Page.id, postgresql)
    return {
        "article": select(
            Article.id.label("ref_id"), *page, Article.language,
            func.coalesce(Article.published_at, Page.first_seen_at).label("published_at"),
            Article.title.label("title"), Article.body_text.label("text"))
        .join(Page).where(in_pages),
        "comment": select(
            Comment.id.label("ref_id"), *page, Article.language,
            func.coalesce(Comment.published_at, Article.published_at, Page.first_seen_at)
            .label("published_at"), null().label("title"), Comment.text.label("text"))
        .join(Article, Article.id == Comment.article_id).join(Page)
        .where(in_pages, Comment.gone_at.is_(None)),
        "record": select(
            ListRecord.id.label("ref_id"), *page, null().label("language"),
            func.coalesce(ListRecord.date, Page.first_seen_at).label("published_at"),
            ListRecord.title.label("title"), ListRecord.snippet.label("text"))
        .join(Page).where(in_pages),
    }


@dataclass(frozen=True)
class _Statements:
    """The statements a rebuild runs on every chunk, made once (a Core statement built a
    call costs more than executing it from SQLAlchemy's cache)."""

    delete: Delete
    urls: Select[Any]  # the pages' URLs, for their sites


@cache
def _statements(postgresql: bool) -> _Statements:
    return _Statements(
        delete(SearchDocument).where(_in_pages(SearchDocument.page_id, postgresql)),
        select(Page.id, Page.url).where(_in_pages(Page.id, postgresql)))


def _terms(rows: Sequence[Sequence[Any]]) -> Iterator[tuple[str, str]]:
    """The (title, text) terms of each row that ends with its title and text, all made in
    one call (`index_texts`)."""
    terms = iter(index_texts([text for row in rows for text in row[-2:]]))
    return zip(terms, terms, strict=True)


def _rows(session: Session, page_ids: list[int]) -> list[tuple[Any, ...]]:
    """The pages' index rows in `_COLUMNS` order, read whole (Core statements: rows, not
    objects)."""
    connection = session.connection()
    found = [(kind, *row) for kind, source in _sources(False).items()
             for row in connection.execute(source, {"pages": page_ids})]
    return [(kind, ref_id, page_id, source_id, _site(url), page_type, language, published_at,
             *terms) for (kind, ref_id, page_id, source_id, url, page_type, language,
                          published_at, *_), terms in zip(found, _terms(found), strict=True)]


# On PostgreSQL the terms go into `vector` only; SQLite keeps them as text for FTS5.
_VECTOR = {"vector": vector_sql("r.title_terms", "r.text_terms"),
           "title_terms": "''", "text_terms": "''"}


@cache
def _joined() -> dict[str, tuple[Select[Any], Insert]]:
    """PostgreSQL: each kind's read of its things' ids, titles and texts, and its insert of
    their index rows: the kind's source (`_sources`) joined with their terms (`:ids`,
    `:titles`, `:texts`, arrays in the order read: the rows' ids follow it) and the pages'
    sites (`:site_pages`, `:sites`)."""
    def array(name: str, kind: Any) -> Any:
        return cast(bindparam(name), ARRAY(kind))

    terms = func.unnest(array("ids", BigInteger), array("titles", Text), array("texts", Text)
                        ).table_valued("ref_id", "title_terms", "text_terms",
                                       with_ordinality="position").render_derived(name="r")
    sites = func.unnest(array("site_pages", BigInteger), array("sites", Text)
                        ).table_valued("page_id", "site").render_derived(name="s")
    statements = {}
    for kind, source in _sources(True).items():
        query = source.subquery("q")
        values = {"kind": literal_column(f"'{kind}'"), "site": sites.c.site,
                  **{name: literal_column(sql) for name, sql in _VECTOR.items()}}
        targets = [*_COLUMNS, "vector"]
        statements[kind] = (
            select(query.c.ref_id, query.c.title, query.c.text),
            insert(SearchDocument).from_select(targets, select(
                *(values.get(name, query.c.get(name)) for name in targets))
                .select_from(terms.join(query, query.c.ref_id == terms.c.ref_id)
                             .join(sites, sites.c.page_id == query.c.page_id))
                .order_by(terms.c.position)))
    return statements


def _insert_joined(session: Session, page_ids: list[int]) -> int:
    """PostgreSQL: the pages' index rows made by `_joined`; returns how many. Arrays go as
    literals (`pg_array`)."""
    connection = session.connection()
    pages = {"pages": pg_array(page_ids)}
    urls = connection.execute(_statements(True).urls, pages).all()
    sites = {"site_pages": pg_array([page_id for page_id, _ in urls]),
             "sites": pg_array([_site(url) for _, url in urls])}
    statements = _joined().values()
    found = [connection.execute(read, pages).all() for read, _ in statements]
    terms = _terms([row for rows in found for row in rows])  # one call for all kinds
    for (_, write), rows in zip(statements, found, strict=True):
        if rows:
            titles, texts = zip(*islice(terms, len(rows)), strict=True)
            connection.execute(write, {**pages, **sites, "ids": pg_array([row[0] for row in rows]),
                                       "titles": pg_array(titles), "texts": pg_array(texts)})
    return sum(map(len, found))


def reindex_pages(session: Session, page_ids: Iterable[int]) -> int:
    """Rebuild the index rows of these pages in the caller's transaction; returns how many
    rows the pages now have."""
    ids = sorted(set(page_ids))
    postgresql = session.get_bind().dialect.name == "postgresql"
    written = 0
    for chunk in _chunks(ids):
        session.execute(_statements(postgresql).delete,
                        {"pages": pg_array(chunk) if postgresql else chunk})
        if postgresql:
            written += _insert_joined(session, chunk)
        else:
            rows = _rows(session, chunk)
            insert_rows(session, SearchDocument.__table__, _COLUMNS, rows, _VECTOR)
            written += len(rows)
    return written
