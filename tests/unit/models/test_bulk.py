"""On SQLite, rows go as many a statement as its bound parameters allow: every row lands,
each counted key adds once and comes back with its new count, whatever the statements'
seams."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, MetaData, Table, create_engine
from sqlalchemy.orm import Session

from models.bulk import _PARAMETERS, add_counts, insert_rows, select_in

_TABLES = MetaData()
ROWS = Table("rows", _TABLES, Column("a", Integer, primary_key=True), Column("b", BigInteger),
             Column("c", Integer))
COUNTS = Table("counts", _TABLES, Column("key", BigInteger, primary_key=True,
                                         autoincrement=False), Column("pages", Integer))


def _session() -> Session:
    engine = create_engine("sqlite://")
    _TABLES.create_all(engine)
    return Session(engine)


def test_rows_of_many_statements_all_land_in_order_of_columns() -> None:
    rows = [(n, -2**62 + n, n % 7) for n in range(_PARAMETERS // 3 * 2 + 5)]  # 3 statements
    with _session() as session:
        insert_rows(session, ROWS, ("a", "b", "c"), rows)
        insert_rows(session, ROWS, ("c", "a", "b"), [(1, 10_000, 2)])
        found = select_in(session, ROWS, ("a", "b", "c"), "a", [*range(len(rows)), 10_000])
    assert sorted(found) == [*rows, (10_000, 2, 1)]


def test_counts_add_across_statements_and_calls() -> None:
    keys = range(-1000, 1000)
    with _session() as session:
        assert add_counts(session, COUNTS, "key", "pages", dict.fromkeys(keys, 1)) == (
            dict.fromkeys(keys, 1))
        assert add_counts(session, COUNTS, "key", "pages", {key: 2 for key in keys if key % 2}
                          ) == {key: 3 for key in keys if key % 2}
        found = dict(select_in(session, COUNTS, ("key", "pages"), "key", list(keys),
                               "pages >= 3"))
    assert found == {key: 3 for key in keys if key % 2}
