"""Move journalled items into the database, one committed transaction per segment.

Shared by the crawl's persistence stage and by `python -m crawler replay-spill`
(crawler/replay.py),
so a spilled journal is written exactly as the live crawl would have written it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from models.db import PROJECT_ROOT
from models.journal import is_journal_directory, read_segment
from models.schema import reason
from models.search.partitions import ensure_months, months_for
from models.store import SaveCounts, now_utc, published_moments, save_pages

logger = logging.getLogger(__name__)

DEFAULT_JOURNAL_ROOT = PROJECT_ROOT / "var" / "journal"
STORE_FILE = "STORE"  # names the database a store folder's journals belong to
_DEFAULT_PORTS = {"postgresql": 5432, "mysql": 3306, "mariadb": 3306}


def store_identity(url: str) -> str:
    """The database a URL points at, however it is spelled: driver, user and password do
    not change which database receives the items; a SQLite file is its absolute path."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = parsed.database or ":memory:"
        return f"sqlite:{path if path == ':memory:' else Path(path).resolve()}"
    host = (parsed.host or "localhost").lower()
    port = parsed.port or _DEFAULT_PORTS.get(backend, 0)
    return f"{backend}://{host}:{port}/{parsed.database or ''}"


def store_journal_root(base: Path, url: str) -> Path:
    """The folder under `base` that holds the journals of one database only, so an item is
    only ever replayed into the store it was meant for. Its STORE file names the database."""
    identity = store_identity(url)
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", identity).strip("-")[-60:]
    root = Path(base) / f"{slug}-{hashlib.sha256(identity.encode()).hexdigest()[:10]}"
    root.mkdir(parents=True, exist_ok=True)
    marker = root / STORE_FILE
    if not marker.exists():
        marker.write_text(identity + "\n", encoding="utf-8")
    return root


def unassigned_journals(base: Path) -> list[Path]:
    """Journal directories directly under `base`, outside any store folder (written before
    journals were kept per database): their database is unknown, so none is replayed."""
    if not Path(base).is_dir():
        return []
    return sorted(path for path in Path(base).iterdir() if is_journal_directory(path))


# SQLSTATE classes of a database that cannot take a write now but may later: connection
# exception, transaction rollback (deadlock, serialization), insufficient resources,
# operator intervention (shutdown, restart). Any other code is about the data itself.
_OUTAGE_SQLSTATE_CLASSES = ("08", "40", "53", "57")
LOGGED_URL_CHARS = 200  # a URL in a log line is cut to this many characters


def is_outage(error: SQLAlchemyError) -> bool:
    """Whether a write failed because the database cannot take it now (retry it later),
    not because it will never take this data (PostgreSQL's ProgramLimitExceeded, an index
    row too large, arrives as an OperationalError too: its SQLSTATE tells them apart)."""
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    code = getattr(getattr(error, "orig", None), "pgcode", None)
    if code:
        return code[:2] in _OUTAGE_SQLSTATE_CLASSES
    return isinstance(error, OperationalError | InterfaceError)


class SegmentWriteError(Exception):
    """Writing one segment failed because the database is out of reach (worth a retry);
    the message is one line, without the batch's SQL or data."""

    def __init__(self, segment: Path, cause: SQLAlchemyError) -> None:
        super().__init__(f"{segment}: {type(cause).__name__}: {reason(cause)}")
        self.segment = segment
        self.cause = cause


@dataclass
class Written:
    """One committed item: what happened to it, and the request it came from."""

    status: str  # new, updated, unchanged, not_modified, or rejected (set aside: refused)
    run_id: int | None
    ticket: str | None
    revisited: bool = False  # the fetch was a revisit of a stored page
    events: Counter[str] = field(default_factory=Counter)  # comments/new, versions/new…


def write_segments(sessions: sessionmaker[Session], segments: Sequence[Path],
                   on_segment: Callable[[list[Written]], None] = lambda _: None,
                   index: bool = True) -> list[Written]:
    """Commit each segment and then delete it, reporting each committed segment to
    `on_segment` (`index`: with the pages' search rows, `save_pages`). A segment the
    database refuses for its data is written page by page and the pages it refuses are set
    aside (`rejected/`), so one bad page never blocks the rest. On an outage raise
    SegmentWriteError after the segments already committed are gone, so a retry resumes
    where this stopped (pages written twice are upserted once)."""
    written: list[Written] = []
    for segment in segments:
        records = list(read_segment(segment))
        try:
            if index:
                _partition_months(sessions, records)
            with sessions.begin() as session:
                counts = save_pages(session, records, index)
        except SQLAlchemyError as error:
            if is_outage(error):
                raise SegmentWriteError(segment, error) from error
            counts = _write_page_by_page(sessions, segment, records, index)
        segment.unlink()
        # a URL fetched twice in a segment is written once: its events count once
        batch = [Written(counts.by_url[r["url"]], r.get("crawl_run_id"), r.get("ticket"),
                         bool(r.get("revisited")), counts.events.pop(r["url"], Counter()))
                 for r in records]
        on_segment(batch)
        written += batch
    return written


def _partition_months(sessions: sessionmaker[Session], records: Sequence[dict[str, Any]]
                      ) -> None:
    """Give the months the records' search rows are filed under their partitions on
    PostgreSQL, before the records' own transaction (models/search/partitions.py). One that
    cannot have its locks in time is left to a later batch with a log line (the rows go to
    the default partition meanwhile, searched all the same); an outage is raised."""
    try:
        with sessions.begin() as session:
            made = ensure_months(session.connection(),
                                 months_for(published_moments(records), now_utc()))
    except SQLAlchemyError as error:
        if is_outage(error):
            raise
        logger.warning("the search table's partitions for these pages were not made now "
                       "(%s); their rows go to its default partition", reason(error))
        return
    if made:
        logger.info("search table partitions made for %s",
                    ", ".join(month.strftime("%Y-%m") for month in made))


def _write_page_by_page(sessions: sessionmaker[Session], segment: Path,
                        records: Sequence[dict[str, Any]], index: bool) -> SaveCounts:
    """Each page in its own transaction; the ones the database refuses go to the segment's
    rejected file with one log line each. Returns each URL's status and events."""
    counts = SaveCounts()
    statuses = counts.by_url
    refused = []
    for record in records:
        try:
            with sessions.begin() as session:
                one = save_pages(session, [record], index)
            statuses.update(one.by_url)
            counts.events.update(one.events)
        except SQLAlchemyError as error:
            if is_outage(error):
                raise SegmentWriteError(segment, error) from error
            refused.append(record)
            statuses[record["url"]] = "rejected"
            logger.error("the database refused the page %s (%s); set aside in %s",
                         record["url"][:LOGGED_URL_CHARS], reason(error), _rejected(segment))
    if refused:
        with _rejected(segment).open("a", encoding="utf-8") as out:
            out.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in refused)
    return counts


def _rejected(segment: Path) -> Path:
    """Where refused data from a segment is kept, beside the journals (never replayed)."""
    folder = segment.parent.parent / "rejected"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{segment.parent.name}-{segment.name}"


def warn_unassigned(base: Path, url: str) -> None:
    """Say once where journals of an unknown database lie and how to write them."""
    unassigned = unassigned_journals(base)
    if unassigned:
        logger.warning("%d journal folders in %s belong to no database (they predate journals "
                       "kept per database) and are not replayed; if they belong to this one, "
                       "move them into %s and run `python -m crawler replay-spill`",
                       len(unassigned), base, store_journal_root(base, url))
