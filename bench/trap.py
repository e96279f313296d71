"""A crawl of the crawler trap (`tests/trapsite.py`: lists that never end, a calendar without
a first or last day, a path that repeats for ever) with the crawl's default settings:
pages fetched, the scheduler's queue at its peak, the crawl's peak RSS, the time to end, and
the `bounds/*` statistics that say which limit stopped it.

    .venv/bin/python -m bench.trap [--cap SECONDS] [--root CHECKOUT] [--start PATH,PATH]
                                   [-- -a depth=0 …]

A crawl still running after `--cap` seconds (180) is stopped (SIGINT, Scrapy's graceful
stop) and reported as not ended. The queue peak is the largest `scheduler/enqueued` minus
`scheduler/dequeued` the periodic stats log shows (every second), and the same difference
at the end. `--root` runs another checkout's crawler (e.g. main, for a before figure).
The crawl writes into a fresh SQLite file of its own.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crawler import settings
from tests.trapsite import TrapServer

ROOT = Path(__file__).resolve().parent.parent
_STATS = re.compile(r"Dumping Scrapy stats:\n(\{.*?\})$", re.S | re.M)
_EXTENSIONS = json.dumps({**settings.EXTENSIONS, "scrapy.extensions.periodic_log.PeriodicLog": 0})
_PERIODIC = re.compile(r'"scheduler/dequeued": (\d+),.*?"scheduler/enqueued": (\d+)', re.S)


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident set so far (VmHWM), in MB; 0 once it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    match = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(match.group(1)) / 1024 if match else 0.0


def crawl_trap(root: Path, cap: float, start: str, options: list[str]) -> dict[str, object]:
    """Crawl the trap from its paths `start`; the figures of the crawl."""
    with tempfile.TemporaryDirectory() as work, TrapServer(wide=True) as trap:
        database = f"sqlite:///{work}/trap.sqlite3"
        env = {**os.environ, "DATABASE_URL": database, "JOURNAL_DIR": f"{work}/journal",
               "CRAWL_ALLOW_PRIVATE_ADDRESSES": "1"}
        env.pop("REDIS_URL", None)
        subprocess.run([sys.executable, "-m", "crawler", "migrate"], cwd=root, env=env,
                       check=True, capture_output=True)
        log = Path(work) / "crawl.log"
        command = [sys.executable, "-m", "scrapy", "crawl", "site",
                   "-a", "start_urls=" + ",".join(trap.url + path for path in start.split(",")),
                   "-s", "LOG_LEVEL=INFO",
                   "-s", f"EXTENSIONS={_EXTENSIONS}",
                   "-s", 'PERIODIC_LOG_STATS={"include": ["scheduler/"]}',
                   "-s", "LOGSTATS_INTERVAL=1", *options]
        started = time.monotonic()
        with log.open("wb") as handle:
            process = subprocess.Popen(command, cwd=root, env=env, stdout=handle,
                                       stderr=handle)
            rss = 0.0
            ended = True
            while process.poll() is None:
                rss = max(rss, peak_rss_mb(process.pid))
                if time.monotonic() - started > cap and ended:
                    ended = False
                    process.send_signal(signal.SIGINT)
                time.sleep(0.5)
        seconds = time.monotonic() - started
        text = log.read_text(errors="replace")
        if os.environ.get("TRAP_LOG"):
            Path(os.environ["TRAP_LOG"]).write_text(text)
        stats_text = _STATS.search(text)
        stats = _stats(stats_text.group(1)) if stats_text else {}
        queued = [int(enqueued) - int(dequeued) for dequeued, enqueued in _PERIODIC.findall(text)]
        queued.append(stats.get("scheduler/enqueued", 0) - stats.get("scheduler/dequeued", 0))
        return {"ended by itself": ended, "seconds": round(seconds, 1),
                "pages fetched": stats.get("response_received_count", 0),
                "queue peak": max(queued), "queue at end": queued[-1],
                "peak RSS MB": round(rss), "trap hits": dict(trap.hits),
                "bounds": {key: value for key, value in stats.items()
                           if key.startswith("bounds/")},
                "finish_reason": stats.get("finish_reason")}


def _stats(text: str) -> dict[str, int]:
    """Scrapy's stats dump (a dict literal; datetimes left out) as numbers by name."""
    numbers = re.findall(r"^[{ ]['\"]([^'\"]+)['\"]: (\d+|'[^']*'),?\}?$", text, re.M)
    return {name: int(value) if value.isdigit() else ast.literal_eval(value)
            for name, value in numbers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=float, default=180.0, help="seconds before SIGINT")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run")
    parser.add_argument("--start", default="/", help="the trap's paths to start from")
    parser.add_argument("options", nargs="*", help="extra scrapy crawl options")
    arguments = parser.parse_args()
    print(json.dumps(crawl_trap(arguments.root, arguments.cap, arguments.start,
                                arguments.options),
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
