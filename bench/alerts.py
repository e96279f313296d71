"""How soon an alert follows the page that raised it: a crawl of the demo site into a fresh
PostgreSQL database with a watch on a word a handful of its articles use, alerts sent to a
local webhook receiver; reports, per alert, the time from the page's fetch to the alert's
arrival, in seconds and in persist batches (PERSIST_FLUSH_SECONDS, the batch clock).

    python -m bench.alerts [--admin-url postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

from bench.crawl import _drop_database, _fresh_database
from crawler import settings
from models.db import session_factory
from models.page import Page
from models.watch import Alert
from reading.delivery import target_for
from reading.watches import WatchSpec, add_watch
from tests.crawling import run_crawl
from tests.demosite import DemoServer
from tests.receivers import WebhookReceiver, webhook_receiver

WORD = "零售"


def measure(url: str, receiver: WebhookReceiver) -> list[float]:
    """Seconds from each alerting page's fetch to its alert's arrival."""
    with session_factory(url).begin() as session:
        add_watch(session, WatchSpec("bench", WORD, {"kinds": ["article"]},
                                     [target_for(receiver.url + "/bench")]))
    with DemoServer() as server, tempfile.TemporaryDirectory() as journal:
        done = run_crawl(server.url + "/", url, Path(journal), "-a", "depth=8",
                         "-s", "ALLOW_PRIVATE_ADDRESSES=True")  # the demo site is local
        if done.returncode:
            raise SystemExit(done.stderr[-2000:])
    arrivals = {str(payload["message"]).split("\n\n")[1].split("\n")[0]: when
                for (_, payload), when in zip(receiver.posts, receiver.arrived, strict=True)}
    with session_factory(url)() as session:
        fetched = dict(session.execute(select(Page.url, Page.fetched_at)
                                       .join(Alert, Alert.url == Page.url)).all())
    return [(arrivals[page] - fetched[page]).total_seconds() for page in arrivals]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.alerts")
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    args = parser.parse_args(argv)
    url = _fresh_database(args.admin_url)
    started = time.perf_counter()
    try:
        with webhook_receiver() as receiver:
            lags = sorted(measure(url, receiver))
    finally:
        _drop_database(args.admin_url, url)
    batch = settings.PERSIST_FLUSH_SECONDS
    print(f"{len(lags)} alerts in {time.perf_counter() - started:.0f} s; page fetched → alert "
          f"received: median {statistics.median(lags):.2f} s, max {lags[-1]:.2f} s "
          f"({lags[-1] / batch:.1f} × the {batch:.0f} s batch clock)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
