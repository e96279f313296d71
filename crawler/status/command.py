"""`python -m crawler status [RUN] [--watch [SECONDS]] [--json]`: the runs in flight (or one
run), the shared queue and the workers, once or refreshed."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from crawler import settings
from crawler.cluster.keys import SPIDER
from crawler.status.render import as_json, as_text
from crawler.status.snapshot import Snapshot, take_snapshot
from models.schema import reason
from reading.options import add_database, sessions_for

REDIS_TIMEOUT_SECONDS = 3.0  # status answers in seconds, whatever Redis does
DEFAULT_WATCH_SECONDS = 2.0


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(
        prog="python -m crawler status",
        description="Show the crawl runs in flight: pages per type, new / updated / unchanged, "
                    "errors by kind, pages stored in the last minute; with Redis (REDIS_URL) "
                    "also the shared queue per run and per domain and the workers with their "
                    "last heartbeat. Without Redis, the unfinished runs as single-process "
                    "crawls write them in the database.")
    result.add_argument("run", nargs="?", type=int, metavar="RUN",
                        help="one run's id (finished or not)")
    result.add_argument("--watch", nargs="?", type=float, const=DEFAULT_WATCH_SECONDS,
                        metavar="SECONDS", help="show it again every SECONDS (default "
                        f"{DEFAULT_WATCH_SECONDS:g}) until Ctrl-C")
    result.add_argument("--json", action="store_true",
                        help="one JSON object per look (one line each with --watch)")
    result.add_argument("--redis-url", help="the cluster's Redis (default: $REDIS_URL; "
                                            "none: the database's view only)")
    add_database(result)
    return result


def look(args: argparse.Namespace, sessions: sessionmaker[Session],
         server: Redis | None) -> Snapshot:
    """One snapshot; a Redis out of reach is one line on stderr and the database's view."""
    stale = settings.STATUS_STALE_SECONDS
    if server is not None:
        try:
            return take_snapshot(sessions, server, SPIDER, args.run, stale)
        except RedisError as error:
            print(f"status: Redis out of reach ({error}); showing the database's view",
                  file=sys.stderr)
    return take_snapshot(sessions, None, SPIDER, args.run, stale)


def show(snapshot: Snapshot, as_json_lines: bool, clear: bool) -> None:
    if as_json_lines:
        print(json.dumps(as_json(snapshot), ensure_ascii=False), flush=True)
        return
    if clear:
        print("\x1b[H\x1b[2J", end="")
    print(as_text(snapshot), flush=True)


def main(argv: list[str]) -> int:
    """Exit 0; 1 when the database cannot be read; 2 for a bad option or an unknown run."""
    args = parser().parse_args(argv)
    if args.watch is not None and args.watch <= 0:
        print("status: --watch takes a positive number of seconds", file=sys.stderr)
        return 2
    sessions = sessions_for("status", args.database_url)
    if sessions is None:
        return 1
    redis_url = args.redis_url or os.environ.get("REDIS_URL")
    server = (Redis.from_url(redis_url, socket_timeout=REDIS_TIMEOUT_SECONDS,
                             socket_connect_timeout=REDIS_TIMEOUT_SECONDS)
              if redis_url else None)
    try:
        while True:
            snapshot = look(args, sessions, server)
            if args.run is not None and not snapshot.runs:
                print(f"status: no run {args.run}", file=sys.stderr)
                return 2
            show(snapshot, args.json, clear=args.watch is not None and sys.stdout.isatty())
            if args.watch is None:
                return 0
            time.sleep(args.watch)
    except SQLAlchemyError as error:
        print(f"status: the database cannot be read: {reason(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
