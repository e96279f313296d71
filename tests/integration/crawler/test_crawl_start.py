"""What `scrapy crawl site` refuses before it starts: wrong arguments and a database that is
not ready, each as one line naming what is wrong and what to do, with a non-zero exit."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import select

from crawler.arguments import ACCEPTED, ArgumentError, SpiderArguments
from models import Page, Source
from models.db import session_factory
from models.schema import (
    DatabaseUnreachable,
    SchemaMissing,
    SchemaOutdated,
    alembic_config,
    check_schema,
)
from tests.crawling import ROOT, run_crawl, run_spider
from tests.demosite import DemoServer
from tests.services import redis_database

DEAD_DATABASE = "postgresql+psycopg2://crawler:secret@127.0.0.1:1/opinion"

# The code's schema head, whichever migration is the latest.
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr[-3000:]
    return lines[0]


@pytest.mark.parametrize(("options", "expected"), [
    ((), ("nothing to crawl", "-a start_urls=", "-a source=", "REDIS_URL")),
    (("-a", "source=nope"), ("-a source=nope: no such source", "stored: example-news")),
    (("-a", "timezone=Beijing"), ("-a timezone=Beijing", "unknown time zone", "Asia/Shanghai")),
    (("-a", "start_url=http://x/"), ("-a start_url: no such argument",
                                      "did you mean start_urls?", ", ".join(ACCEPTED))),
    (("-a", "max_pages=abc"), ("-a max_pages=abc: not a whole number ≥ 0",)),
    (("-a", "depth=-1"), ("-a depth=-1: not a whole number ≥ 0",)),
    (("-a", "start_urls=news.example.cn"), ("'news.example.cn' is not an http(s) URL",)),
])
def test_a_wrong_argument_is_one_line_naming_it_and_exit_2(
        pg_url: str, tmp_path: Path, options: tuple[str, ...],
        expected: tuple[str, ...]) -> None:
    with session_factory(pg_url).begin() as session:
        session.add(Source(name="example-news", start_urls=["https://news.example.cn/"],
                           allowed_domains=[]))
    done = run_spider(pg_url, tmp_path, *options)
    assert done.returncode == 2, done.stderr[-3000:]
    line = _one_line(done.stderr)
    assert line.startswith("scrapy crawl site: ")
    for part in expected:
        assert part in line


def test_a_stored_source_is_crawled_and_tools_arguments_are_accepted(pg_url: str,
                                                                       tmp_path: Path) -> None:
    """`-a source=NAME` crawls the source; `_job` (scrapyd adds it to every crawl) is no
    unknown argument."""
    with DemoServer() as server:
        with session_factory(pg_url).begin() as session:
            session.add(Source(name="demo", start_urls=[server.url + "/"], allowed_domains=[],
                               max_pages=5, max_depth=1))
        done = run_spider(pg_url, tmp_path, "-a", "source=demo", "-a", "_job=42")
    assert done.returncode == 0, done.stderr[-3000:]
    with session_factory(pg_url)() as session:
        source_ids = set(session.scalars(select(Page.source_id)))
    assert len(source_ids) == 1 and None not in source_ids


@pytest.fixture
def worker_redis() -> Iterator[str]:
    """Redis database 12, empty before and after."""
    with redis_database(12) as url:
        yield url


def test_with_redis_and_no_arguments_the_crawl_is_a_worker(pg_url: str, worker_redis: str,
                                                          tmp_path: Path) -> None:
    done = run_spider(pg_url, tmp_path, "-s", "MAX_IDLE_TIME_BEFORE_CLOSE=1",
                      redis_url=worker_redis, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Spider closed (finished)" in done.stderr
    assert "nothing to crawl" not in done.stderr


def test_a_never_migrated_database_is_one_line_and_no_crawl(empty_pg_url: str,
                                                            tmp_path: Path) -> None:
    with DemoServer() as server:
        done = run_crawl(server.url + "/", empty_pg_url, tmp_path)
        fetched = server.total_hits()
    assert done.returncode == 1, done.stderr[-3000:]
    assert _one_line(done.stderr) == (
        f"scrapy crawl site: the database {empty_pg_url} has no schema: "
        "run `python -m crawler migrate`")
    assert fetched == 0
    assert not any(tmp_path.rglob("*.jsonl")), "nothing journalled for a database without tables"


def test_a_database_behind_the_code_is_told_to_migrate(empty_pg_url: str,
                                                       tmp_path: Path) -> None:
    command.upgrade(alembic_config(empty_pg_url), "0001")
    done = run_crawl("http://127.0.0.1:9/", empty_pg_url, tmp_path)
    assert done.returncode == 1, done.stderr[-3000:]
    line = _one_line(done.stderr)
    assert f"at schema revision 0001, behind this code's {HEAD}" in line
    assert "run `python -m crawler migrate`" in line


def test_an_unreachable_database_at_start_is_one_line_and_the_crawl_journals(
        tmp_path: Path) -> None:
    """The journal rides out a database that is down at start, as it does one that goes
    away mid-crawl; the user is told once, without the password."""
    with DemoServer() as server:
        done = run_crawl(server.url + "/", DEAD_DATABASE, tmp_path, "-a", "max_pages=5",
                         "-s", "PERSIST_RETRY_SECONDS=0.5")
    assert done.returncode == 0, done.stderr[-3000:]
    told = [line for line in done.stderr.splitlines() if "unreachable at start" in line]
    assert len(told) == 1 and "crawler@127.0.0.1:1/opinion" in told[0], done.stderr[-3000:]
    assert "secret" not in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("cannot check stored URLs") <= 1
    assert any(tmp_path.rglob("*.jsonl"))


def test_a_source_cannot_be_read_from_an_unreachable_database(tmp_path: Path) -> None:
    done = run_spider(DEAD_DATABASE, tmp_path, "-a", "source=example-news")
    assert done.returncode == 1
    assert "the database postgresql+psycopg2://crawler@127.0.0.1:1/opinion is unreachable" \
        in _one_line(done.stderr)


def test_replay_spill_refuses_a_database_without_schema(empty_pg_url: str,
                                                        tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "crawler", "replay-spill", str(tmp_path),
                           "--database-url", empty_pg_url], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert _one_line(done.stderr) == (
        f"python -m crawler replay-spill: the database {empty_pg_url} has no schema: "
        "run `python -m crawler migrate`")


def test_check_schema_tells_missing_outdated_unknown_and_unreachable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    with pytest.raises(SchemaMissing, match="has no schema"):
        check_schema(url)
    config = alembic_config(url)
    command.upgrade(config, "0001")
    with pytest.raises(SchemaOutdated, match=f"behind this code's {HEAD}"):
        check_schema(url)
    command.upgrade(config, "head")
    check_schema(url)
    command.stamp(config, "0002", purge=True)
    with session_factory(url).begin() as session:
        session.connection().exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(SchemaOutdated, match="does not know"):
        check_schema(url)
    with pytest.raises(DatabaseUnreachable, match=r"crawler@127\.0\.0\.1:1/opinion") as caught:
        check_schema(DEAD_DATABASE)
    assert "secret" not in str(caught.value)


def test_arguments_are_checked_without_a_database() -> None:
    parsed = SpiderArguments.parse({"start_urls": "https://a.cn/, https://b.cn/x",
                                    "depth": "2", "max_pages": "0", "timezone": "Asia/Hong_Kong",
                                    "_job": "7"})
    assert parsed.start_urls == ("https://a.cn/", "https://b.cn/x")
    assert (parsed.depth, parsed.max_pages, parsed.timezone) == (2, 0, "Asia/Hong_Kong")
    assert parsed.passed_by_tools == {"_job": "7"}
    with pytest.raises(ArgumentError, match="nothing to crawl"):
        SpiderArguments.parse({}).check_given(distributed=False)
    SpiderArguments.parse({}).check_given(distributed=True)
