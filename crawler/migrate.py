"""`python -m crawler migrate`: Alembic `upgrade head` on the configured database; each
migration step is logged as it starts (Alembic's "Running upgrade A -> B"), so a long one
on a large store shows where it is."""

from __future__ import annotations

import argparse
import logging

from alembic import command

from models.db import database_url
from models.schema import alembic_config, shown_url


def upgrade(url: str | None = None) -> str:
    """Create or upgrade the schema; returns the URL migrated."""
    resolved = database_url(url)
    command.upgrade(alembic_config(resolved), "head")
    return resolved


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m crawler migrate")
    parser.add_argument("--database-url", help="default: $DATABASE_URL or the embedded SQLite")
    database = parser.parse_args(argv).database_url
    logging.getLogger("alembic.runtime.migration").setLevel(logging.INFO)
    url = upgrade(database)
    print(f"schema is at head on {shown_url(url)}")
    return 0
