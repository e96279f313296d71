"""A PostgreSQL store that already holds N generated articles, grouped into stories as a
crawl leaves its store, for measuring what a page costs on a large store.

Filling a million takes over an hour (bench.search's loader, the GIN build, then the
store's own grouping pass over every article), so the filled store is kept between runs
as a template database, `bench_filled_<N>`, and each measurement works on a copy of it
(`CREATE DATABASE … TEMPLATE`, a file copy: minutes). The template is marked complete
with its schema revision once filled; one that is incomplete (a fill stopped half-way)
or at another revision is filled again.

    python -m bench.filled 1000000     # fill the template now (a later bench copies it)
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, make_url

from bench.search import generate
from crawler.migrate import upgrade
from models.schema import alembic_config

ADMIN_URL = "postgresql+psycopg2://postgres@127.0.0.1:5432/test"


def template_name(count: int, prefix: str = "bench_filled") -> str:
    return f"{prefix}_{count}"


def _mark(count: int) -> str:
    """The comment a complete template carries: its size and the schema's head revision."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    return f"filled {count} at {head}"


def _comment(connection: Connection, database: str) -> str | None:
    return connection.execute(text(
        "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = :name"),
        {"name": database}).scalar()


def _url(admin_url: str, database: str) -> str:
    return make_url(admin_url).set(database=database).render_as_string(hide_password=False)


def ensure_template(count: int, admin_url: str = ADMIN_URL, prefix: str = "bench_filled"
                    ) -> str:
    """The complete template holding `count` grouped articles, filled first if need be;
    returns its name."""
    name = template_name(count, prefix)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        if _comment(connection, name) == _mark(count):
            return name
        print(f"filling {name} ({count:,} grouped articles): over an hour at a million",
              file=sys.stderr)
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = _url(admin_url, name)
    upgrade(url)
    started = time.perf_counter()
    timings = generate(url, count, group=True)
    fill = create_engine(url, isolation_level="AUTOCOMMIT")
    with fill.connect() as connection:
        for table in ("page", "article"):
            connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                    f"(SELECT max(id) FROM {table}))"))
        connection.execute(text("VACUUM ANALYZE"))
    fill.dispose()
    timings["fill_s"] = time.perf_counter() - started
    print(json.dumps(timings), file=sys.stderr)
    with admin.connect() as connection:
        connection.execute(text(f"COMMENT ON DATABASE \"{name}\" IS '{_mark(count)}'"))
    admin.dispose()
    return name


def filled_copy(count: int, database: str, admin_url: str = ADMIN_URL,
                prefix: str = "bench_filled") -> str:
    """A new database `database` holding the template's `count` grouped articles (the
    template filled first if need be); returns its URL."""
    template = ensure_template(count, admin_url, prefix)
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        # a copy needs the template idle: a pool of the fill (the migration's) may still hold
        # a connection until it is collected
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = :name"), {"name": template})
        connection.execute(text(f'CREATE DATABASE "{database}" TEMPLATE "{template}"'))
    return _url(admin_url, database)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.filled")
    parser.add_argument("articles", type=int)
    parser.add_argument("--admin-url", default=ADMIN_URL)
    args = parser.parse_args(argv)
    print(ensure_template(args.articles, args.admin_url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
