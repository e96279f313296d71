"""Progress of a long command (reindex, export) on stderr.

On a terminal the line is rewritten in place as the work advances; elsewhere (a log file,
systemd, CI) a line is written every PROGRESS_SECONDS, so a long run shows it is alive
without flooding its log; the closing line is always written.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

PROGRESS_SECONDS = 10.0  # between progress lines when stderr is not a terminal
_TERMINAL_SECONDS = 0.2  # between rewrites on a terminal


class Progress:
    """`what` done so far (of `total`, when known), with the elapsed seconds."""

    def __init__(self, what: str, total: int | None = None, stream: TextIO | None = None,
                 every: float = PROGRESS_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.total = total
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.every = _TERMINAL_SECONDS if self.terminal else every
        self.clock = clock
        self.started = self.shown_at = clock()
        self.done = 0

    def line(self, note: str = "") -> str:
        """'12,000 of 50,000 pages (24 %), 3,100 index rows, 41 s'."""
        counted = f"{self.done:,}"
        if self.total:
            counted += f" of {self.total:,} {self.what} ({100 * self.done // self.total} %)"
        else:
            counted += f" {self.what}"
        return f"{counted}{', ' + note if note else ''}, {self.clock() - self.started:.0f} s"

    def advance(self, count: int = 1, note: str = "") -> None:
        """`count` more done; shown if its time has come."""
        self.done += count
        now = self.clock()
        if now - self.shown_at >= self.every:
            self.shown_at = now
            self._write(self.line(note), last=False)

    def finish(self, line: str) -> None:
        """The closing line, always written."""
        self._write(line, last=True)

    def _write(self, line: str, last: bool) -> None:
        if self.terminal:
            print(f"\r\x1b[K{line}", end="\n" if last else "", file=self.stream, flush=True)
        else:
            print(line, file=self.stream, flush=True)

    def elapsed(self) -> float:
        return self.clock() - self.started
