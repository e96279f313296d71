"""`python -m crawler search` and `python -m crawler reindex`."""

from __future__ import annotations

import argparse
import json
import sys

from sqlalchemy import func, select

from models.page import Page
from models.schema import shown_url
from models.search import filed_moments, reindex_pages
from models.search.partitions import ensure_months, months_for
from models.store import now_utc
from reading.options import add_database, add_filters, filters_of, sessions_for
from reading.progress import Progress
from reading.query import QueryError
from reading.search import search
from reading.snippets import plain
from reading.stories import group_new

_REINDEX_CHUNK = 500  # pages per transaction of a rebuild


def search_main(argv: list[str]) -> int:
    """Print the hits of a query, newest or most relevant first."""
    parser = argparse.ArgumentParser(
        prog="python -m crawler search",
        description="Search stored articles, comments and list records. Terms are ANDed; "
                    '"a phrase", OR, NOT or -term, (grouping) and prefix* are understood; '
                    "Chinese needs no spaces (疫情 finds 新冠疫情, 台湾 finds 臺灣).")
    parser.add_argument("query", help="what to find (the query language above)")
    add_filters(parser)
    parser.add_argument("--sort", choices=("time", "relevance"), default="time",
                        help="newest first (default), or by relevance among the newest "
                             "1,000 matches")
    parser.add_argument("--limit", type=int, default=20, help="hits per page (default 20)")
    parser.add_argument("--page", type=int, default=1, help="which page of hits (default 1)")
    parser.add_argument("--collapse", action="store_true",
                        help="one hit per story (reposts of one article), with its copies")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per hit and line (snippets as HTML)")
    add_database(parser)
    args = parser.parse_args(argv)
    sessions = sessions_for(parser.prog, args.database_url)
    if sessions is None:
        return 2
    try:
        with sessions() as session:
            results = search(session, args.query, filters_of(args), order=args.sort,
                             limit=args.limit, offset=(args.page - 1) * args.limit,
                             collapse=args.collapse)
    except QueryError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    for hit in results.hits:
        if args.json:
            print(json.dumps(hit.as_json(), ensure_ascii=False))
        else:
            copies = f"  ({hit.copies} copies)" if hit.copies > 1 else ""
            print(f"{hit.published_at:%Y-%m-%d %H:%M}  {hit.kind:<8}{hit.site}  "
                  f"{hit.title or ''}{copies}\n  {hit.url}\n  {plain(hit.snippet)}\n")
    if not args.json:
        count = len(results.hits)
        print(f"{count} hit{'' if count == 1 else 's'}"
              + (f" (more: --page {args.page + 1})" if results.more else ""), file=sys.stderr)
    return 0


def reindex_main(argv: list[str]) -> int:
    """Rebuild the search index of every stored page (after an upgrade, or to repair it)."""
    parser = argparse.ArgumentParser(
        prog="python -m crawler reindex",
        description="Rebuild the search index from the stored pages and group the articles "
                    "not yet in a story: needed once after upgrading a store that holds pages "
                    "from before search existed; safe to run while crawls write (each page is "
                    "rebuilt in one transaction).")
    add_database(parser)
    args = parser.parse_args(argv)
    sessions = sessions_for(parser.prog, args.database_url)
    if sessions is None:
        return 2
    print(f"reindexing {shown_url(args.database_url)}", file=sys.stderr)
    with sessions.begin() as session:  # the months' partitions first (PostgreSQL)
        ensure_months(session.connection(), months_for(filed_moments(session), now_utc()))
    rows, last_id = 0, 0
    with sessions() as session:
        pages = Progress("pages", session.scalar(select(func.count()).select_from(Page)) or 0)
        while True:
            ids = list(session.scalars(select(Page.id).where(Page.id > last_id)
                                       .order_by(Page.id).limit(_REINDEX_CHUNK)))
            if not ids:
                break
            rows += reindex_pages(session, ids)
            session.commit()
            last_id = ids[-1]
            pages.advance(len(ids), f"{rows:,} index rows")
    pages.finish(f"reindexed {pages.done:,} pages into {rows:,} index rows in "
                 f"{pages.elapsed():.1f} s")
    grouped = Progress("articles grouped into stories")
    with sessions() as session:
        while batch := group_new(session):
            session.commit()
            grouped.advance(batch)
    grouped.finish(f"grouped {grouped.done:,} articles into stories")
    return 0
