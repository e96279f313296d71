"""A long command's progress: a line every PROGRESS_SECONDS off a terminal, always the last."""

from __future__ import annotations

import io

from reading.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_off_a_terminal_a_line_every_interval_and_the_closing_one() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress("pages", total=1000, stream=out, every=10, clock=clock)
    for _ in range(10):
        clock.now += 3
        progress.advance(100, "5 index rows")
    progress.finish("reindexed 1,000 pages")
    lines = out.getvalue().splitlines()
    # shown at 12 s, 24 s (every 10 s at least, on the next advance), then the last line
    assert lines == ["400 of 1,000 pages (40 %), 5 index rows, 12 s",
                     "800 of 1,000 pages (80 %), 5 index rows, 24 s",
                     "reindexed 1,000 pages"]


def test_without_a_total_the_count_alone() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress("rows exported", stream=out, every=1, clock=clock)
    clock.now = 2
    progress.advance(7)
    assert out.getvalue() == "7 rows exported, 2 s\n"
