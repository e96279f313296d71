"""`python -m crawler replay-spill`: write the items crawls into a database journalled but
could not store, segment by segment as the crawl would have (models/persist.py), showing
how many are written so far on stderr (`reading.progress`: a journal left by a long
outage holds many thousands)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from models.db import database_url, session_factory
from models.journal import Journal
from models.persist import (
    DEFAULT_JOURNAL_ROOT,
    STORE_FILE,
    store_identity,
    store_journal_root,
    warn_unassigned,
    write_segments,
)
from models.schema import DatabaseNotReady, check_schema
from reading.progress import Progress


def main(argv: list[str]) -> int:
    """Write the journals that crawls into this database could not write themselves."""
    parser = argparse.ArgumentParser(
        prog="python -m crawler replay-spill",
        description="Write the items that crawls into this database journalled but could not "
                    "store (only this database's journals: each database has its own folder).")
    parser.add_argument("root", nargs="?", type=Path, default=DEFAULT_JOURNAL_ROOT,
                        help="the journal directory the crawls used (JOURNAL_DIR; default: "
                             "var/journal)")
    parser.add_argument("--database-url", default=None,
                        help="the database to write into (default: $DATABASE_URL, else the "
                             "embedded SQLite file)")
    args = parser.parse_args(argv)
    url = database_url(args.database_url)
    marker = args.root / STORE_FILE
    if marker.is_file():  # pointed at one database's folder: it must be this database's
        if marker.read_text(encoding="utf-8").strip() != store_identity(url):
            print(f"error: {args.root} holds the journals of "
                  f"{marker.read_text(encoding='utf-8').strip()}, not of {store_identity(url)};"
                  f" pass that database as --database-url", file=sys.stderr)
            return 2
        args.root = args.root.parent
    try:
        check_schema(url)
    except DatabaseNotReady as error:
        print(f"python -m crawler replay-spill: {error}", file=sys.stderr)
        return 1
    warn_unassigned(args.root, url)
    journal = Journal(store_journal_root(args.root, url))
    adopted = journal.adopt_orphans()
    progress = Progress("journalled items written", adopted)
    statuses = Counter(w.status for w in write_segments(
        session_factory(url), journal.seal(), lambda batch: progress.advance(len(batch))))
    journal.close()
    progress.finish(f"wrote {progress.done:,} of {adopted:,} journalled items in "
                    f"{progress.elapsed():.1f} s")
    print(f"replayed {adopted} items: {statuses['new']} new, {statuses['updated']} updated, "
          f"{statuses['unchanged'] + statuses['not_modified']} unchanged")
    return 0
