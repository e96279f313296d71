"""Both stores, migrated: every search test runs the same queries on each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy.orm import Session, sessionmaker

from models.db import get_engine
from tests.integration.conftest import alembic_config


@pytest.fixture(params=["postgresql", "sqlite"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    url = f"sqlite:///{tmp_path / 'search.sqlite3'}"
    command.upgrade(alembic_config(url), "head")
    return url


@pytest.fixture
def session(store_url: str) -> Iterator[Session]:
    with sessionmaker(get_engine(store_url))() as session:
        yield session
