"""Shared fixtures: real PostgreSQL (a throwaway database per session), real Redis."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from models import Base
from models.db import PROJECT_ROOT as ROOT
from models.db import get_engine
from tests import services

# Every crawl of these tests fetches servers on 127.0.0.1, which a crawl refuses unless told;
# the tests of that refusal take it out of their crawl's environment.
os.environ["CRAWL_ALLOW_PRIVATE_ADDRESSES"] = "1"
PG_ADMIN_URL = os.environ.get("TEST_PG_ADMIN_URL",
                              "postgresql+psycopg2://postgres@127.0.0.1:5432/test")


def alembic_config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", url)
    config.attributes["configure_logging"] = False
    return config


@pytest.fixture(scope="session")
def postgres_admin_url() -> str:
    services.ensure_postgres()
    return PG_ADMIN_URL


def _create_database(admin_url: str) -> str:
    name = f"crawler_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


def _drop_database(admin_url: str, url: str) -> None:
    name = make_url(url).database
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def empty_pg_url(postgres_admin_url: str) -> Iterator[str]:
    """A brand-new, empty PostgreSQL database, dropped afterwards."""
    url = _create_database(postgres_admin_url)
    yield url
    _drop_database(postgres_admin_url, url)


@pytest.fixture(scope="session")
def pg_session_url(postgres_admin_url: str) -> Iterator[str]:
    """One migrated PostgreSQL database shared by the session's storage tests."""
    url = _create_database(postgres_admin_url)
    command.upgrade(alembic_config(url), "head")
    yield url
    _drop_database(postgres_admin_url, url)


@pytest.fixture
def pg_url(pg_session_url: str) -> str:
    """The session's migrated database, emptied before each test."""
    engine = create_engine(pg_session_url)
    tables = ", ".join(f'"{table.name}"' for table in Base.metadata.sorted_tables)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    engine.dispose()
    return pg_session_url


@pytest.fixture(scope="session")
def redis_url() -> str:
    services.ensure_redis()
    return "redis://127.0.0.1:6379/0"


@pytest.fixture(params=["postgresql", "sqlite"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty store of each kind: tests that take it run on both."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    url = f"sqlite:///{tmp_path / 'search.sqlite3'}"
    command.upgrade(alembic_config(url), "head")
    return url


@pytest.fixture
def session(store_url: str) -> Iterator[Session]:
    with sessionmaker(get_engine(store_url))() as session:
        yield session
