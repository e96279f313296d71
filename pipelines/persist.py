"""Move journalled items into the database, one committed transaction per segment.

Shared by the crawl's persistence stage and by `python -m pipelines replay-spill`,
so a spilled journal is written exactly as the live crawl would have written it.
"""

from __future__ import annotations

import argparse
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from models.db import PROJECT_ROOT, session_factory
from models.store import save_pages
from pipelines.journal import Journal, read_segment

logger = logging.getLogger(__name__)

DEFAULT_JOURNAL_ROOT = PROJECT_ROOT / "var" / "journal"


class SegmentWriteError(Exception):
    """Writing one segment failed; `retryable` is False when the data itself was refused."""

    def __init__(self, segment: Path, cause: Exception) -> None:
        super().__init__(f"{segment}: {type(cause).__name__}: {cause}")
        self.segment = segment
        self.cause = cause
        self.retryable = isinstance(cause, OperationalError | InterfaceError) or bool(
            isinstance(cause, DBAPIError) and cause.connection_invalidated)


@dataclass
class Written:
    """One committed item: what happened to it, and the request it came from."""

    status: str  # new, updated or unchanged
    run_id: int | None
    ticket: str | None


def write_segments(sessions: sessionmaker[Session], segments: Sequence[Path],
                   on_segment: Callable[[list[Written]], None] = lambda _: None) -> list[Written]:
    """Commit each segment and then delete it, reporting each committed segment to
    `on_segment`. On failure raise SegmentWriteError after the segments already committed
    are gone, so a retry resumes where this stopped."""
    written: list[Written] = []
    for segment in segments:
        records = list(read_segment(segment))
        try:
            with sessions.begin() as session:
                counts = save_pages(session, records)
        except SQLAlchemyError as error:
            raise SegmentWriteError(segment, error) from error
        segment.unlink()
        batch = [Written(counts.by_url[r["url"]], r.get("crawl_run_id"), r.get("ticket"))
                 for r in records]
        on_segment(batch)
        written += batch
    return written


def quarantine(segment: Path) -> Path:
    """Set aside a segment the database refused (not an outage), so it blocks nothing."""
    target = segment.parent.parent / "rejected" / f"{segment.parent.name}-{segment.name}"
    target.parent.mkdir(parents=True, exist_ok=True)
    segment.rename(target)
    return target


def replay_main(argv: list[str]) -> int:
    """Write every journal left by crawls that could not reach the database."""
    parser = argparse.ArgumentParser(prog="python -m pipelines replay-spill")
    parser.add_argument("root", nargs="?", type=Path, default=DEFAULT_JOURNAL_ROOT,
                        help="journal root directory (default: var/journal)")
    parser.add_argument("--database-url", default=None, help="default: $DATABASE_URL or SQLite")
    args = parser.parse_args(argv)
    journal = Journal(args.root)
    adopted = journal.adopt_orphans()
    statuses = Counter(w.status for w in write_segments(session_factory(args.database_url),
                                                        journal.seal()))
    journal.close()
    print(f"replayed {adopted} items: {statuses['new']} new, {statuses['updated']} updated, "
          f"{statuses['unchanged']} unchanged")
    return 0
