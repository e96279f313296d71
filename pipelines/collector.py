"""The cyclic garbage collector paused for a piece of work that makes many long-lived
objects and no cycles that must go early.

Such work (an article's route over its elements, a grouping pass over its articles) keeps
what it allocates to its end, where reference counting frees it; meanwhile the collector's
generations fill and each full collection scans the whole heap and finds nothing
(docs/DECISIONS.md, "Article route speed"; docs/BENCHMARKS.md, stories).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the collector for the block (or the decorated call) and leave it as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
