"""Is a database ready to be written? Its Alembic revision against the code's head.

Every command that writes calls `check_schema` once at start, so that a database that was
never migrated (or is behind the code) is one clear line telling the user what to run,
not a crawl of warnings and unwritable journal segments.
"""

from __future__ import annotations

from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from models.db import PROJECT_ROOT, database_url, get_engine

MIGRATE = "python -m crawler migrate"


class DatabaseNotReady(Exception):
    """The database cannot take writes; the message is one line saying what to do."""


class DatabaseUnreachable(DatabaseNotReady):
    """No connection to the database (server down, wrong host or credentials)."""


class SchemaMissing(DatabaseNotReady):
    """The database has no schema: it was never migrated."""


class SchemaOutdated(DatabaseNotReady):
    """The database's schema revision is not the code's head."""


def alembic_config(url: str | None = None) -> Config:
    """The project's Alembic configuration pointed at `url` (default: the configured one)."""
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", database_url(url))
    config.attributes["configure_logging"] = False
    return config


def shown_url(url: str | None = None) -> str:
    """The database URL as it may be printed: without its password."""
    return make_url(database_url(url))._replace(password=None).render_as_string()


def reason(error: SQLAlchemyError) -> str:
    """The first line of the driver's message: what went wrong, without SQL or a traceback."""
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def check_schema(url: str | None = None) -> None:
    """Return if the database at `url` is at the head revision, else raise DatabaseUnreachable,
    SchemaMissing or SchemaOutdated with a one-line message naming the database."""
    where = shown_url(url)
    script = ScriptDirectory.from_config(alembic_config(url))
    try:
        with get_engine(url).connect() as connection:
            current = set(MigrationContext.configure(connection).get_current_heads())
    except SQLAlchemyError as error:
        raise DatabaseUnreachable(f"the database {where} is unreachable ({reason(error)})") \
            from error
    heads = set(script.get_heads())
    if not current:
        raise SchemaMissing(f"the database {where} has no schema: run `{MIGRATE}`")
    if current != heads:
        revisions = ", ".join(sorted(current))
        if all(_known(script, revision) for revision in current):
            raise SchemaOutdated(f"the database {where} is at schema revision {revisions}, "
                                 f"behind this code's {', '.join(sorted(heads))}: run `{MIGRATE}`")
        raise SchemaOutdated(f"the database {where} is at schema revision {revisions}, which "
                             "this code does not know (newer code migrated it): update the code")


def _known(script: ScriptDirectory, revision: str) -> bool:
    try:
        return script.get_revision(revision) is not None
    except CommandError:
        return False
