"""The search index's rows: one per article, comment and list record, with its filters.

Rows are derived data: `models.search.index` rebuilds a page's rows whenever the store
writes the page, so they never need a migration of their own data. On PostgreSQL `vector`
is the tsvector of the terms (title weighted above text) under a GIN index and the terms
columns stay empty; on SQLite `vector` stays empty and an FTS5 table over the terms
columns (`search_fts`, created by the migration) does that work.

On PostgreSQL the table is partitioned by publication month (models/search/partitions.py),
and its primary and unique keys hold `published_at` too, as a partitioned table's must (the
ids stay unique: one sequence gives them). The partitions are the migration's and
`ensure_months`'s; the models describe the parent table.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base

KINDS = ("article", "comment", "record")
FTS_TABLE = "search_fts"


class SearchDocument(Base):
    """One searchable thing: `kind` names its table and `ref_id` its row there."""

    __tablename__ = "search_document"
    __table_args__ = (UniqueConstraint("kind", "ref_id").ddl_if(dialect="sqlite"),
                      UniqueConstraint("kind", "ref_id", "published_at")
                      .ddl_if(dialect="postgresql"),
                      Index("ix_search_document_vector", "vector", postgresql_using="gin")
                      .ddl_if(dialect="postgresql"))

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    ref_id: Mapped[int]
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    source_id: Mapped[int | None] = mapped_column(
        ForeignKey("source.id", ondelete="SET NULL"), index=True)
    site: Mapped[str] = mapped_column(String(255), index=True)
    page_type: Mapped[str | None] = mapped_column(String(20))
    language: Mapped[str | None] = mapped_column(String(16))
    # The time the thing says it was published, else when the crawl first saw its page.
    published_at: Mapped[datetime] = mapped_column(index=True)
    title_terms: Mapped[str] = mapped_column(Text, default="")
    text_terms: Mapped[str] = mapped_column(Text, default="")
    vector: Mapped[str | None] = mapped_column(TSVECTOR().with_variant(Text(), "sqlite"))


# What exists on one store only (Alembic's comparison does not read `ddl_if`).
PG_ONLY = frozenset({"ix_search_document_vector", "uq_search_document_kind_ref_id_published_at"})
SQLITE_ONLY = frozenset({"uq_search_document_kind_ref_id"})


def is_modelled(dialect: str) -> Callable[..., bool]:
    """Alembic's `include_object` for a database of `dialect`: what the models describe
    there. SQLite's FTS5 tables and PostgreSQL's partitions of the search table are made by
    the migrations and the store alone, and some keys and indexes exist on one store."""

    def include(item: Any, name: str | None, type_: str, *_: Any) -> bool:
        if type_ == "table":
            return not str(name).startswith((FTS_TABLE, f"{SearchDocument.__tablename__}_"))
        return name not in (SQLITE_ONLY if dialect == "postgresql" else PG_ONLY)

    return include
