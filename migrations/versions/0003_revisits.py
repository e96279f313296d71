"""revisits: the page's revisit schedule and validators, thread pages, comment identity,
article versions

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27 19:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("page", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_visit_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("revisit_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("visits", sa.Integer(), server_default="1",
                                      nullable=False))
        batch_op.add_column(sa.Column("last_changed_at", sa.DateTime(timezone=True),
                                      nullable=True))
        batch_op.add_column(sa.Column("etag", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("last_modified", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("body_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("thread_url", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("thread_page", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_page_next_visit_at"), ["next_visit_at"],
                              unique=False)
    with op.batch_alter_table("article", schema=None) as batch_op:
        batch_op.add_column(sa.Column("body_seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "article_version",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("body_text", sa.Text(), nullable=False),
        sa.Column("body_html", sa.Text(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("replaced_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["article_id"], ["article.id"],
                                name=op.f("fk_article_version_article_id_article"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_article_version")),
    )
    with op.batch_alter_table("article_version", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_article_version_article_id"), ["article_id"],
                              unique=False)
    # Comments stored before identities existed keep their place as their identity.
    with op.batch_alter_table("comment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("key", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("page_number", sa.Integer(), server_default="1",
                                      nullable=False))
        batch_op.add_column(sa.Column("first_seen_at", sa.DateTime(timezone=True),
                                      nullable=True))
        batch_op.add_column(sa.Column("edited_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("gone_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE comment SET key = 'position:' || position")
    with op.batch_alter_table("comment", schema=None) as batch_op:
        batch_op.alter_column("key", existing_type=sa.String(length=200), nullable=False)
        batch_op.drop_constraint(batch_op.f("uq_comment_article_id_position"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_comment_article_id_key"),
                                          ["article_id", "key"])


def downgrade() -> None:
    with op.batch_alter_table("comment", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_comment_article_id_key"), type_="unique")
    # Gone comments and later thread pages' posts held positions the old constraint refuses.
    op.execute("DELETE FROM comment WHERE gone_at IS NOT NULL OR page_number <> 1")
    with op.batch_alter_table("comment", schema=None) as batch_op:
        batch_op.create_unique_constraint(batch_op.f("uq_comment_article_id_position"),
                                          ["article_id", "position"])
        batch_op.drop_column("gone_at")
        batch_op.drop_column("edited_at")
        batch_op.drop_column("first_seen_at")
        batch_op.drop_column("page_number")
        batch_op.drop_column("key")
    with op.batch_alter_table("article_version", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_article_version_article_id"))
    op.drop_table("article_version")
    with op.batch_alter_table("article", schema=None) as batch_op:
        batch_op.drop_column("body_seen_at")
    with op.batch_alter_table("page", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_page_next_visit_at"))
        for column in ("thread_page", "thread_url", "body_hash", "last_modified", "etag",
                       "last_changed_at", "visits", "revisit_seconds", "next_visit_at"):
            batch_op.drop_column(column)
