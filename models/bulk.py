"""Inserting many rows in one statement with little work per row in Python.

SQLAlchemy's executemany of a Core INSERT processes each row's parameters in Python (about
20 µs a row: the index's rows and the stories' band keys, ≈ 40 rows a stored page, were a
third of a page's write). On PostgreSQL the rows go as one array per column instead,
unpacked by `unnest`, each array as one literal (`pg_array`: psycopg2 adapts a list element
by element); on SQLite as many rows a statement as
its bound parameters allow (`_values`), each value through its column type's bind processor
first (dates are stored as SQLAlchemy writes them); other databases take the Core
executemany.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from itertools import chain
from typing import Any

import numpy as np
from sqlalchemy import Table, bindparam, insert, text
from sqlalchemy.orm import Session

_PARAMETERS = 900  # bound parameters per statement (SQLite's limit is the tightest)


def insert_rows(session: Session, table: Table, columns: Sequence[str],
                rows: Sequence[Sequence[Any]],
                expressions: Mapping[str, str] | None = None) -> None:
    """Insert `rows` (tuples in `columns` order) into `table`. On PostgreSQL `expressions`
    may give a column's value as SQL over the unpacked row's columns (named as `columns`);
    a column named only there is not a column of the rows."""
    if not rows:
        return
    dialect = session.get_bind().dialect
    if dialect.name == "sqlite":
        _sqlite_rows(session, table, columns, rows)
        return
    if dialect.name != "postgresql":
        session.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in rows])
        return
    _unnested(session, table, {name: [row[index] for row in rows]
                               for index, name in enumerate(columns)}, expressions)


def insert_columns(session: Session, table: Table, values: Mapping[str, Sequence[Any]]
                   ) -> None:
    """`insert_rows` for rows given as columns (column name → its values, all one length):
    on PostgreSQL each column is its array as it is, with no rows built and taken apart."""
    if session.get_bind().dialect.name == "postgresql":
        if any(map(len, values.values())):
            _unnested(session, table, values)
        return
    insert_rows(session, table, list(values), list(zip(*values.values(), strict=True)))


def _unnested(session: Session, table: Table, values: Mapping[str, Sequence[Any]],
              expressions: Mapping[str, str] | None = None) -> None:
    """PostgreSQL's insert of columns (name → values), each one array unpacked by `unnest`."""
    dialect = session.get_bind().dialect
    columns = list(values)
    expressions = dict(expressions or {})
    targets = [*columns, *(name for name in expressions if name not in columns)]
    arrays = ", ".join(f"CAST(:c{index} AS {table.c[name].type.compile(dialect)}[])"
                       for index, name in enumerate(columns))
    statement = text(
        f"INSERT INTO {table.name} ({', '.join(targets)}) "
        f"SELECT {', '.join(expressions.get(name, f'r.{name}') for name in targets)} "
        f"FROM unnest({arrays}) AS r({', '.join(columns)})"
    ).bindparams(*(bindparam(f"c{index}") for index in range(len(columns))))
    session.execute(statement, {f"c{index}": pg_array(values[name])
                                for index, name in enumerate(columns)})


def _element(value: Any) -> str:
    """One value of a PostgreSQL array literal, quoted but for NULL and numbers (a string
    holds any character but NUL, which no PostgreSQL text holds either)."""
    if value is None:
        return "NULL"
    if type(value) is int:
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f'"\\\\x{bytes(value).hex()}"'  # bytea's hex input, its backslash escaped
    if isinstance(value, datetime | date):
        value = value.isoformat()
    if not isinstance(value, str):
        raise TypeError(value)
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def pg_array(values: Sequence[Any]) -> str | list[Any]:
    """`values` as one PostgreSQL array literal ('{1,"a",NULL}'), for a parameter the
    statement casts to an array type: psycopg2 adapts a list element by element, about 4 µs
    each (a pass's band rows, 32 an article, cost the worker 0.076 ms a demo page, now
    0.005), and a string once. Integers, strings, bytes, times and
    None are written; a list of anything else is left to the driver."""
    if all(type(value) is int for value in values):  # the common case: ids and keys
        return "{" + ",".join(map(str, values)) + "}"
    try:
        return "{" + ",".join(map(_element, values)) + "}"
    except TypeError:
        return list(values)


def _sqlite_rows(session: Session, table: Table, columns: Sequence[str],
                 rows: Sequence[Sequence[Any]]) -> None:
    dialect = session.get_bind().dialect
    processors = [(index, processor) for index, name in enumerate(columns)
                  if (processor := table.c[name].type.dialect_impl(dialect)
                      .bind_processor(dialect)) is not None]
    _values(session, f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES {{}}",
            [_processed(row, processors) for row in rows] if processors else rows)


def _values(session: Session, statement: str, rows: Sequence[Sequence[Any]]
            ) -> list[tuple[Any, ...]]:
    """Execute `statement` (its `{}` a VALUES list) over `rows` (tuples of one length), as
    many rows a statement as _PARAMETERS allows: the driver's executemany steps a statement a
    row, which cost SQLite as much again as inserting the rows (its story rows a pass).
    Returns the rows the statements return (RETURNING), if any."""
    connection = session.connection()
    marker = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    row = f"({', '.join(marker for _ in rows[0])})"
    per = _PARAMETERS // len(rows[0])
    returned: list[tuple[Any, ...]] = []
    for start in range(0, len(rows), per):
        chunk = rows[start:start + per]
        result = connection.exec_driver_sql(statement.format(", ".join([row] * len(chunk))),
                                            tuple(chain.from_iterable(chunk)))
        if result.returns_rows:
            returned += [tuple(found) for found in result.all()]
    return returned


def _processed(row: Sequence[Any], processors: list[tuple[int, Any]]) -> tuple[Any, ...]:
    values = list(row)
    for index, processor in processors:
        values[index] = processor(values[index])
    return tuple(values)


def select_in(session: Session, table: Table, columns: Sequence[str], key: str,
              values: Sequence[Any], condition: str = "TRUE") -> list[tuple[Any, ...]]:
    """`columns` of the rows of `table` whose `key` is one of `values` (plain values, e.g.
    integers: no type processing) and that meet `condition` (SQL over the table's columns,
    written by the caller). SQLAlchemy renders an IN list value by value (about 20 µs each:
    the story candidates' thousands of band keys a pass); here PostgreSQL takes one array
    (`= ANY`) and other databases the driver's own placeholders, 900 at a time (SQLite's
    bound-parameter limit)."""
    selected = ", ".join(columns)
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        return [tuple(row) for row in connection.execute(
            text(f"SELECT {selected} FROM {table.name} WHERE {key} = ANY(:values) "
                 f"AND {condition}"), {"values": pg_array(list(values))}).all()]
    return _in_chunks(session, f"SELECT {selected} FROM {table.name} WHERE {key} IN ({{}}) "
                               f"AND {condition}", values)


def columns_in(session: Session, table: Table, columns: Sequence[str], key: str,
               values: Sequence[Any], condition: str = "TRUE", joined: str | None = None
               ) -> list[list[Any]]:
    """`select_in`'s rows as columns (a list each, in `key` order), the binary column
    `joined` (if any) as one `bytes`, its values end to end: for many rows of a few columns
    (the story candidates' signatures). On PostgreSQL one row of aggregates, parsed by the
    driver in C (a result row each, through SQLAlchemy, cost more than reading it); other
    databases `select_in`'s rows turned."""
    if session.connection().dialect.name != "postgresql":
        rows = sorted(select_in(session, table, columns, key, values, condition),
                      key=lambda row: row[columns.index(key)])
        found = [[row[index] for row in rows] for index in range(len(columns))]
        if joined is not None:
            found[columns.index(joined)] = b"".join(map(bytes, found[columns.index(joined)]))
        return found
    aggregates = ", ".join(
        f"string_agg({name}, ''::bytea ORDER BY {key})" if name == joined
        else f"array_agg({name} ORDER BY {key})" for name in columns)
    row = session.connection().execute(
        text(f"SELECT {aggregates} FROM {table.name} WHERE {key} = ANY(:values) "
             f"AND {condition}"), {"values": pg_array(list(values))}).one()
    return [bytes(value or b"") if name == joined else list(value or [])
            for name, value in zip(columns, row, strict=True)]


def _in_chunks(session: Session, statement: str, values: Sequence[Any]
               ) -> list[tuple[Any, ...]]:
    """The rows of `statement`, whose `{}` is a list of values, run with the driver's own
    placeholders for _PARAMETERS of `values` at a time (SQLite's bound-parameter limit)."""
    connection = session.connection()
    marker = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    found: list[tuple[Any, ...]] = []
    for start in range(0, len(values), _PARAMETERS):
        chunk = tuple(values[start:start + _PARAMETERS])
        found += [tuple(row) for row in connection.exec_driver_sql(
            statement.replace("{}", ", ".join(marker for _ in chunk)), chunk).all()]
    return found


def add_counts(session: Session, table: Table, key: str, count: str,
               counts: Mapping[int, int]) -> dict[int, int]:
    """Add `counts` (key → amount) to `table`'s `count` column, inserting missing keys: one
    upsert (`ON CONFLICT … DO UPDATE`, both PostgreSQL and SQLite) in key order, so two
    writers adding to the same keys take their row locks in the same order. Returns each
    key's count after the addition (RETURNING: the caller need not read them again)."""
    if not counts:
        return {}
    rows = sorted(counts.items())
    upsert = (f"INSERT INTO {table.name} ({key}, {count}) {{}} ON CONFLICT ({key}) "
              f"DO UPDATE SET {count} = {table.name}.{count} + excluded.{count} "
              f"RETURNING {key}, {count}")
    connection = session.connection()
    if connection.dialect.name == "postgresql":  # the counts back as two arrays: a result
        unpacked = "SELECT * FROM unnest(CAST(:keys AS bigint[]), CAST(:counts AS integer[]))"
        keys, totals = connection.execute(  # row a key cost more than the upsert itself
            text(f"WITH added AS ({upsert.format(unpacked)}) "
                 f"SELECT array_agg({key}), array_agg({count}) FROM added"),
            {"keys": pg_array([row[0] for row in rows]),
             "counts": pg_array([row[1] for row in rows])}).one()
        return dict(zip(keys, totals, strict=True))
    return dict(_values(session, upsert.format("VALUES {}"), rows))


def newest_in(session: Session, table: Table, key: str, column: str, values: Sequence[int],
              limit: int, carried: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(key, column, carried) of the rows of `table` whose integer `key` is one of `values`:
    for each key the `limit` rows with the largest `column`, so a key shared by thousands of
    rows costs no more than a rare one; key and column as int64 arrays, the nullable integer
    `carried` as float64 (NaN: NULL). An index on (key, column) that includes `carried`
    answers it: on PostgreSQL a backward index scan each key stops after `limit` entries (a
    lateral join over the array), its rows returned as arrays (a result row each cost more
    than the scan); other databases rank the keys' rows (a window), 900 keys at a time."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        kind = table.c[key].type.compile(dialect=connection.dialect)
        rows = connection.execute(text(
            f"SELECT array_agg(wanted.key), array_agg(newest.{column}), "
            f"array_agg(newest.{carried}) "
            f"FROM unnest(CAST(:values AS {kind}[])) AS wanted(key) CROSS JOIN LATERAL "
            f"(SELECT {column}, {carried} FROM {table.name} WHERE {key} = wanted.key "
            f"ORDER BY {column} DESC LIMIT :limit) AS newest"),
            {"values": pg_array(list(values)), "limit": limit}).one()
        keys, found, extra = (column_values or [] for column_values in rows)
    else:
        ranked = _in_chunks(session, f"SELECT {key}, {column}, {carried} FROM (SELECT {key}, "
                                     f"{column}, {carried}, row_number() OVER (PARTITION BY "
                                     f"{key} ORDER BY {column} DESC) AS rank FROM {table.name} "
                                     f"WHERE {key} IN ({{}})) AS ranked "
                                     f"WHERE rank <= {int(limit)}", values)
        keys, found, extra = ([row[n] for row in ranked] for n in range(3))
    return (np.array(keys, dtype=np.int64), np.array(found, dtype=np.int64),
            np.array(extra, dtype=np.float64))  # None becomes NaN
