"""Calendar days as pages write them, for the labeller: `pipelines.article.dates.parse` read
to the day.

Used both as a sign feature and to find the ground-truth day among the blocks.
"""

from __future__ import annotations

from datetime import date, datetime

from pipelines.article.dates.parse import find_date


def find_day(text: str, now: datetime | None = None) -> tuple[date, str] | None:
    """The first calendar day written in `text`, with the substring it was read from."""
    found = find_date(text, now)
    return (found[0].date(), found[1]) if found else None
