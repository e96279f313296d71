"""Alembic environment: migrate whichever database DATABASE_URL names."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context

from models import Base
from models.db import get_engine
from models.search.document import is_modelled

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def run_migrations_offline() -> None:
    context.configure(url=str(get_engine(config.get_main_option("sqlalchemy.url")).url),
                      target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        with get_engine(config.get_main_option("sqlalchemy.url")).connect() as connection:
            _run(connection)
    else:
        _run(connection)


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    # Batch mode lets SQLite alter tables (it rebuilds them); a no-op on PostgreSQL.
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True, compare_type=True,
                      include_object=is_modelled(connection.dialect.name))
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
