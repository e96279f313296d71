"""Writing crawl results: CPU and wall time per page of `save_pages`, the crawl's batched
upsert, on the demo site's pages extracted in this process and written to a fresh
PostgreSQL database in journal-sized batches (first as new pages, then again as
unchanged ones, as a revisit writes them). The writer runs in a thread of the worker, so
its CPU is taken from the reactor's core.

    python -m bench.store [--admin-url postgresql://postgres@127.0.0.1:5432/test] [--batch 50]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from typing import Any

from bench.crawl import _drop_database, _fresh_database
from models.db import session_factory
from models.store import save_pages
from models.stored import FetchFacts, stored_page
from pipelines.document import load_document
from pipelines.process import process_document
from tests.demosite import DemoServer


def demo_records() -> list[dict[str, Any]]:
    """The journal records a crawl of the demo site would write (robots-allowed pages)."""
    with DemoServer() as server:
        site = server.site
        records = []
        for path, truth in sorted(site.ground_truth().items()):
            page = site.get(path)
            if truth["meta"].get("robots_disallowed") or page is None:
                continue
            url = server.url + path
            doc = load_document(page.body, url=url, content_type=page.content_type)
            facts = FetchFacts(url=url, final_url=url, status=200, fetched_at=datetime.now(UTC),
                               encoding=doc.encoding, ticket=path)
            # as the journal hands them to the writer: JSON written, then read back
            records.append(json.loads(json.dumps(stored_page(facts, process_document(doc)))))
    return records


def timed_writes(url: str, records: list[dict[str, Any]], batch: int) -> tuple[float, float]:
    """CPU and wall seconds to write the records, one transaction per batch."""
    sessions = session_factory(url)
    cpu, wall = time.process_time(), time.perf_counter()
    for start in range(0, len(records), batch):
        with sessions.begin() as session:
            save_pages(session, records[start:start + batch])
    return time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store")
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    parser.add_argument("--batch", type=int, default=50, help="pages per transaction")
    args = parser.parse_args(argv)
    records = demo_records()
    url = _fresh_database(args.admin_url)
    try:
        print(f"{len(records)} demo pages, {args.batch} per transaction")
        for label in ("new", "unchanged"):
            cpu, wall = timed_writes(url, records, args.batch)
            print(f"{label:10} CPU {1000 * cpu / len(records):.2f} ms/page, "
                  f"wall {1000 * wall / len(records):.2f} ms/page")
    finally:
        _drop_database(args.admin_url, url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
