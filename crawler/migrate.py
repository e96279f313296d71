"""`python -m crawler migrate`: Alembic `upgrade head` on the configured database."""

from __future__ import annotations

import argparse

from alembic import command
from alembic.config import Config

from models.db import PROJECT_ROOT, database_url


def upgrade(url: str | None = None) -> str:
    """Create or upgrade the schema; returns the URL migrated."""
    resolved = database_url(url)
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", resolved)
    config.attributes["configure_logging"] = False
    command.upgrade(config, "head")
    return resolved


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m crawler migrate")
    parser.add_argument("--database-url", help="default: $DATABASE_URL or the embedded SQLite")
    url = upgrade(parser.parse_args(argv).database_url)
    print(f"schema is at head on {url.split('@')[-1]}")
    return 0
