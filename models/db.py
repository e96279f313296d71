"""Where the database is and how to open it: one engine per process, from DATABASE_URL."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SQLITE = PROJECT_ROOT / "var" / "crawler.sqlite3"


def database_url(explicit: str | None = None) -> str:
    """The configured URL: an explicit value, else $DATABASE_URL, else the embedded SQLite file."""
    url = explicit or os.environ.get("DATABASE_URL")
    if url:
        return url
    DEFAULT_SQLITE.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{DEFAULT_SQLITE}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")  # readers do not block the crawler's writes
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


# libpq connection parameters: a tuple of (name, value) pairs, so engines can be cached by them.
ConnectOptions = tuple[tuple[str, object], ...]


@cache
def get_engine(url: str | None = None, options: ConnectOptions = ()) -> Engine:
    """One pooled engine per URL and connection options per process; pre-ping so a
    restarted server is noticed. `options` are libpq's (timeouts, keepalives), ignored by
    SQLite."""
    resolved = database_url(url)
    if resolved.startswith("sqlite"):
        engine = create_engine(resolved)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(resolved, pool_pre_ping=True, pool_size=5, max_overflow=5,
                         connect_args={"connect_timeout": 5, **dict(options)})


def session_factory(url: str | None = None, options: ConnectOptions = ()) -> sessionmaker[Session]:
    return sessionmaker(get_engine(url, options), expire_on_commit=False)
