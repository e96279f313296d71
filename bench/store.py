"""Writing crawl results: CPU and wall time per page of `save_pages`, the crawl's batched
upsert, on the demo site's pages extracted in this process and written to a fresh
PostgreSQL database in journal-sized batches (first as new pages, then again as
unchanged ones, as a revisit writes them). The writer runs in a thread of the worker, so
its CPU is taken from the reactor's core.

Each round writes the pages twice, to two fresh databases, in alternating order: without
search (the store with its index rebuild left out, no pass after the batches) and with it
(the index rows in the batch's transaction, then after each batch the pass a crawl runs in
a thread of the worker: stories grouped, watches matched, alerts delivered). Printed: the
bench process' CPU (the worker's share) and the PostgreSQL backend's CPU, each with the
part the stories' grouping took, per page, the median of the rounds, after one untimed
write that warms the statement caches. Search's own cost (its goal: the store rate within
10 % of what it is without search) is the CPU with search less the grouping less the CPU
without; the grouping answers to the stories' goal (under 1 ms an article), so it is
printed apart, per page and per article.

    python -m bench.store [--admin-url postgresql://postgres@127.0.0.1:5432/test]
                          [--batch 50] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from unittest import mock

import datasketch  # noqa: F401  # reading.stories imports it at its first pass: not a pass's cost
from sqlalchemy.orm import Session, sessionmaker

from bench.backend import backend_seconds
from bench.crawl import _drop_database, _fresh_database
from models.db import session_factory
from models.store import save_pages
from models.stored import FetchFacts, stored_page
from pipelines.document import load_document
from pipelines.process import process_document
from reading.delivery import deliver_due
from reading.stories import GROUP_LOOKBACK, group_new
from reading.watches import match_new
from tests.demosite import DemoServer


def demo_records(limit: int | None = None) -> list[dict[str, Any]]:
    """The journal records a crawl of the demo site would write (robots-allowed pages; the
    first `limit` of them in path order when given)."""
    with DemoServer() as server:
        site = server.site
        records = []
        for path, truth in sorted(site.ground_truth().items()):
            page = site.get(path)
            if truth["meta"].get("robots_disallowed") or page is None:
                continue
            if len(records) == limit:
                break
            url = server.url + path
            doc = load_document(page.body, url=url, content_type=page.content_type)
            facts = FetchFacts(url=url, final_url=url, status=200, fetched_at=datetime.now(UTC),
                               encoding=doc.encoding, ticket=path)
            # as the journal hands them to the writer: JSON written, then read back
            records.append(json.loads(json.dumps(stored_page(facts, process_document(doc)))))
    return records


@dataclass
class Timing:
    """Seconds spent writing: this process' CPU, wall time, the database backend's CPU,
    and the parts of the two CPUs the stories' grouping took."""

    cpu: float
    wall: float
    database: float
    grouping: float = 0.0
    database_grouping: float = 0.0


def _after_batch(sessions: sessionmaker[Session]) -> tuple[float, float]:
    """What a crawl's watch pass (crawler/watching.py) does after each stored batch;
    returns the CPU seconds its grouping took here and in the database backend."""
    with sessions.begin() as session:
        _, backend = backend_seconds(session)
        grouping = time.process_time()
        group_new(session, lookback=GROUP_LOOKBACK)
        grouping = time.process_time() - grouping
        backend = backend_seconds(session)[1] - backend
        match_new(session)
        deliver_due(session)
    return grouping, backend


def timed_writes(url: str, records: list[dict[str, Any]], batch: int,
                 search: bool = True) -> Timing:
    """Time writing the records, one transaction per batch, with or without search."""
    sessions = session_factory(url)
    backends: dict[int, float] = {}
    skip_index = nullcontext() if search else mock.patch("models.store.reindex_pages")
    grouping = database_grouping = 0.0
    with skip_index:
        cpu, wall = time.process_time(), time.perf_counter()
        for start in range(0, len(records), batch):
            with sessions.begin() as session:
                pid, seconds = backend_seconds(session)
                backends.setdefault(pid, seconds)
                save_pages(session, records[start:start + batch])
            if search:
                worker, backend = _after_batch(sessions)
                grouping, database_grouping = grouping + worker, database_grouping + backend
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    with sessions.begin() as session:
        pid, seconds = backend_seconds(session)
    database = sum((seconds if other == pid else _ended(other)) - before
                   for other, before in backends.items())
    return Timing(cpu, wall, database, grouping, database_grouping)


def _ended(pid: int) -> float:
    raise RuntimeError(f"the bench's database connection changed (backend {pid} is gone)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store")
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    parser.add_argument("--batch", type=int, default=50, help="pages per transaction")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    records = demo_records()
    warm = _fresh_database(args.admin_url)  # statement caches, converters: not timed
    try:
        timed_writes(warm, records, args.batch)
    finally:
        session_factory(warm).kw["bind"].dispose()
        _drop_database(args.admin_url, warm)
    results: dict[tuple[str, str], list[Timing]] = {}
    for round_number in range(args.rounds):
        modes = (False, True) if round_number % 2 == 0 else (True, False)
        for search in modes:
            url = _fresh_database(args.admin_url)
            try:
                for label in ("new", "unchanged"):
                    results.setdefault((label, "with" if search else "without"), []).append(
                        timed_writes(url, records, args.batch, search))
            finally:
                session_factory(url).kw["bind"].dispose()
                _drop_database(args.admin_url, url)
    articles = sum(1 for record in records if record.get("article"))
    print(f"{len(records)} demo pages ({articles} articles), {args.batch} per transaction, "
          f"{args.rounds} rounds (median ms per page)")
    print(f"{'pages':10} {'search':8} {'CPU':>6} {'grouping':>9} {'wall':>6} "
          f"{'PostgreSQL CPU':>15} {'grouping':>9}")
    medians: dict[tuple[str, str], dict[str, float]] = {}
    for (label, search), timings in results.items():
        row = medians[label, search] = {
            name: statistics.median(getattr(t, name) for t in timings) * 1000 / len(records)
            for name in ("cpu", "grouping", "wall", "database", "database_grouping")}
        print(f"{label:10} {search:8} {row['cpu']:6.2f} {row['grouping']:9.2f} "
              f"{row['wall']:6.2f} {row['database']:15.2f} {row['database_grouping']:9.2f}")
    for label in ("new", "unchanged"):
        with_search, without = medians[label, "with"], medians[label, "without"]
        cost, database = (with_search[name] - with_search[part] - without[name]
                          for name, part in (("cpu", "grouping"),
                                             ("database", "database_grouping")))
        per_article = len(records) / articles
        print(f"{label} pages: search's cost (index rows, watches, alerts) {cost:+.2f} ms a "
              f"page, PostgreSQL {database:+.2f}; grouping {with_search['grouping']:.2f} ms a "
              f"page, {with_search['grouping'] * per_article:.2f} an article, PostgreSQL "
              f"{with_search['database_grouping'] * per_article:.2f} an article")
    return 0


if __name__ == "__main__":
    sys.exit(main())
