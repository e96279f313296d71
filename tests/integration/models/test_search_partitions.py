"""PostgreSQL's search table by publication month: rows go to their month's partition, which
the store makes before it writes them; rows that reached the default partition move into
their month's when it is made; a partition that cannot have its locks waits for a later
batch; the migration moves a store's rows into partitions and back."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection

from models.db import get_engine, session_factory
from models.journal import Journal
from models.persist import write_segments
from models.schema import alembic_config
from models.search import partitions
from models.search.partitions import ensure_months, month_of, partition_name
from models.store import save_pages
from reading.search import Filters, search
from tests.factories import article_page, list_page


def _dated(url: str, published: str, word: str) -> dict[str, Any]:
    page = article_page(url, body=f"{word}的报道正文。\n\n第二段。", comments=())
    page["article"]["published_at"] = published
    return page


def _where(connection: Connection) -> dict[tuple[str, int], tuple[int, str, str]]:
    """Each search row by (kind, ref_id): its id, publication (ISO, UTC) and the table
    that holds it."""
    rows = connection.execute(text(
        "SELECT kind, ref_id, id, to_char(published_at AT TIME ZONE 'UTC', "
        "'YYYY-MM-DD\"T\"HH24:MI'), tableoid::regclass::text FROM search_document"))
    return {(kind, ref): (row_id, published, table) for kind, ref, row_id, published, table in rows}


@pytest.fixture
def store(pg_url: str) -> Iterator[Connection]:
    with create_engine(pg_url, isolation_level="AUTOCOMMIT").connect() as connection:
        yield connection


def _found(url: str, word: str, **filters: Any) -> list[str]:
    with session_factory(url)() as session:
        return [hit.url for hit in search(session, word, Filters(**filters)).hits]


def test_a_fresh_store_has_this_month_the_next_and_a_default(store: Connection) -> None:
    now = month_of(datetime.now(UTC))
    assert store.execute(text("SELECT relkind FROM pg_class WHERE relname = 'search_document'")
                         ).scalar() == "p"
    held = set(store.execute(text(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "WHERE i.inhparent = 'search_document'::regclass")).scalars())
    assert {partitions.DEFAULT_PARTITION, partition_name(now)} <= held


def test_rows_go_to_their_months_partitions_made_before_the_batch(
        pg_url: str, store: Connection, tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.append(_dated("https://a.cn/old.html", "2019-05-10T08:00:00+00:00", "洪水"))
    journal.append(_dated("https://a.cn/wrong.html", "1970-01-01T00:00:00+00:00", "洪水"))
    listing = list_page("https://a.cn/list.html", ("https://a.cn/r1.html",))
    listing["records"][0]["date"] = "2021-02-03T00:00:00+00:00"
    journal.append(listing)
    write_segments(session_factory(pg_url), journal.seal())
    tables = {published[:7]: table for _, published, table in _where(store).values()}
    assert tables["2019-05"] == partition_name(date(2019, 5, 1))
    assert tables["2021-02"] == partition_name(date(2021, 2, 1))
    assert tables["1970-01"] == partitions.DEFAULT_PARTITION  # before OLDEST_MONTH
    assert sorted(_found(pg_url, "洪水")) == ["https://a.cn/old.html", "https://a.cn/wrong.html"]
    assert _found(pg_url, "洪水", since=datetime(2019, 5, 1, tzinfo=UTC),
                  until=datetime(2019, 6, 1, tzinfo=UTC)) == ["https://a.cn/old.html"]


def test_a_months_rows_in_the_default_partition_move_into_it(pg_url: str,
                                                            store: Connection) -> None:
    with session_factory(pg_url).begin() as session:  # stored without the partition made
        save_pages(session, [_dated("https://b.cn/1.html", "2018-03-04T05:06:00+00:00", "地震"),
                             _dated("https://b.cn/2.html", "2018-04-01T00:00:00+00:00", "地震")])
    before = _where(store)
    assert {table for *_, table in before.values()} == {partitions.DEFAULT_PARTITION}
    with get_engine(pg_url).begin() as connection:
        assert ensure_months(connection, {date(2018, 3, 1)}) == [date(2018, 3, 1)]
        assert ensure_months(connection, {date(2018, 3, 1)}) == []  # made: nothing to do
    after = _where(store)
    assert {key: value[:2] for key, value in after.items()} == {
        key: value[:2] for key, value in before.items()}  # same ids and dates
    assert sorted(table for *_, table in after.values()) == sorted(
        [partition_name(date(2018, 3, 1)), partitions.DEFAULT_PARTITION])
    assert sorted(_found(pg_url, "地震")) == ["https://b.cn/1.html", "https://b.cn/2.html"]


def test_a_partition_that_cannot_lock_in_time_is_left_to_a_later_batch(
        pg_url: str, store: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(partitions, "LOCK_TIMEOUT", "200ms")
    journal = Journal(tmp_path)
    journal.append(_dated("https://c.cn/1.html", "2017-07-07T07:00:00+00:00", "台风"))
    holder = get_engine(pg_url).connect()
    # what a VACUUM holds: attaching waits on it, inserting does not
    holder.execute(text("LOCK TABLE search_document IN SHARE UPDATE EXCLUSIVE MODE"))
    try:
        with caplog.at_level(logging.WARNING, logger="models.persist"):
            written = write_segments(session_factory(pg_url), journal.seal())
    finally:
        holder.rollback()
        holder.close()
    assert [w.status for w in written] == ["new"]
    assert "partitions for these pages were not made now" in caplog.text
    assert {table for *_, table in _where(store).values()} == {partitions.DEFAULT_PARTITION}
    assert _found(pg_url, "台风") == ["https://c.cn/1.html"]
    journal.append(_dated("https://c.cn/2.html", "2017-07-08T07:00:00+00:00", "台风"))
    write_segments(session_factory(pg_url), journal.seal())  # the next batch makes it
    assert {table for *_, table in _where(store).values()} == {partition_name(date(2017, 7, 1))}


def test_the_migration_moves_a_stores_rows_into_partitions_and_back(empty_pg_url: str) -> None:
    config = alembic_config(empty_pg_url)
    command.upgrade(config, "0011")
    with session_factory(empty_pg_url).begin() as session:
        save_pages(session, [_dated("https://d.cn/1.html", "2020-01-15T00:00:00+00:00", "选举"),
                             _dated("https://d.cn/2.html", "2024-06-30T23:59:00+00:00", "选举"),
                             article_page("https://d.cn/3.html")])
    engine = create_engine(empty_pg_url)
    with engine.connect() as connection:
        before = _where(connection)
        assert ensure_months(connection, {date(2020, 1, 1)}) == []  # not partitioned yet
    engine.dispose()
    command.upgrade(config, "head")
    with engine.connect() as connection:
        after = _where(connection)
        next_id = connection.execute(text("SELECT nextval('search_document_id_seq')")).scalar()
    engine.dispose()
    assert {key: value[:2] for key, value in after.items()} == {
        key: value[:2] for key, value in before.items()}
    assert {value[1][:7]: value[2] for value in after.values() if value[1] < "2025"} == {
        "2020-01": partition_name(date(2020, 1, 1)), "2024-06": partition_name(date(2024, 6, 1))}
    assert next_id > max(row_id for row_id, *_ in after.values())
    assert sorted(_found(empty_pg_url, "选举")) == ["https://d.cn/1.html", "https://d.cn/2.html"]
    get_engine(empty_pg_url).dispose()
    command.downgrade(config, "0011")
    with engine.connect() as connection:
        assert {key: value[:2] for key, value in _where(connection).items()} == {
            key: value[:2] for key, value in before.items()}
        assert connection.execute(text(
            "SELECT relkind FROM pg_class WHERE relname = 'search_document'")).scalar() == "r"
    engine.dispose()
