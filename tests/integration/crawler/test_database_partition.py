"""A database behind a partition that drops packets without a reset: the crawl says so
within seconds, goes on fetching and journalling, and stores every page once the partition heals. A
worker cut off inside a transaction does not keep its row locks: the server ends its
session, and another writer gets them."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest
from scrapy.settings import Settings
from sqlalchemy import text
from sqlalchemy.engine import make_url

from crawler.cluster.runs import create_run
from crawler.database import connect_options
from models.db import get_engine, session_factory
from tests import netns
from tests.crawling import run_crawl, stored
from tests.demosite import DemoServer
from tests.tcp_proxy import TcpProxy

PARTITION_SECONDS = 12.0
_HEALTH = re.compile(r"^(\S+ \S+) \[crawler\.persistence\] WARNING: database unreachable for "
                     r"(\d+) s, (\d+) pages waiting in the journal", re.MULTILINE)


def _scraped(log: str) -> int:
    return int(re.search(r"'item_scraped_count': (\d+)", log).group(1))  # type: ignore[union-attr]


def test_a_partitioned_database_is_reported_within_seconds_and_nothing_is_lost(
        pg_url: str, tmp_path: Path) -> None:
    proxy = TcpProxy(make_url(pg_url).port or 5432).start()
    via_proxy = make_url(pg_url).set(port=proxy.port).render_as_string(hide_password=False)
    cut_at: list[datetime] = []
    fetched: list[int] = []  # pages fetched when the partition begins and when it heals

    def partition(server: DemoServer) -> None:
        while server.total_hits() < 20:
            time.sleep(0.01)
        proxy.blackhole()
        cut_at.append(datetime.now())
        fetched.append(server.total_hits())
        time.sleep(PARTITION_SECONDS)
        fetched.append(server.total_hits())
        proxy.heal()

    options = ("-a", "max_pages=150", "-a", "depth=8", "-s", "DOWNLOAD_DELAY=0.05",
               "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2", "-s", "PERSIST_BATCH_SIZE=10",
               "-s", "PERSIST_FLUSH_SECONDS=0.5", "-s", "PERSIST_RETRY_SECONDS=0.5",
               "-s", "DATABASE_HEALTH_LOG_SECONDS=4")
    with DemoServer() as server:
        threading.Thread(target=partition, args=(server,), daemon=True).start()
        done = run_crawl(server.url + "/", via_proxy, tmp_path, *options)
    proxy.stop()
    log = done.stderr
    assert done.returncode == 0, log[-3000:]
    # the crawl went on fetching and following links: nothing waited for the silent database
    # (a template lookup on the reactor fetched 12 pages in the 12 s, the stored-URL check
    # that waited for its hung query 46)
    assert fetched[1] - fetched[0] >= 60, fetched
    # said, whichever gives up first: the hung query (DATABASE_STALL_SECONDS) or a new
    # connection's connect timeout (DATABASE_CONNECT_TIMEOUT_SECONDS, a driver error)
    assert re.search(r"cannot check stored URLs \(.+\); fetching all", log), log[-3000:]
    health = _HEALTH.findall(log)
    assert health, log[-3000:]
    first = datetime.strptime(health[0][0], "%Y-%m-%d %H:%M:%S")
    # the stall threshold (DATABASE_STALL_SECONDS) and a flush tick, with room for a loaded
    # machine: seconds, not the minutes a partition used to go unreported
    assert (first - cut_at[0].replace(microsecond=0)).total_seconds() <= 20
    assert len(health) <= PARTITION_SECONDS / 4 + 2  # a bounded rate, not a line per tick
    assert max(int(waiting) for _, _, waiting in health) > 0
    assert "database reachable again after" in log
    pages = stored(pg_url)
    assert len(pages) == _scraped(log) > 100  # every page stored, each once (keyed by URL)
    assert not any(tmp_path.glob("**/*.jsonl"))


IDLE_SECONDS = 2  # DATABASE_IDLE_IN_TRANSACTION_SECONDS for the test, instead of 30
# The worker's side: its crawl's connection options, a row lock taken, then silence.
_LOCK_AND_FALL_SILENT = """
import sys, time
from scrapy.settings import Settings
from sqlalchemy import text
from crawler.database import connect_options
from models.db import get_engine
settings = Settings({"DATABASE_IDLE_IN_TRANSACTION_SECONDS": sys.argv[3]})
with get_engine(sys.argv[1], connect_options(settings)).connect() as connection:
    connection.execute(text("SELECT id FROM crawl_run WHERE id = :id FOR UPDATE"),
                       {"id": int(sys.argv[2])})
    print("locked", flush=True)
    time.sleep(600)
"""


def test_a_worker_cut_off_inside_a_transaction_loses_its_row_locks(pg_url: str) -> None:
    """A worker on a host of its own locks a run's row and is unplugged (no reset reaches
    the server); another writer, whose statement would time out after 20 s, gets the row
    once the server ended the silent session (DATABASE_IDLE_IN_TRANSACTION_SECONDS)."""
    reason = netns.available()
    if reason is not None:
        pytest.skip(reason)
    run_id = create_run(session_factory(pg_url), "site", None)
    with netns.Lan(1) as lan, netns.forwarded(pg_url, lan.gateway) as database:
        host = lan.hosts[0]
        worker = subprocess.Popen(host.command([sys.executable, "-c", _LOCK_AND_FALL_SILENT,
                                                database, str(run_id), str(IDLE_SECONDS)]),
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert worker.stdout is not None and worker.stdout.readline() == "locked\n"
            host.cut_off()
            cut_at = time.monotonic()
            writer = get_engine(pg_url, connect_options(Settings({
                "DATABASE_STATEMENT_TIMEOUT_SECONDS": 20,
                "DATABASE_IDLE_IN_TRANSACTION_SECONDS": IDLE_SECONDS})))
            with writer.begin() as connection:
                connection.execute(text("UPDATE crawl_run SET status = 'finished' "
                                        "WHERE id = :id"), {"id": run_id})
            waited = time.monotonic() - cut_at
        finally:
            worker.kill()
            worker.wait()
    assert IDLE_SECONDS - 1 <= waited <= IDLE_SECONDS + 8, waited
