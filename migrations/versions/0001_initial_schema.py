"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-21 16:18:39.509288
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "site_template",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("url_pattern", sa.Text(), nullable=False),
        sa.Column(
            "template",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("learned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pages_matched", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_site_template")),
        sa.UniqueConstraint("host", "url_pattern", name=op.f("uq_site_template_host_url_pattern")),
    )
    op.create_table(
        "source",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column(
            "start_urls",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "allowed_domains",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("max_pages", sa.Integer(), nullable=True),
        sa.Column("max_depth", sa.Integer(), nullable=True),
        sa.Column("interval_seconds", sa.Integer(), nullable=True),
        sa.Column("cron", sa.String(length=100), nullable=True),
        sa.Column(
            "page_type_rules",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "settings",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("last_scheduled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_source")),
        sa.UniqueConstraint("name", name=op.f("uq_source_name")),
    )
    op.create_table(
        "crawl_run",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("spider", sa.String(length=100), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column(
            "stats",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("note", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["source.id"],
            name=op.f("fk_crawl_run_source_id_source"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_crawl_run")),
    )
    with op.batch_alter_table("crawl_run", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_crawl_run_source_id"), ["source_id"], unique=False)

    op.create_table(
        "page",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("final_url", sa.Text(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("encoding", sa.String(length=40), nullable=True),
        sa.Column("page_type", sa.String(length=20), nullable=True),
        sa.Column("type_confidence", sa.Float(), nullable=True),
        sa.Column("type_decided_by", sa.String(length=200), nullable=True),
        sa.Column(
            "type_candidates",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("next_page_url", sa.Text(), nullable=True),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.Column("crawl_run_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["crawl_run_id"],
            ["crawl_run.id"],
            name=op.f("fk_page_crawl_run_id_crawl_run"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_page_source_id_source"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_page")),
        sa.UniqueConstraint("url", name=op.f("uq_page_url")),
    )
    with op.batch_alter_table("page", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_page_crawl_run_id"), ["crawl_run_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_page_page_type"), ["page_type"], unique=False)
        batch_op.create_index(batch_op.f("ix_page_source_id"), ["source_id"], unique=False)

    op.create_table(
        "article",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("page_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("author", sa.Text(), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("published_raw", sa.Text(), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("body_text", sa.Text(), nullable=False),
        sa.Column("body_html", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["page_id"], ["page.id"], name=op.f("fk_article_page_id_page"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_article")),
        sa.UniqueConstraint("page_id", name=op.f("uq_article_page_id")),
    )
    with op.batch_alter_table("article", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_article_published_at"), ["published_at"], unique=False)

    op.create_table(
        "list_record",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("page_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("date", sa.DateTime(timezone=True), nullable=True),
        sa.Column("date_raw", sa.Text(), nullable=True),
        sa.Column("snippet", sa.Text(), nullable=True),
        sa.Column(
            "extra",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["page_id"], ["page.id"], name=op.f("fk_list_record_page_id_page"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_list_record")),
        sa.UniqueConstraint("page_id", "position", name=op.f("uq_list_record_page_id_position")),
    )
    with op.batch_alter_table("list_record", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_list_record_url"), ["url"], unique=False)

    op.create_table(
        "comment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("author", sa.Text(), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["article_id"],
            ["article.id"],
            name=op.f("fk_comment_article_id_article"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_comment")),
        sa.UniqueConstraint("article_id", "position", name=op.f("uq_comment_article_id_position")),
    )


def downgrade() -> None:
    op.drop_table("comment")
    with op.batch_alter_table("list_record", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_list_record_url"))

    op.drop_table("list_record")
    with op.batch_alter_table("article", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_article_published_at"))

    op.drop_table("article")
    with op.batch_alter_table("page", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_page_source_id"))
        batch_op.drop_index(batch_op.f("ix_page_page_type"))
        batch_op.drop_index(batch_op.f("ix_page_crawl_run_id"))

    op.drop_table("page")
    with op.batch_alter_table("crawl_run", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_crawl_run_source_id"))

    op.drop_table("crawl_run")
    op.drop_table("source")
    op.drop_table("site_template")
