"""A crash-safe journal of items on their way to the database.

Every item is appended to a segment file before the database sees it; a segment
is deleted only after its transaction commits. So a database outage, a slow
database or a killed crawler (even SIGKILL) loses nothing: the next crawl, or
`python -m crawler replay-spill DIR`, writes what is left. Each process owns
one directory, held with an advisory lock the kernel drops when the process dies;
directories whose lock is free are orphans to adopt.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

logger = logging.getLogger(__name__)

_LOCK_NAME = "owner.lock"


class Journal:
    """Append-only segments under `root/<owner>/`; sealed segments wait for a commit."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.directory = self.root / f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock = open(self.directory / _LOCK_NAME, "w")  # noqa: SIM115 - held for life
        fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._segment: IO[str] | None = None
        self._segment_path: Path | None = None
        self._sequence = 0
        self.open_items = 0  # items in the open segment, not yet handed to a writer

    def append(self, record: dict[str, Any]) -> None:
        """Write one item (see `append_line`)."""
        self.append_line(json.dumps(record, ensure_ascii=False, default=str))

    def append_line(self, line: str) -> None:
        """Write one item already serialised as a JSON object on one line; flushed to the
        OS at once, so SIGKILL cannot lose it."""
        if self._segment is None:
            self._sequence += 1
            self._segment_path = self.directory / f"{self._sequence:08d}.open"
            self._segment = open(self._segment_path, "a", encoding="utf-8")  # noqa: SIM115
        self._segment.write(line + "\n")
        self._segment.flush()
        self.open_items += 1

    def seal(self) -> list[Path]:
        """Close the open segment; return every sealed segment awaiting a commit, oldest first."""
        if self._segment is not None and self._segment_path is not None:
            self._segment.close()
            self._segment_path.rename(self._segment_path.with_suffix(".jsonl"))
            self._segment = None
            self.open_items = 0
        return sorted(self.directory.glob("*.jsonl"))

    def adopt_orphans(self) -> int:
        """Move segments of dead processes' journals into ours; returns how many items."""
        adopted = 0
        for directory in orphan_directories(self.root, exclude=self.directory):
            for segment in sorted(directory.glob("*.jsonl")) + sorted(directory.glob("*.open")):
                self._sequence += 1
                target = self.directory / f"{self._sequence:08d}.jsonl"
                segment.rename(target)
                adopted += sum(1 for _ in read_segment(target))
            _remove_directory(directory)
        return adopted

    def close(self) -> None:
        """Release the lock; an empty journal leaves no directory behind."""
        self.seal()
        self._lock.close()
        if not any(self.directory.glob("*.jsonl")):
            _remove_directory(self.directory)


def orphan_directories(root: Path, exclude: Path | None = None) -> Iterator[Path]:
    """Journal directories whose owner process is gone (their lock can be taken)."""
    if not root.is_dir():
        return
    for directory in sorted(p for p in root.iterdir() if p != exclude):
        if not is_journal_directory(directory):
            continue  # not a journal (e.g. the quarantine folder, or someone else's files)
        with open(directory / _LOCK_NAME, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a live process owns it
            yield directory


def is_journal_directory(path: Path) -> bool:
    """A process's journal folder (it holds the owner's lock file)."""
    return path.is_dir() and (path / _LOCK_NAME).is_file()


def read_segment(path: Path) -> Iterator[dict[str, Any]]:
    """Items of one segment; a line cut short by a crash is reported and skipped."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                logger.warning("journal %s line %d is truncated; skipped", path, number)


def _remove_directory(directory: Path) -> None:
    for child in directory.iterdir():
        child.unlink()
    directory.rmdir()
