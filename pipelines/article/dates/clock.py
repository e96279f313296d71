"""How one page's dates are read: against its fetch time on its own clock, slashed numeric
dates day first or month first by its language."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from pipelines.article.dates.parse import find_date
from pipelines.lexicon import DAY_FIRST_ENGLISH


class Clock(NamedTuple):
    """How one page's dates are read: relative forms against the fetch time, slashed
    numeric dates day first unless the page is US English."""

    now: datetime
    day_first: bool = False

    def find(self, text: str | None):
        """(datetime, raw) of the first date in `text`, read the page's way."""
        return find_date(text or "", self.now, self.day_first)



def day_first(language: str | None) -> bool:
    """Whether the page writes 10/05/2022 day first: all but US-style English pages (a plain
    "en" tag, as most US sites write it, counts as US)."""
    tag = (language or "").replace("_", "-").lower()
    return bool(tag) and (not tag.startswith("en") or tag.split("-")[-1] in DAY_FIRST_ENGLISH)
