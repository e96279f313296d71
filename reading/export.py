"""`python -m crawler export`: what the store holds (or what a query finds), streamed as
JSON lines or CSV, oldest first, in constant memory however many rows there are.

Rows are walked through the search index in keyset order (published time, id), a chunk at
a time, each chunk's scan starting at the last one's time (as an OR of "later, or as late
with a higher id" the index scan started from the oldest row every time: quadratic in the
store), and each chunk's texts are read from their own tables; nothing is held beyond one
chunk. One schema for every kind, so a CSV has one header. Progress goes to stderr
(`reading.progress`).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import datetime
from typing import Any, TextIO

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from models.crawl import Source
from models.page import Page
from models.search import SearchDocument
from reading.options import add_database, add_filters, filters_of, sessions_for
from reading.progress import Progress
from reading.query import QueryError, parse
from reading.search import Filters, filtered, matching, texts_of

FIELDS = ("kind", "id", "url", "parent_url", "site", "source", "page_type", "language",
          "published_at", "title", "author", "text")
CHUNK = 1000


def _all_documents() -> Any:
    return select(SearchDocument.id, SearchDocument.published_at)


def rows(session: Session, query: str | None, filters: Filters,
         chunk: int = CHUNK) -> Iterator[dict[str, Any]]:
    """Every matching thing as a flat dict of FIELDS, oldest first."""
    base = filtered(matching(session, parse(query)) if query else _all_documents(), filters)
    found = base.subquery()
    after: tuple[datetime, int] | None = None
    sources = dict(session.execute(select(Source.id, Source.name)).all())
    while True:
        page = select(found.c.id, found.c.published_at)
        if after is not None:  # `>=` first: the index on published_at starts the scan there
            page = page.where(found.c.published_at >= after[0],
                              or_(found.c.published_at > after[0], found.c.id > after[1]))
        ids = session.execute(page.order_by(found.c.published_at, found.c.id).limit(chunk)).all()
        if not ids:
            return
        after = (ids[-1].published_at, ids[-1].id)
        documents = session.scalars(select(SearchDocument).where(
            SearchDocument.id.in_([row.id for row in ids]))).all()
        by_id = {doc.id: doc for doc in documents}
        shown = {kind: texts_of(session, kind, [doc.ref_id for doc in documents
                                                if doc.kind == kind])
                 for kind in {doc.kind for doc in documents}}
        for row in ids:
            doc = by_id[row.id]
            text = shown[doc.kind].get(doc.ref_id)
            if text is None:
                continue
            title, body, url, author, parent_url = text
            yield {"kind": doc.kind, "id": doc.ref_id, "url": url, "parent_url": parent_url,
                   "site": doc.site, "source": sources.get(doc.source_id),
                   "page_type": doc.page_type, "language": doc.language,
                   "published_at": doc.published_at.isoformat(), "title": title,
                   "author": author, "text": body}
        session.expunge_all()


def write(out: TextIO, records: Iterator[dict[str, Any]], form: str,
          progress: Progress | None = None) -> int:
    """Write the records as JSON lines or CSV, advancing `progress`; returns how many."""
    count = 0
    writer = csv.DictWriter(out, fieldnames=FIELDS) if form == "csv" else None
    if writer:
        writer.writeheader()
    for record in records:
        if writer:
            writer.writerow(record)
        else:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        count += 1
        if progress is not None:
            progress.advance()
    return count


def _index_missing(session: Session) -> bool:
    """Pages are stored but none is indexed: a store from before search, not reindexed."""
    return (session.scalar(select(func.count()).select_from(SearchDocument)) == 0
            and session.scalar(select(func.count()).select_from(Page)) > 0)


def export_main(argv: list[str]) -> int:
    """Stream stored articles, comments and records (optionally only a query's hits)."""
    parser = argparse.ArgumentParser(
        prog="python -m crawler export",
        description="Write stored articles, comments and list records as JSON lines or CSV, "
                    "oldest first, in constant memory.")
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl",
                        help="JSON lines (default) or CSV with a header")
    parser.add_argument("--query", help="only what this search query finds (same language "
                                        "as `search`)")
    parser.add_argument("--output", "-o", help="the file to write (default: standard output)")
    add_filters(parser)
    add_database(parser)
    args = parser.parse_args(argv)
    sessions = sessions_for(parser.prog, args.database_url)
    if sessions is None:
        return 2
    with sessions() as session:
        if _index_missing(session):
            print(f"{parser.prog}: the store's search index is empty: run "
                  "`python -m crawler reindex` first", file=sys.stderr)
            return 2
        try:
            if args.query:
                parse(args.query)
        except QueryError as error:
            print(f"{parser.prog}: {error}", file=sys.stderr)
            return 2
        with ExitStack() as stack:
            out = (stack.enter_context(open(args.output, "w", encoding="utf-8", newline=""))
                   if args.output else sys.stdout)
            progress = Progress("rows exported")
            count = write(out, rows(session, args.query, filters_of(args)), args.format,
                          progress)
    progress.finish(f"exported {count:,} rows in {progress.elapsed():.1f} s")
    return 0
