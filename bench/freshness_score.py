"""Freshness scores of a crawl against the live demo site's truth log (pure).

Times are wall seconds (epoch); `scale` turns them into the site's simulated seconds. An
article's delay runs from its appearance to its page row in the database; a comment's, to
its comment row, judged against its article's revisit interval at the moment it appeared
(the `revisit_seconds` the last visit before it planned, scaled). Comments that appeared
before their article was stored are the article's business, not counted here. A change
whose goal window had not closed when the crawl was stopped, and that was not stored
yet, is `censored` (left out), not a miss.

A delay has two parts: waiting for the run that stores the change (the schedule's, which
the scale compresses faithfully) and that run's own work from its start to the row
(fetching, extracting, writing: real seconds, which no clock compresses). `scaled` counts
both in simulated seconds, so at scale 30 one second of work reads as 30 s: the
compression's artifact. `delays`, by which the goals are judged, counts the wait scaled
and the work as it took, i.e. what the delay would be with the site living in real time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StoredComment:
    """A comment row: its article's path, author, text (as last written), whether it is
    marked gone, and when a row with it was first seen in the database (wall seconds)."""

    path: str
    author: str | None
    text: str
    gone: bool
    seen: float


@dataclass(frozen=True)
class Delays:
    """Delays (simulated seconds) of the changes stored, and how many were missed or censored."""

    delays: list[float]  # the wait scaled, the run's work in real seconds (see above)
    scaled: list[float]  # all of it scaled
    within: int  # stored within their goal (by `delays`)
    missed: int  # never stored although their window closed
    censored: int

    @property
    def judged(self) -> int:
        return len(self.delays) + self.missed

    @property
    def share_within(self) -> float:
        return self.within / self.judged if self.judged else math.nan


@dataclass(frozen=True)
class Duplicates:
    """Comment rows against the site's final comments, per article: rows beyond one per
    comment (`duplicated`), comments without a row (`missing`), live rows matching no
    comment of the site (`stray`: a deleted one not marked gone, or extraction noise)."""

    duplicated: int
    missing: int
    stray: int
    rows: int


@dataclass
class Schedule:
    """A page's visits as the database showed them: (fetched at, revisit seconds planned)."""

    visits: list[tuple[float, float | None]] = field(default_factory=list)

    def note(self, fetched: float, interval: float | None) -> None:
        if not self.visits or self.visits[-1][0] != fetched:
            self.visits.append((fetched, interval))

    def interval_at(self, wall: float) -> float | None:
        """The revisit interval (wall seconds) planned by the last visit before `wall`."""
        planned = [interval for fetched, interval in self.visits if fetched <= wall]
        return planned[-1] if planned else None


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1); nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def normal(text: str) -> str:
    return " ".join(text.split())


def delay(appeared: float, stored: float, run_starts: Sequence[float],
          scale: float) -> tuple[float, float]:
    """(delay with the run's work in real seconds, delay all scaled), simulated seconds:
    the wait ends when the last run started before the row did (or at the appearance, if a
    run already under way stored it)."""
    started = max((start for start in run_starts if start <= stored), default=appeared)
    boundary = min(max(started, appeared), stored)
    return (boundary - appeared) * scale + (stored - boundary), (stored - appeared) * scale


def article_delays(truth: Iterable[Mapping], stored: Mapping[str, float],
                   run_starts: Sequence[float], scale: float, goal: float,
                   end: float) -> Delays:
    """New items (truth kind `item`) against the wall time their row appeared (`stored`,
    path → wall); `goal` in simulated seconds, `end` the wall time the crawl stopped."""
    delays, scaled, missed, censored = [], [], 0, 0
    for record in truth:
        if record["kind"] != "item":
            continue
        seen = stored.get(record["path"])
        if seen is not None:
            real, compressed = delay(record["wall"], max(seen, record["wall"]), run_starts,
                                     scale)
            delays.append(real)
            scaled.append(compressed)
        elif record["wall"] + goal / scale <= end:
            missed += 1
        else:
            censored += 1
    return Delays(delays, scaled, sum(d <= goal for d in delays), missed, censored)


def _final_texts(truth: Sequence[Mapping]) -> dict[tuple[str, int], str]:
    """(path, comment id) → the text of its last edit."""
    return {(r["path"], r["cid"]): r["text"] for r in truth if r["kind"] == "comment_edit"}


def _matches(row: StoredComment, author: str, text: str) -> bool:
    return row.author == author and normal(text) in normal(row.text)


def comment_delays(truth: Sequence[Mapping], rows: Sequence[StoredComment],
                   articles: Mapping[str, float], schedules: Mapping[str, Schedule],
                   run_starts: Sequence[float], scale: float, end: float) -> Delays:
    """New comments (truth kind `comment`) on articles already stored, against the first
    row that shows them (its text as last edited); the goal is the article's interval."""
    edited = _final_texts(truth)
    by_path: dict[str, list[StoredComment]] = {}
    for row in rows:
        by_path.setdefault(row.path, []).append(row)
    delays, scaled, within, missed, censored = [], [], 0, 0, 0
    for record in truth:
        stored_at = articles.get(record["path"])
        if record["kind"] != "comment" or stored_at is None or stored_at > record["wall"]:
            continue
        text = edited.get((record["path"], record["cid"]), record["text"])
        seen = [row.seen for row in by_path.get(record["path"], ())
                if _matches(row, record["author"], text) or _matches(row, record["author"],
                                                                      record["text"])]
        schedule = schedules.get(record["path"])
        interval = schedule.interval_at(record["wall"]) if schedule else None
        goal = math.inf if interval is None else interval * scale  # simulated seconds
        if seen:
            real, compressed = delay(record["wall"], max(min(seen), record["wall"]),
                                     run_starts, scale)
            delays.append(real)
            scaled.append(compressed)
            within += real <= goal
        elif record["wall"] + goal / scale <= end:
            missed += 1
        else:
            censored += 1
    return Delays(delays, scaled, within, missed, censored)


def duplicates(final: Mapping[str, Sequence[tuple[str, str]]],
               rows: Sequence[StoredComment]) -> Duplicates:
    """`final`: path → (author, text) of each comment the site shows at the end, for the
    stored articles. Rows marked gone are not counted."""
    by_path: dict[str, list[StoredComment]] = {}
    for row in rows:
        if not row.gone:
            by_path.setdefault(row.path, []).append(row)
    duplicated = missing = stray = 0
    for path in set(final) | set(by_path):
        live = by_path.get(path, [])
        wanted = Counter((author, normal(text)) for author, text in final.get(path, ()))
        matched: Counter[tuple[str, str]] = Counter()
        for row in live:
            hit = next((sig for sig in wanted if _matches(row, *sig)), None)
            if hit is None:
                stray += 1
            else:
                matched[hit] += 1
        duplicated += sum(max(matched[sig] - n, 0) for sig, n in wanted.items())
        missing += sum(max(n - matched[sig], 0) for sig, n in wanted.items())
    return Duplicates(duplicated, missing, stray, sum(map(len, by_path.values())))
