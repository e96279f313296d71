"""bench.filled: a store of N grouped articles filled once, kept as a template, copied, and
migrated when the schema moves on."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bench import filled
from bench.filled import ensure_template, filled_copy, template_name
from models.schema import alembic_config
from tests.integration.bench import CORPUS


@pytest.fixture
def prefix(postgres_admin_url: str) -> Iterator[str]:
    prefix = f"test_filled_{uuid.uuid4().hex[:8]}"
    yield prefix
    with create_engine(postgres_admin_url, isolation_level="AUTOCOMMIT").connect() as admin:
        names = admin.execute(text("SELECT datname FROM pg_database WHERE datname LIKE :p"),
                              {"p": f"{prefix}%"}).scalars().all()
        for name in names:
            admin.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))


def _counts(url: str) -> tuple[int, int, int]:
    with create_engine(url).connect() as connection:
        return tuple(connection.execute(text(
            "SELECT (SELECT count(*) FROM article), (SELECT count(*) FROM article_story),"
            " (SELECT last_value FROM article_id_seq)")).one())


def test_the_template_is_filled_once_grouped_and_copied(postgres_admin_url: str, prefix: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filled, "PASS_GROUPED", 12)  # the pass groups 12, the rest are signed
    name = ensure_template(30, postgres_admin_url, prefix, CORPUS)
    assert name == template_name(30, prefix)
    copy = filled_copy(30, f"{prefix}_copy", postgres_admin_url, prefix, CORPUS)
    assert make_url(copy).database == f"{prefix}_copy"
    assert _counts(copy) == (30, 30, 30)  # every article grouped; new ids come after them
    with create_engine(copy).connect() as connection:
        own, with_signature, banded = connection.execute(text(
            "SELECT count(*) FILTER (WHERE s.story_id = s.article_id),"
            " count(*) FILTER (WHERE s.signature IS NOT NULL),"
            " count(*) FILTER (WHERE EXISTS (SELECT 1 FROM story_band b"
            " WHERE b.article_id = s.article_id)) FROM article_story s"
            " WHERE s.article_id > (SELECT min(article_id) + 11 FROM article_story)")).one()
        # each its own story, signed (a text too short has none) and banded as the pass does
        assert own == 18 and banded == with_signature > 12
        assert connection.scalar(text("SELECT count(*) FROM pg_indexes"
                                      " WHERE indexname = 'ix_story_band_bucket_article'")) == 1
        # dated as the pass dates them (the fill's articles all have a publication)
        assert connection.scalar(text(
            "SELECT count(*) FROM story_band b JOIN article a ON a.id = b.article_id WHERE "
            "b.published_day IS DISTINCT FROM "
            "floor(extract(epoch FROM a.published_at) / 86400)::integer")) == 0
    with create_engine(copy).begin() as connection:  # a copy's writes stay in the copy
        connection.execute(text("DELETE FROM article_story"))
    assert ensure_template(30, postgres_admin_url, prefix, CORPUS) == name  # kept: not filled again
    template = make_url(postgres_admin_url).set(database=name).render_as_string(False)
    assert _counts(template) == (30, 30, 30)


def test_a_template_not_marked_complete_is_filled_again(postgres_admin_url: str,
                                                         prefix: str) -> None:
    name = ensure_template(20, postgres_admin_url, prefix, CORPUS)
    with create_engine(postgres_admin_url, isolation_level="AUTOCOMMIT").connect() as admin:
        admin.execute(text(f'COMMENT ON DATABASE "{name}" IS NULL'))  # a fill stopped midway
    template = make_url(postgres_admin_url).set(database=name).render_as_string(False)
    with create_engine(template).begin() as connection:
        connection.execute(text("DELETE FROM article_story"))
    ensure_template(20, postgres_admin_url, prefix, CORPUS)
    assert _counts(template) == (20, 20, 20)


def test_a_template_at_an_earlier_schema_is_migrated_not_filled_again(
        postgres_admin_url: str, prefix: str) -> None:
    name = ensure_template(20, postgres_admin_url, prefix, CORPUS)
    template = make_url(postgres_admin_url).set(database=name).render_as_string(False)
    command.downgrade(alembic_config(template), "-1")
    with create_engine(template).begin() as connection:
        earlier = connection.scalar(text("SELECT version_num FROM alembic_version"))
        connection.execute(text(f"COMMENT ON DATABASE \"{name}\" IS 'filled 20 at {earlier}'"))
        connection.execute(text("DELETE FROM article_story"))  # a new fill would group them
    assert ensure_template(20, postgres_admin_url, prefix, CORPUS) == name
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    with create_engine(template).connect() as connection:
        assert connection.scalar(text("SELECT version_num FROM alembic_version")) == head
        assert connection.scalar(text("SELECT count(*) FROM article_story")) == 0  # not refilled
    with create_engine(postgres_admin_url).connect() as admin:
        assert admin.execute(text("SELECT shobj_description(oid, 'pg_database') FROM "
                                  "pg_database WHERE datname = :n"), {"n": name}
                             ).scalar() == f"filled 20 at {head}"
