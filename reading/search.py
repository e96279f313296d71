"""Running a query on either store: PostgreSQL's tsquery over the GIN-indexed `vector`,
SQLite's FTS5 MATCH; the same tree (`reading.query`), filters and orders on both.

A page of hits is found in the index alone, then the few hits' texts are read from their
own tables for display, so a common term costs one indexed lookup, not a read of every
matching text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import Select, String, and_, cast, column, func, literal, null, or_, select, table
from sqlalchemy.dialects.postgresql import TSQUERY
from sqlalchemy.orm import Session, defer

from models.crawl import Source
from models.page import Article, Comment, ListRecord, Page
from models.search.document import FTS_TABLE, KINDS, SearchDocument
from models.story import ArticleStory
from reading.query import And, Node, Not, Or, Term, parse, positive_terms
from reading.snippets import snippet

Order = Literal["relevance", "time"]
_FTS = table(FTS_TABLE, column("rowid"))
# FTS5's bm25 weights of its two columns, title and text (PostgreSQL weighs the title's
# terms 'A' in the vector, which ts_rank counts the same way by default).
_TITLE_WEIGHT, _TEXT_WEIGHT = 10.0, 1.0
RELEVANCE_CANDIDATES = 1000
# Newest rows tested before PostgreSQL looks a query's matches up in the GIN index
# (`_newest_first`; docs/BENCHMARKS.md, search at 1,000,000 articles).
RECENT_SCAN = 1000


@dataclass(frozen=True)
class Filters:
    """What to search among; an empty tuple or None means no restriction."""

    sources: tuple[str, ...] = ()  # names or ids
    sites: tuple[str, ...] = ()  # host names; a site includes its subdomains
    page_types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()  # article, comment, record
    languages: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None


@dataclass
class Hit:
    """One thing found, with what a reader needs to judge it."""

    kind: str
    id: int
    url: str
    title: str | None
    snippet: str
    published_at: datetime
    site: str
    source: str | None
    page_type: str | None
    language: str | None
    score: float
    author: str | None = None
    article_url: str | None = None  # a comment's article, a record's list page
    copies: int = 1  # copies of its story among the matches (with `collapse`)

    def as_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["published_at"] = self.published_at.isoformat()
        return data


@dataclass
class Results:
    hits: list[Hit] = field(default_factory=list)
    more: bool = False  # further hits exist beyond this page


def tsquery(node: Node) -> str:
    """The PostgreSQL tsquery text of a query tree (lexemes quoted as they are)."""
    if isinstance(node, Term):
        words = [f"'{word}'" for word in node.words]
        if node.prefix:
            words[-1] += ":*"
        return words[0] if len(words) == 1 else "(" + " <-> ".join(words) + ")"
    if isinstance(node, Not):
        return "!" + tsquery(node.item)
    joiner = " & " if isinstance(node, And) else " | "
    return "(" + joiner.join(tsquery(item) for item in node.items) + ")"


def fts5_query(node: Node) -> str:
    """The SQLite FTS5 query text of a query tree (NOT is binary there: positives first)."""
    if isinstance(node, Term):
        return '"' + " ".join(node.words) + '"' + (" *" if node.prefix else "")
    if isinstance(node, Or):
        return "(" + " OR ".join(fts5_query(item) for item in node.items) + ")"
    if isinstance(node, Not):
        return fts5_query(node.item)
    positives = [fts5_query(item) for item in node.items if not isinstance(item, Not)]
    negatives = [fts5_query(item) for item in node.items if isinstance(item, Not)]
    text = "(" + " AND ".join(positives) + ")"
    return f"({text} NOT ({' OR '.join(negatives)}))" if negatives else text


def _utc(moment: datetime) -> datetime:
    """An instant in UTC (a time without a zone counts as UTC): any offset Python accepts,
    some of which PostgreSQL does not."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def filtered(statement: Select[Any], filters: Filters) -> Select[Any]:
    document = SearchDocument
    if filters.sources:
        ids = [int(value) for value in filters.sources if value.isdecimal()]  # not ² (isdigit)
        names = [value for value in filters.sources if not value.isdecimal()]
        named = select(Source.id).where(Source.name.in_(names))
        statement = statement.where(or_(document.source_id.in_(ids),
                                        document.source_id.in_(named)))
    if filters.sites:
        hosts = [site.lower().strip(".") for site in filters.sites]
        statement = statement.where(or_(*[document.site == host for host in hosts],
                                        *[document.site.like(f"%.{host}") for host in hosts]))
    for name, values in (("page_type", filters.page_types), ("kind", filters.kinds),
                         ("language", filters.languages)):
        if values:
            statement = statement.where(getattr(document, name).in_(values))
    if filters.since:
        statement = statement.where(document.published_at >= _utc(filters.since))
    if filters.until:
        statement = statement.where(document.published_at < _utc(filters.until))
    return statement


def _tsquery(node: Node) -> Any:
    return cast(literal(tsquery(node), String), TSQUERY)


def matching(session: Session, node: Node, ranked: bool = False) -> Select[Any]:
    """(id, published_at, score) of the index rows that match; a higher score is better.
    Unranked, the score is NULL: on PostgreSQL ranking reads a match's whole vector (out of
    line, compressed), which a query that only filters or orders by time never needs."""
    document = SearchDocument
    if session.get_bind().dialect.name == "postgresql":
        query = _tsquery(node)
        score = func.ts_rank(document.vector, query) if ranked else null()
        return select(document.id, document.published_at, score.label("score")).where(
            document.vector.op("@@")(query))
    fts = column(FTS_TABLE, is_literal=True)
    score = -func.bm25(fts, _TITLE_WEIGHT, _TEXT_WEIGHT) if ranked else null()
    return (select(document.id, document.published_at, score.label("score"))
            .join(_FTS, _FTS.c.rowid == document.id)
            .where(fts.op("MATCH")(fts5_query(node))))


def _collapsed(found: Select[Any]) -> Select[Any]:
    """One row per story (an article's copies; anything else is its own story), the newest
    copy, with the number of copies found. The matches are materialised first: SQLite
    computes FTS5's bm25() only in the query that matches."""
    matches = found.add_columns(SearchDocument.kind, SearchDocument.ref_id) \
        .cte("matches").prefix_with("MATERIALIZED")
    key = func.coalesce(ArticleStory.story_id, -matches.c.id)
    window = {"partition_by": key}
    ranked = (select(matches.c.id, matches.c.published_at, matches.c.score,
                     func.row_number().over(**window, order_by=(matches.c.published_at.desc(),
                                                                matches.c.id.desc()))
                     .label("copy_rank"),
                     func.count().over(**window).label("copies"))
              .outerjoin(ArticleStory, and_(matches.c.kind == "article",
                                            ArticleStory.article_id == matches.c.ref_id))
              .subquery())
    return select(ranked.c.id, ranked.c.published_at, ranked.c.score, ranked.c.copies) \
        .where(ranked.c.copy_rank == 1)


def _newest_first(session: Session, node: Node, filters: Filters, offset: int,
                  count: int) -> Sequence[Any]:
    """PostgreSQL's newest matches `offset` … `offset + count` (id, published_at, NULL
    score), by the cheaper of two plans PostgreSQL's planner cannot tell apart: it counts
    testing a row's vector as free, though each is a read of several out-of-line chunks,
    and it puts any term outside its statistics' most frequent at 0.5 % of the rows (a
    rare word's walk of the time index then tests every row of the month:
    docs/BENCHMARKS.md). So the newest RECENT_SCAN rows the filters allow are tested first
    (enough for a common term), and only when they hold too few matches are all the
    matches found through the GIN index, with the walk ruled out, and sorted."""
    document = SearchDocument
    query = _tsquery(node)
    recent = filtered(select(document.id, document.published_at, document.vector), filters) \
        .order_by(document.published_at.desc(), document.id.desc()).limit(RECENT_SCAN) \
        .subquery()
    wanted = offset + count
    rows = session.execute(
        select(recent.c.id, recent.c.published_at, null().label("score"))
        .where(recent.c.vector.op("@@")(query))
        .order_by(recent.c.published_at.desc(), recent.c.id.desc()).limit(wanted)).all()
    if len(rows) == wanted:
        return rows[offset:]
    with _planning(session, enable_indexscan="off", enable_seqscan="off"):
        return session.execute(
            filtered(matching(session, node), filters)
            .order_by(document.published_at.desc(), document.id.desc())
            .offset(offset).limit(count)).all()


@contextmanager
def _planning(session: Session, **settings: str) -> Iterator[None]:
    """PostgreSQL planner settings for the statements run within, restored after."""
    names = list(settings)
    before = session.execute(select(*(func.current_setting(name) for name in names))).one()
    session.execute(select(*(func.set_config(name, settings[name], True) for name in names)))
    try:
        yield
    finally:
        session.execute(select(*(func.set_config(name, value, True)
                                  for name, value in zip(names, before, strict=True))))


def search(session: Session, query: str | Node, filters: Filters = Filters(),
           order: Order = "time", limit: int = 20, offset: int = 0,
           collapse: bool = False) -> Results:
    """One page of hits for a query (text or tree), newest first or by relevance among the
    newest RELEVANCE_CANDIDATES matches (ranking reads each match's whole vector, so an
    unbounded ranking of a common word would read a large part of the store); with
    `collapse`, a story's copies are one hit with their count. Raises QueryError for a bad
    query."""
    node = parse(query) if isinstance(query, str) else query
    postgresql = session.get_bind().dialect.name == "postgresql"
    if postgresql and order == "time" and not collapse:
        rows = _newest_first(session, node, filters, offset, limit + 1)
    else:
        rows = session.execute(_ordered(session, node, filters, order, collapse)
                               .offset(offset).limit(limit + 1)).all()
    ids = [row.id for row in rows[:limit]]
    rank = func.ts_rank(SearchDocument.vector, _tsquery(node)) if postgresql else null()
    fetched = {doc.id: (doc, score) for doc, score in session.execute(
        select(SearchDocument, rank).options(defer(SearchDocument.vector))
        .where(SearchDocument.id.in_(ids)))}
    scored = [(fetched[row.id][0], float((fetched[row.id][1] if postgresql else row.score) or 0))
              for row in rows[:limit] if row.id in fetched]
    hits = _hits(session, scored, positive_terms(node))
    if collapse:
        copies = {(fetched[row.id][0].kind, fetched[row.id][0].ref_id): row.copies
                  for row in rows[:limit] if row.id in fetched}
        for hit in hits:
            hit.copies = copies[hit.kind, hit.id]
    return Results(hits, more=len(rows) > limit)


def _ordered(session: Session, node: Node, filters: Filters, order: Order,
             collapse: bool) -> Select[Any]:
    """The matches in the order asked (all of them, or a story's first copy with its count),
    for every case but PostgreSQL's uncollapsed newest first (`_newest_first`). PostgreSQL
    ranks only the RELEVANCE_CANDIDATES by relevance (not every match a plan sorts to find
    them); FTS5's bm25() exists only in the query that matches."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    found_rows = filtered(matching(session, node, ranked=not postgresql or (
        order == "relevance" and collapse)), filters)
    if order == "relevance":
        found_rows = found_rows.order_by(SearchDocument.published_at.desc(),
                                         SearchDocument.id.desc()).limit(RELEVANCE_CANDIDATES)
        if postgresql and not collapse:
            candidates = found_rows.add_columns(SearchDocument.vector).subquery()
            found_rows = select(candidates.c.id, candidates.c.published_at,
                                func.ts_rank(candidates.c.vector, _tsquery(node)).label("score"))
    matches = (_collapsed(found_rows) if collapse else found_rows).subquery()
    ordering = (matches.c.published_at.desc(), matches.c.id.desc())
    if order == "relevance":
        ordering = (matches.c.score.desc(), *ordering)
    return select(matches).order_by(*ordering)


def _hits(session: Session, documents: Sequence[tuple[SearchDocument, float]],
          terms: Sequence[Term]) -> list[Hit]:
    """The found rows' texts, read from their own tables, as hits in the found order."""
    shown = {kind: texts_of(session, kind, [doc.ref_id for doc, _ in documents
                                          if doc.kind == kind]) for kind in KINDS}
    sources = dict(session.execute(select(Source.id, Source.name).where(Source.id.in_(
        {doc.source_id for doc, _ in documents if doc.source_id is not None}))).all())
    hits = []
    for doc, score in documents:
        found = shown[doc.kind].get(doc.ref_id)
        if found is None:
            continue  # rewritten since it was found
        title, text, url, author, parent_url = found
        hits.append(Hit(kind=doc.kind, id=doc.ref_id, url=url, title=title,
                        snippet=snippet(text if text else title, terms),
                        published_at=doc.published_at, site=doc.site,
                        source=sources.get(doc.source_id), page_type=doc.page_type,
                        language=doc.language, score=score, author=author,
                        article_url=parent_url))
    return hits


def texts_of(session: Session, kind: str, ids: list[int]) -> dict[int, tuple[Any, ...]]:
    """id → (title, text, url, author, parent url) of one kind's rows."""
    if not ids:
        return {}
    if kind == "article":
        statement = select(Article.id, Article.title, Article.body_text, Page.url,
                           Article.author, literal(None)).join(Page)
        where = Article.id.in_(ids)
    elif kind == "comment":
        statement = (select(Comment.id, Article.title, Comment.text, Page.url, Comment.author,
                            Page.url).join(Article, Article.id == Comment.article_id)
                     .join(Page))
        where = Comment.id.in_(ids)
    else:
        statement = select(ListRecord.id, ListRecord.title, ListRecord.snippet,
                           func.coalesce(ListRecord.url, Page.url), literal(None),
                           Page.url).join(Page)
        where = ListRecord.id.in_(ids)
    return {row[0]: tuple(row[1:]) for row in session.execute(statement.where(where))}
