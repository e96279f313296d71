"""Declarative base and the column types shared by every model."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Dialect, MetaData
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

# JSONB on PostgreSQL (indexable, compact); plain JSON text on SQLite.
JsonColumn = JSON().with_variant(JSONB(), "postgresql")



class UtcDateTime(TypeDecorator[datetime]):
    """An instant: `DateTime(timezone=True)`, stored as UTC on SQLite and read back as an
    aware UTC datetime there (a naive value counts as UTC); PostgreSQL's timestamptz is
    left as it is. SQLite has no zone type and kept each time's wall clock without its
    offset, so one site's times came back on mixed clocks. The DDL is DateTime's."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None or dialect.name != "sqlite" or value.tzinfo is None:
            return value
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None,
                             dialect: Dialect) -> datetime | None:
        if value is None or dialect.name != "sqlite":
            return value
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# Deterministic constraint names, so Alembic migrations match the models on every backend.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    # Every datetime column is an instant (UtcDateTime): one convention on both stores.
    type_annotation_map: dict[Any, Any] = {dict[str, Any]: JsonColumn, list[Any]: JsonColumn,
                                           datetime: UtcDateTime}
