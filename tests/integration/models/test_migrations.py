"""`alembic upgrade head` on an empty database yields exactly the models, on both backends."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from models import Base
from models.schema import alembic_config
from models.search.document import is_modelled


def _differences(url: str) -> list[object]:
    engine = create_engine(url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={
            "compare_type": True,
            "include_object": is_modelled(connection.dialect.name)})
        diff = compare_metadata(context, Base.metadata)
    engine.dispose()
    return diff


def test_upgrade_head_matches_models_on_postgresql(empty_pg_url: str) -> None:
    command.upgrade(alembic_config(empty_pg_url), "head")
    assert _differences(empty_pg_url) == []


def test_upgrade_head_matches_models_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    command.upgrade(alembic_config(url), "head")
    assert _differences(url) == []


def test_downgrade_to_base_removes_every_table(empty_pg_url: str) -> None:
    config = alembic_config(empty_pg_url)
    command.upgrade(config, "head")
    command.downgrade(config, "base")
    engine = create_engine(empty_pg_url)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    engine.dispose()
