"""A page's time budget: stages check it between steps and in their long loops, so that a
page no cap bounds enough is given up in time rather than stalling a crawl worker.

Counted in the CPU time of the thread that reads the page (time.thread_time): what the page
itself cost, whatever else the machine runs. No signal, no thread: the caller sets the
budget, the route checks it and raises OutOfTime, which process.extract turns into a page
stored without (or with part of) its extraction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


class OutOfTimeError(Exception):
    """The page's time budget ran out in `stage`."""

    def __init__(self, stage: str) -> None:
        super().__init__(f"time budget ran out in {stage}")
        self.stage = stage


@dataclass(frozen=True)
class Deadline:
    """The thread CPU time at which a page's budget runs out; None: no budget."""

    at: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """A budget of `seconds` of CPU time from now; None or 0: none."""
        return cls(time.thread_time() + seconds if seconds else None)

    def check(self, stage: str) -> None:
        """Raise OutOfTimeError naming `stage` once the budget has run out."""
        if self.at is not None and time.thread_time() > self.at:
            raise OutOfTimeError(stage)


NO_DEADLINE = Deadline()
