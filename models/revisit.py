"""When a stored article is fetched again: a schedule that follows its life.

Often while it is young or while its comments and replies grow, then more and more rarely,
then never: after each visit the interval is the shortest (`min_seconds`) if the page
changed and `backoff` times the last one (up to `max_seconds`) if it did not; no visit is
planned later than `max_age_seconds` after the page was first seen. The crawler sets the
policy per source (crawler/revisits.py) and journals it with each page, so a replayed
journal schedules as the live crawl would. Pure: the clock is the fetch's own time.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class RevisitPolicy:
    """How often a source's articles are fetched again, in seconds."""

    min_seconds: float
    max_seconds: float
    backoff: float
    max_age_seconds: float

    def json(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> RevisitPolicy:
        return cls(**{name: float(value[name]) for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Visit:
    """The schedule after a visit: when next (None: never again) and the interval that set it."""

    next_at: datetime | None
    interval_seconds: int


def next_visit(policy: RevisitPolicy, first_seen_at: datetime, fetched_at: datetime,
               last_interval: float | None, changed: bool) -> Visit:
    """The visit after one at `fetched_at` that found the page `changed` (new content) or
    not; `last_interval` is the interval that led to it (None on the first visit)."""
    if changed or last_interval is None:
        interval = policy.min_seconds
    else:
        interval = min(max(last_interval, policy.min_seconds) * policy.backoff,
                       policy.max_seconds)
    at = fetched_at + timedelta(seconds=interval)
    if at > first_seen_at + timedelta(seconds=policy.max_age_seconds):
        return Visit(None, round(interval))
    return Visit(at, round(interval))
