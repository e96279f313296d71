"""search index

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27 19:40:00

The index starts empty: `python -m crawler reindex` fills it for rows stored before.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# SQLite: an external-content FTS5 table over the index rows, kept by triggers.
_FTS = [
    "CREATE VIRTUAL TABLE search_fts USING fts5(title_terms, text_terms, "
    "content='search_document', content_rowid='id')",
    "CREATE TRIGGER search_fts_insert AFTER INSERT ON search_document BEGIN "
    "INSERT INTO search_fts(rowid, title_terms, text_terms) "
    "VALUES (new.id, new.title_terms, new.text_terms); END",
    "CREATE TRIGGER search_fts_delete AFTER DELETE ON search_document BEGIN "
    "INSERT INTO search_fts(search_fts, rowid, title_terms, text_terms) "
    "VALUES ('delete', old.id, old.title_terms, old.text_terms); END",
    "CREATE TRIGGER search_fts_update AFTER UPDATE ON search_document BEGIN "
    "INSERT INTO search_fts(search_fts, rowid, title_terms, text_terms) "
    "VALUES ('delete', old.id, old.title_terms, old.text_terms); "
    "INSERT INTO search_fts(rowid, title_terms, text_terms) "
    "VALUES (new.id, new.title_terms, new.text_terms); END",
]


def upgrade() -> None:
    op.create_table(
        "search_document",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("ref_id", sa.Integer(), nullable=False),
        sa.Column("page_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.Column("site", sa.String(length=255), nullable=False),
        sa.Column("page_type", sa.String(length=20), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("title_terms", sa.Text(), nullable=False),
        sa.Column("text_terms", sa.Text(), nullable=False),
        sa.Column("vector", postgresql.TSVECTOR().with_variant(sa.Text(), "sqlite"),
                  nullable=True),
        sa.ForeignKeyConstraint(["page_id"], ["page.id"],
                                name=op.f("fk_search_document_page_id_page"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["source_id"], ["source.id"],
                                name=op.f("fk_search_document_source_id_source"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_document")),
        sa.UniqueConstraint("kind", "ref_id", name=op.f("uq_search_document_kind_ref_id")),
    )
    for column in ("page_id", "source_id", "site", "published_at"):
        op.create_index(op.f(f"ix_search_document_{column}"), "search_document", [column])
    if op.get_bind().dialect.name == "postgresql":
        op.create_index("ix_search_document_vector", "search_document", ["vector"],
                        postgresql_using="gin")
    else:
        for statement in _FTS:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        op.execute("DROP TABLE IF EXISTS search_fts")
    op.drop_table("search_document")
