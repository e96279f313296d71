"""The search table's monthly partitions (PostgreSQL).

On PostgreSQL `search_document` is partitioned by range of `published_at`: a partition a
calendar month (UTC) and a default partition for the rows of a month without one. A page's
index rows go to their month's partition, so a crawl of recent pages writes into a small
index whatever the store's size (the GIN index's merges into one index of the whole store
were the largest part of what a stored page's cost grew by at a million stored), and a
search with a date filter reads only its months' partitions.

A month gets its partition before the store writes it (`ensure_months`, in a transaction of
its own): attaching one locks the parent table against writers and checks its foreign keys
under a lock on `page`, both of which a store transaction already holding rows there would
wait on for ever. Rows that reached the default partition before their month had one move
into it as it is attached. Months far from the present (dates a page got wrong, mostly)
stay in the default partition rather than making a partition each.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

from sqlalchemy import text
from sqlalchemy.engine import Connection

TABLE = "search_document"
DEFAULT_PARTITION = f"{TABLE}_default"
OLDEST_MONTH = date(2000, 1, 1)  # earlier months share the default partition
MONTHS_AHEAD = 1  # months after the current one with their own partition
LOCK_TIMEOUT = "10s"  # a partition waits this long for the tables' locks, then a later batch tries
_ATTACHING_LOCK = 20261201  # PostgreSQL advisory lock key: one attaching session at a time


def month_of(moment: datetime) -> date:
    """The first day of the UTC calendar month holding `moment` (naive: UTC)."""
    utc = moment.astimezone(UTC) if moment.tzinfo else moment
    return date(utc.year, utc.month, 1)


def _next_month(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def partition_name(month: date) -> str:
    return f"{TABLE}_y{month.year:04d}m{month.month:02d}"


def _month_named(name: str) -> date | None:
    prefix = f"{TABLE}_y"
    if not name.startswith(prefix) or len(name) != len(prefix) + 7 or name[-3] != "m":
        return None
    return date(int(name[-7:-3]), int(name[-2:]), 1)


def months_for(moments: Iterable[datetime | None], now: datetime) -> set[date]:
    """The months that should have a partition for rows published at `moments` to be stored
    at `now`: each moment's month from OLDEST_MONTH to MONTHS_AHEAD after now's, and now's
    (a row without a date is dated by when its page was first seen)."""
    latest = month_of(now)
    for _ in range(MONTHS_AHEAD):
        latest = _next_month(latest)
    months = {month_of(moment) for moment in moments if moment is not None}
    return {month for month in months if OLDEST_MONTH <= month <= latest} | {month_of(now)}


def _partitions(connection: Connection) -> set[str]:
    """The names of the search table's partitions (none where it has none)."""
    return set(connection.execute(text(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "WHERE i.inhparent = to_regclass(:table)"), {"table": TABLE}).scalars())


def _months_in(partitions: set[str]) -> set[date]:
    return {month for month in map(_month_named, partitions) if month is not None}


def ensure_months(connection: Connection, months: Iterable[date]) -> list[date]:
    """Give each of `months` its partition where it has none, in the caller's transaction,
    which must hold no lock on the store's tables (the caller commits); returns the months
    attached. Where the search table is not partitioned (SQLite; PostgreSQL before
    migration 0012: no default partition) nothing is done. One catalog query when every
    month has its partition: what a batch of the crawl costs."""
    wanted = set(months)
    if not wanted or connection.dialect.name != "postgresql":
        return []
    partitions = _partitions(connection)
    if DEFAULT_PARTITION not in partitions or wanted <= _months_in(partitions):
        return []
    connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ATTACHING_LOCK})
    missing = sorted(wanted - _months_in(_partitions(connection)))  # another session's, meanwhile
    for month in missing:
        attach_month(connection, month)
    return missing


def _bound(month: date) -> str:
    return f"{month.isoformat()} 00:00:00+00"  # UTC whatever the session's time zone


def attach_month(connection: Connection, month: date) -> None:
    """Make `month`'s partition, moving into it the default partition's rows of that month,
    and attach it (its indexes and foreign keys are the parent's)."""
    name, low, high = partition_name(month), _bound(month), _bound(_next_month(month))
    in_month = f"published_at >= '{low}' AND published_at < '{high}'"
    connection.execute(text(f"CREATE TABLE {name} (LIKE {TABLE})"))
    connection.execute(text(f"INSERT INTO {name} SELECT * FROM {DEFAULT_PARTITION} "
                            f"WHERE {in_month}"))
    connection.execute(text(f"DELETE FROM {DEFAULT_PARTITION} WHERE {in_month}"))
    connection.execute(text(f"ALTER TABLE {TABLE} ATTACH PARTITION {name} "
                            f"FOR VALUES FROM ('{low}') TO ('{high}')"))
