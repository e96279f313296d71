"""On SQLite, rows go as many a statement as its bound parameters allow: every row lands,
each counted key adds once and comes back with its new count, whatever the statements'
seams; rows read as columns come in key order."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, LargeBinary, MetaData, Table, create_engine
from sqlalchemy.orm import Session

from models.bulk import _PARAMETERS, add_counts, columns_in, insert_rows, select_in

_TABLES = MetaData()
ROWS = Table("rows", _TABLES, Column("a", Integer, primary_key=True), Column("b", BigInteger),
             Column("c", Integer))
COUNTS = Table("counts", _TABLES, Column("key", BigInteger, primary_key=True,
                                         autoincrement=False), Column("pages", Integer))

SIGNED = Table("signed", _TABLES, Column("id", Integer, primary_key=True),
               Column("signature", LargeBinary), Column("size", Integer))


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


def test_columns_come_in_key_order_with_a_binary_column_end_to_end() -> None:
    rows = [(n, bytes([n]) * 4, n * 10) for n in (5, 1, 3)]
    with _session() as session:
        insert_rows(session, SIGNED, ("id", "signature", "size"), [*rows, (4, None, 0)])
        ids, signatures, sizes = columns_in(session, SIGNED, ("id", "signature", "size"), "id",
                                            [1, 3, 4, 5, 6], "signature IS NOT NULL",
                                            joined="signature")
        empty = columns_in(session, SIGNED, ("id", "signature"), "id", [9], joined="signature")
    assert (ids, signatures, sizes) == ([1, 3, 5], b"\x01" * 4 + b"\x03" * 4 + b"\x05" * 4,
                                        [10, 30, 50])
    assert empty == [[], b""]
