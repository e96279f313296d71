"""Memory of one long-running crawl worker: RSS against pages fetched on a large demo site.

A worker that idle-waits for work runs for days; what it keeps per page must stay bounded.
In distributed mode (`--distributed`: scrapy-redis, the frontier and seen-set in Redis)
the worker's resident memory must level off once its caches are full; in single-process
mode Scrapy's own frontier and seen-set live in the worker and grow with the crawl.

    python -m bench.soak [--scale 72] [--distributed]

Prints RSS (MB) as the pages are fetched, then the growth per 1,000 pages over each half.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from redis import Redis

from bench.crawl import scrapy_process, site_config
from crawler.migrate import upgrade
from tests.demosite import DemoServer

REDIS = "redis://127.0.0.1:6379/9"
SAMPLE_SECONDS = 1.0


def rss_mb(pid: int) -> float | None:
    """Resident memory of a live process, None once it has exited."""
    try:
        with open(f"/proc/{pid}/status") as status:
            line = next((line for line in status if line.startswith("VmRSS")), None)
    except FileNotFoundError:
        return None
    return int(line.split()[1]) / 1024 if line else None


def soak(scale: int, distributed: bool, folder: Path) -> list[tuple[int, float]]:
    """(pages fetched, RSS MB) samples of one worker crawling the demo site `scale` times."""
    database = f"sqlite:///{folder / 'soak.sqlite3'}"
    upgrade(database)
    env = {"DATABASE_URL": database, "JOURNAL_DIR": str(folder / "journal"), "REDIS_URL": ""}
    if distributed:
        Redis.from_url(REDIS).flushdb()
        env |= {"REDIS_URL": REDIS, "MAX_IDLE_TIME_BEFORE_CLOSE": "5"}
    samples = []
    with DemoServer(config=site_config(scale)) as server:
        worker = scrapy_process(["-a", f"start_urls={server.url}/", "-a", "depth=12"], env,
                                folder / "worker.log")
        while worker.poll() is None and (rss := rss_mb(worker.pid)) is not None:
            samples.append((sum(server.hits.values()), rss))
            time.sleep(SAMPLE_SECONDS)
        worker.wait()
    return samples


def growth(samples: list[tuple[int, float]], start: float, end: float) -> float:
    """MB of RSS per 1,000 pages between the samples at shares `start` and `end` of the crawl."""
    pages = samples[-1][0]
    first = next(s for s in samples if s[0] >= start * pages)
    last = next(s for s in samples if s[0] >= end * pages)
    return 1000 * (last[1] - first[1]) / max(last[0] - first[0], 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=72, help="demo site size (≈ 500 pages each)")
    parser.add_argument("--distributed", action="store_true", help="scrapy-redis mode")
    args = parser.parse_args(argv)
    with TemporaryDirectory(prefix="bench-soak-") as folder:
        samples = soak(args.scale, args.distributed, Path(folder))
    for pages, rss in samples[::max(len(samples) // 12, 1)]:
        print(f"{pages:8d} pages fetched  RSS {rss:6.1f} MB")
    print(f"{samples[-1][0]} pages, peak RSS {max(r for _, r in samples):.1f} MB; growth per "
          f"1,000 pages: {growth(samples, 0.1, 0.5):.2f} MB (10-50 %), "
          f"{growth(samples, 0.5, 0.95):.2f} MB (50-95 %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
