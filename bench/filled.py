"""A PostgreSQL store that already holds N generated articles, grouped into stories as a
crawl leaves its store, for measuring what a page costs on a large store.

Filling a million takes over an hour (bench.search's loader, the GIN build, the stories),
so the filled store is kept between runs as a template database, `bench_filled_<N>`, and
each measurement works on a copy of it (`CREATE DATABASE … TEMPLATE`, a file copy:
minutes). The template is marked complete with its schema revision once filled; one that
is incomplete (a fill stopped half-way) is filled again, one at an earlier revision is
migrated to the head by the store's own migrations.

Stories: the store's own pass groups the first `PASS_GROUPED` articles (timed; 1.7 % of
them join another article's story, the generated texts sharing corpus sentences), and the
rest are signed set-based, each its own story: the same signature, band and sentence-count
rows the pass writes, without looking for copies (the pass ran at 190 articles a second
under load, 90 minutes for a million; signing is several times faster, and runs in two
processes side by side).

    python -m bench.filled 1000000     # fill the template now (a later bench copies it)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.orm import sessionmaker

from bench.search import DATA, generate
from crawler.migrate import upgrade
from models.bulk import add_counts, insert_columns, insert_rows
from models.page import Article, Page
from models.schema import alembic_config
from models.search.terms import normalise
from models.story import ArticleStory, StoryBand, StoryLine
from reading.stories import _signatures, band_columns, band_keys, published_day
from reading.story_text import sentence_pages, story_texts

ADMIN_URL = "postgresql+psycopg2://postgres@127.0.0.1:5432/test"
PASS_GROUPED = 50_000  # articles the store's own pass groups; the rest are signed
SIGN_CHUNK = 5_000
SIGNERS = 2  # processes signing side by side: the machine's two cores


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


def url_of(admin_url: str, database: str) -> str:
    """The URL of `database` on the admin URL's server."""
    return make_url(admin_url).set(database=database).render_as_string(hide_password=False)


def ensure_template(count: int, admin_url: str = ADMIN_URL, prefix: str = "bench_filled",
                    data: Path = DATA) -> str:
    """The complete template holding `count` grouped articles, filled first if need be
    with articles made of the corpus `data` (bench.search's `corpus`); returns its name."""
    name = template_name(count, prefix)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        comment = _comment(connection, name)
        if comment == _mark(count):
            return name
        if comment and comment.startswith(f"filled {count} at "):  # complete, older schema
            _migrate(admin_url, name, count)
            return name
        print(f"filling {name} ({count:,} grouped articles): over an hour at a million",
              file=sys.stderr)
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = url_of(admin_url, name)
    upgrade(url)
    started = time.perf_counter()
    timings = generate(url, count, group=PASS_GROUPED, data=data)
    finish_fill(url, admin_url, count, timings, started)
    return name


def _migrate(admin_url: str, name: str, count: int) -> None:
    """Bring a complete template to the schema's head by the store's own migrations, as a
    user's store is upgraded (an index built on a million articles: minutes, where filling
    again takes an hour), vacuum and analyse it as the fill does (what a server's autovacuum
    does after a migration's rewrite; this machine's is off), and mark it at the head."""
    print(f"migrating {name} to the schema's head", file=sys.stderr)
    upgrade(url_of(admin_url, name))
    with create_engine(url_of(admin_url, name), isolation_level="AUTOCOMMIT").connect() as store:
        store.execute(text("VACUUM ANALYZE"))
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = :name"), {"name": name})
        connection.execute(text(f"COMMENT ON DATABASE \"{name}\" IS '{_mark(count)}'"))


def sign_ungrouped(url: str, processes: int = SIGNERS) -> int:
    """Give every article the pass has not grouped its own story, signature, bands and
    sentence counts, as the pass would for an article with no copy; returns how many. The
    articles are split into `processes` ranges of ids signed side by side (the signing is
    Python's work, a core each; their sentence counts are added in key order, so two
    signers never wait on each other in a cycle)."""
    engine = create_engine(url)
    with engine.connect() as connection:
        first, last = connection.execute(
            select(func.min(Article.id), func.max(Article.id)).outerjoin(ArticleStory)
            .where(ArticleStory.article_id.is_(None))).one()
    engine.dispose()
    if first is None:
        return 0
    step = -(-(last - first + 1) // processes)
    ranges = [(url, low - 1, min(low + step - 1, last))
              for low in range(first, last + 1, step)]
    with multiprocessing.get_context("spawn").Pool(len(ranges)) as pool:
        return sum(pool.starmap(_sign_range, ranges))


def _sign_range(url: str, after: int, upto: int) -> int:
    """Sign the ungrouped articles with ids in (after, upto]; returns how many."""
    engine = create_engine(url)
    sessions = sessionmaker(engine)
    signed = 0
    while True:
        with sessions.begin() as session:
            # the rows' articles exist: the foreign keys' per-row checks are skipped
            session.execute(text("SET LOCAL session_replication_role = replica"))
            rows = session.execute(
                select(Article.id, Article.body_text, Page.url, Article.published_at).join(Page)
                .outerjoin(ArticleStory)
                .where(ArticleStory.article_id.is_(None), Article.id > after, Article.id <= upto)
                .order_by(Article.id).limit(SIGN_CHUNK)).all()
            if not rows:
                break
            after = rows[-1][0]
            texts = story_texts([normalise(body or "") for _, body, _, _ in rows],
                                [url for _, _, url, _ in rows])
            add_counts(session, StoryLine.__table__, "key", "pages",
                       sentence_pages(story for _, story in texts))
            sigs = _signatures([letters.replace("\n", "") for letters, _ in texts])
            ids = [row[0] for row in rows]
            insert_rows(session, ArticleStory.__table__,
                        ("article_id", "story_id", "signature", "shingles"),
                        [(i, i, sig.to_bytes() if sig else None, sig.shingles if sig else 0)
                         for i, sig in zip(ids, sigs, strict=True)])
            insert_columns(session, StoryBand.__table__, band_columns(
                ids, band_keys(sigs), [published_day(row[3]) for row in rows]))
        signed += len(rows)
        print(f"\rsigned {signed:,} articles up to id {after:,}", end="", file=sys.stderr,
              flush=True)
    engine.dispose()
    return signed


def finish_fill(url: str, admin_url: str, count: int, timings: dict[str, float],
                started: float) -> None:
    """Sign what the pass left, move the id sequences past the fill, vacuum and analyse (no
    autovacuum of the load within a measured window), and mark the template complete."""
    signing = time.perf_counter()
    fill = create_engine(url, isolation_level="AUTOCOMMIT")
    with fill.connect() as connection:  # built once after, as the search index is
        connection.execute(text("DROP INDEX IF EXISTS ix_story_band_bucket_article"))
    timings["signed"] = sign_ungrouped(url)
    with fill.connect() as connection:
        connection.execute(text("SET maintenance_work_mem = '2GB'"))
        connection.execute(text("CREATE INDEX ix_story_band_bucket_article "
                                "ON story_band (bucket, article_id) INCLUDE (published_day)"))
    timings["sign_s"] = time.perf_counter() - signing
    with fill.connect() as connection:
        for table in ("page", "article"):
            connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                    f"(SELECT max(id) FROM {table}))"))
        connection.execute(text("VACUUM ANALYZE"))
    fill.dispose()
    timings["fill_s"] = time.perf_counter() - started
    print(json.dumps(timings), file=sys.stderr)
    name = make_url(url).database
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f"COMMENT ON DATABASE \"{name}\" IS '{_mark(count)}'"))


def filled_copy(count: int, database: str, admin_url: str = ADMIN_URL,
                prefix: str = "bench_filled", data: Path = DATA) -> str:
    """A new database `database` holding the template's `count` grouped articles (the
    template filled first if need be); returns its URL."""
    template = ensure_template(count, admin_url, prefix, data)
    with create_engine(admin_url, isolation_level="AUTOCOMMIT").connect() as connection:
        # a copy needs the template idle: a pool of the fill (the migration's) may still hold
        # a connection until it is collected
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = :name"), {"name": template})
        connection.execute(text(f'CREATE DATABASE "{database}" TEMPLATE "{template}"'))
    return url_of(admin_url, database)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.filled")
    parser.add_argument("articles", type=int)
    parser.add_argument("--admin-url", default=ADMIN_URL)
    args = parser.parse_args(argv)
    print(ensure_template(args.articles, args.admin_url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
