"""What watching a crawl costs. First, in this process, the CPU a page's counts cost the
metrics: the spider's `counted` signal sent COUNTS_PER_PAGE times with the metrics
extension listening. Then the demo site crawled alone (no Redis) into a fresh SQLite
store, in turns plain and observed (METRICS_PORT=0, LOG_FORMAT=json, the live progress
written every STATUS_PUBLISH_SECONDS as always), with /metrics scraped once a second while
observed; the CPU seconds of the crawl process (user + system, start-up included) per stored
page, each mode's median over the turns. Then the CPU and wall time of one `python -m
crawler status` against the last store.

    python -m bench.observability [--repeat N]     # --repeat 0: the signal's cost only
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from urllib.request import urlopen

from sqlalchemy import create_engine, func, select

from crawler.migrate import upgrade
from models import Page
from models.db import PROJECT_ROOT
from tests.demosite import DemoServer

COUNTS_PER_PAGE = ("pages/type/news", "pages/new", "records/found",
                   "template/sibling_fetches_saved", "comments/new")  # a usual page's
COMMON = ["-s", "LOG_LEVEL=INFO", "-s", "AUTOTHROTTLE_ENABLED=False",
          "-s", "ALLOW_PRIVATE_ADDRESSES=True"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _scrape_while(process: subprocess.Popen[bytes], log: Path) -> int:
    """Scrape the worker's /metrics every second while it runs; returns the scrapes made."""
    scrapes = 0
    while process.poll() is None:
        found = re.search(r"metrics on http://127\.0\.0\.1:(\d+)/", log.read_text(errors="replace"))
        if found:
            try:
                urlopen(f"http://127.0.0.1:{found[1]}/metrics", timeout=5).read()
                scrapes += 1
            except OSError:
                pass
        time.sleep(1)
    return scrapes


def crawl(url: str, folder: Path, observed: bool) -> tuple[float, int]:
    """CPU seconds of one crawl and the pages it stored."""
    database = f"sqlite:///{folder / 'store.sqlite3'}"
    upgrade(database)
    env = {**os.environ, "DATABASE_URL": database, "JOURNAL_DIR": str(folder / "journal")}
    env.pop("REDIS_URL", None)
    if observed:
        env.update(METRICS_PORT="0", LOG_FORMAT="json")
    log = folder / "crawl.log"
    before = _children_cpu()
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "site", "-a",
                                    f"start_urls={url}/", *COMMON], cwd=PROJECT_ROOT, env=env,
                                   stdout=out, stderr=out)
    scraper = threading.Thread(target=_scrape_while, args=(process, log)) if observed else None
    if scraper:
        scraper.start()
    assert process.wait() == 0, log.read_text()[-2000:]
    if scraper:
        scraper.join()
    cpu = _children_cpu() - before
    engine = create_engine(database)
    with engine.connect() as connection:
        pages = connection.execute(select(func.count()).select_from(Page)).scalar_one()
    engine.dispose()
    return cpu, pages


def signal_cost(pages: int = 20_000) -> float:
    """CPU seconds per page of the `counted` signals with the metrics extension listening."""
    from scrapy.utils.test import get_crawler

    from crawler.metrics.worker import WorkerMetrics
    from crawler.sources import CrawlTarget
    from crawler.spiders.site import SiteSpider, counted

    crawler = get_crawler(SiteSpider, {"METRICS_PORT": "0"})
    extension = WorkerMetrics.from_crawler(crawler)
    crawler.spider = SiteSpider()
    crawler.spider.use_target(CrawlTarget((), (), source_id=1, name="example-news"))
    meta = {"run_id": 3, "source_id": 1, "ticket": "t"}
    started = time.process_time()
    for _ in range(pages):
        for name in COUNTS_PER_PAGE:
            crawler.signals.send_catch_log(counted, meta=meta, name=name, value=1)
    cost = (time.process_time() - started) / pages
    extension.closed()
    return cost


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.observability")
    parser.add_argument("--repeat", type=int, default=3, help="turns of each mode")
    args = parser.parse_args()
    print(f"metrics' signals: {1e6 * signal_cost():.1f} µs CPU per page "
          f"({len(COUNTS_PER_PAGE)} counts)", flush=True)
    if not args.repeat:
        return
    per_page: dict[str, list[float]] = {"plain": [], "observed": []}
    with DemoServer() as server, TemporaryDirectory() as scratch:
        last = Path(scratch)
        for turn in range(args.repeat):
            for mode in ("plain", "observed"):
                folder = Path(scratch) / f"{mode}-{turn}"
                folder.mkdir()
                cpu, pages = crawl(server.url, folder, mode == "observed")
                per_page[mode].append(cpu / pages)
                print(f"{mode:9} turn {turn}: {pages} pages, {cpu:.2f} s CPU, "
                      f"{1000 * cpu / pages:.2f} ms/page", flush=True)
                last = folder
        for mode, values in per_page.items():
            print(f"{mode:9} median {1000 * statistics.median(values):.2f} ms CPU per page")
        plain, observed = (statistics.median(per_page[m]) for m in ("plain", "observed"))
        print(f"observed / plain: {observed / plain:.3f}")
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{last / 'store.sqlite3'}"}
        env.pop("REDIS_URL", None)
        before, started = _children_cpu(), time.monotonic()
        subprocess.run([sys.executable, "-m", "crawler", "status"], cwd=PROJECT_ROOT, env=env,
                       check=True, capture_output=True)
        print(f"status: {_children_cpu() - before:.2f} s CPU, "
              f"{time.monotonic() - started:.2f} s wall")


if __name__ == "__main__":
    main()
