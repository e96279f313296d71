"""search rows partitioned by publication month on PostgreSQL

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-30 07:00:00.000000

`search_document` becomes a table partitioned by range of `published_at` (models/search/
partitions.py): a partition for each month its rows hold (from OLDEST_MONTH), the current
month and the next, and a default partition. The rows are copied as they are (their ids,
terms and vectors) and the indexes built after, a partition at a time; the primary key
and the unique key carry `published_at`, as PostgreSQL asks of a partitioned table's. The
table is locked for writes while it is copied: a crawl's batches wait in its journal. SQLite
keeps its one table and FTS5.
"""

import logging
from collections.abc import Sequence
from datetime import UTC, datetime

from alembic import op
from sqlalchemy import text

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TABLE = "search_document"
_INDEXED = ("page_id", "source_id", "site", "published_at")
_LOG = logging.getLogger("alembic.runtime.migration")


def _take_apart(table: str, unique: Sequence[str]) -> None:
    """Rename the search table to `table` and drop its keys and indexes (their names are
    the new table's), its id sequence no longer owned by it."""
    op.execute(f"ALTER TABLE {_TABLE} RENAME TO {table}")
    op.drop_index("ix_search_document_vector", table_name=table)
    for column in _INDEXED:
        op.drop_index(f"ix_search_document_{column}", table_name=table)
    op.drop_constraint(f"uq_search_document_{'_'.join(unique)}", table, type_="unique")
    op.drop_constraint("pk_search_document", table, type_="primary")
    op.execute("ALTER SEQUENCE search_document_id_seq OWNED BY NONE")


def _fill_from(table: str, primary: Sequence[str], unique: Sequence[str]) -> None:
    """Copy the rows of `table` into the new search table, give it its keys, foreign keys
    and indexes (built once the rows are in), then drop `table`."""
    _LOG.info("copying the search rows")
    op.execute(f"INSERT INTO {_TABLE} SELECT * FROM {table}")
    _LOG.info("building the search table's keys and indexes")
    op.execute("SET LOCAL maintenance_work_mem = '256MB'")
    op.create_primary_key("pk_search_document", _TABLE, list(primary))
    op.create_unique_constraint(f"uq_search_document_{'_'.join(unique)}", _TABLE, list(unique))
    op.create_foreign_key("fk_search_document_page_id_page", _TABLE, "page", ["page_id"],
                          ["id"], ondelete="CASCADE")
    op.create_foreign_key("fk_search_document_source_id_source", _TABLE, "source",
                          ["source_id"], ["id"], ondelete="SET NULL")
    for column in _INDEXED:
        op.create_index(f"ix_search_document_{column}", _TABLE, [column])
    op.create_index("ix_search_document_vector", _TABLE, ["vector"], postgresql_using="gin")
    op.execute(f"DROP TABLE {table} CASCADE")
    op.execute(f"ALTER SEQUENCE search_document_id_seq OWNED BY {_TABLE}.id")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    from models.search.partitions import DEFAULT_PARTITION, attach_month, months_for

    old = "search_document_unpartitioned"
    _take_apart(old, ("kind", "ref_id"))
    op.execute(f"CREATE TABLE {_TABLE} (LIKE {old} INCLUDING DEFAULTS) "
               "PARTITION BY RANGE (published_at)")
    op.execute(f"CREATE TABLE {DEFAULT_PARTITION} PARTITION OF {_TABLE} DEFAULT")
    connection = op.get_bind()
    held = connection.execute(text(
        f"SELECT DISTINCT date_trunc('month', published_at AT TIME ZONE 'UTC') FROM {old}"))
    for month in sorted(months_for((row[0] for row in held), datetime.now(UTC))):
        attach_month(connection, month)
    _fill_from(old, ("id", "published_at"), ("kind", "ref_id", "published_at"))


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    partitioned = "search_document_partitioned"
    _take_apart(partitioned, ("kind", "ref_id", "published_at"))
    op.execute(f"CREATE TABLE {_TABLE} (LIKE {partitioned} INCLUDING DEFAULTS)")
    _fill_from(partitioned, ("id",), ("kind", "ref_id"))
