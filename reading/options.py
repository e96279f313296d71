"""What the reading commands share: their options (database, times, filters) and opening
the database."""

from __future__ import annotations

import argparse
import re
import sys
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import sessionmaker

from models.db import database_url, get_engine
from models.schema import DatabaseNotReady, check_schema
from reading.search import Filters

_RELATIVE = re.compile(r"(\d+)\s*([mhdw])")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def moment(value: str) -> datetime:
    """An instant from a date (`YYYY-MM-DD`), a time with or without its offset (ISO 8601;
    UTC when none is given) or a span back from now: `30m`, `24h`, `7d`, `2w`."""
    relative = _RELATIVE.fullmatch(value.strip())
    if relative:
        return datetime.now(UTC) - timedelta(**{_UNITS[relative[2]]: int(relative[1])})
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a time: use 2026-11-01, 2026-11-01T08:00+08:00, 24h or 7d") \
            from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def add_database(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", default=None,
                        help="the database to read (default: $DATABASE_URL, else the "
                             "embedded SQLite file)")


def add_filters(parser: argparse.ArgumentParser) -> None:
    """The filters of `reading.search.Filters`, each repeatable where it is a list."""
    parser.add_argument("--since", type=moment, help="published (else first seen) at or "
                        "after: 2026-11-01, 2026-11-01T08:00+08:00, 24h, 7d")
    parser.add_argument("--until", type=moment, help="published before (same forms)")
    parser.add_argument("--source", action="append", default=[],
                        help="a source's name or id (repeatable)")
    parser.add_argument("--site", action="append", default=[],
                        help="a host; its subdomains too (repeatable)")
    parser.add_argument("--type", action="append", default=[], dest="page_types",
                        help="page type: news, blog, forum, list, other (repeatable)")
    parser.add_argument("--kind", action="append", default=[], dest="kinds",
                        choices=("article", "comment", "record"),
                        help="what to search: article, comment, record (default: all)")
    parser.add_argument("--language", action="append", default=[], dest="languages",
                        help="language code, e.g. zh, en (repeatable)")


def filters_of(args: argparse.Namespace) -> Filters:
    return Filters(sources=tuple(args.source), sites=tuple(args.site),
                   page_types=tuple(args.page_types), kinds=tuple(args.kinds),
                   languages=tuple(args.languages), since=args.since, until=args.until)


def sessions_for(prog: str, url: str | None) -> sessionmaker | None:
    """Sessions on the database, or None after one line saying why it cannot be read."""
    try:
        check_schema(url)
    except DatabaseNotReady as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return None
    return sessionmaker(get_engine(database_url(url)), expire_on_commit=False)
