"""Crawl-health rules: plain facts in, the health conditions that hold out.

Each rule returns the conditions that hold now, as `HealthEvent`s keyed by what they are
about (a source, a worker, a service seen from a worker). Whoever evaluates them keeps the
conditions it has already reported and sends only the changes (`changes`): one alert when
a condition starts, one note when it clears, nothing while it lasts. No Scrapy, no
database, no network: the scheduler (run-level rules) and each worker (its own services
and journal) feed them what they read. Thresholds are the HEALTH_* settings
(crawler/settings.py), passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# Kinds of condition: the scheduler's (runs, workers), then a worker's (its services, journal).
EMPTY_RUNS, ERROR_RATE, WORKER_STOPPED = "empty_runs", "error_rate", "worker_stopped"
DATABASE_UNREACHABLE, REDIS_UNREACHABLE = "database_unreachable", "redis_unreachable"
JOURNAL_BACKLOG = "journal_backlog"
# What the store did with a run's pages (one of these per page it wrote), and the run
# statistics that are no fetch or extraction error of its pages.
_STORED = ("pages/new", "pages/updated", "pages/unchanged", "pages/not_modified",
           "pages/rejected")
_NOT_PAGE_ERRORS = ("errors/db_unavailable",)


@dataclass(frozen=True)
class HealthEvent:
    """A condition that holds: `key` names it (kind and subject), `message` says it."""

    kind: str
    subject: str
    message: str

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.subject}"


@dataclass(frozen=True)
class RunFacts:
    """A finished run of a source: its id and its final statistics."""

    run_id: int
    stats: Mapping[str, object]

    def count(self, name: str) -> int:
        value = self.stats.get(name, 0)
        return int(value) if isinstance(value, int | float) else 0

    def errors(self) -> dict[str, int]:
        """The run's page errors by kind."""
        return {name.removeprefix("errors/"): self.count(name) for name in sorted(self.stats)
                if name.startswith("errors/") and name not in _NOT_PAGE_ERRORS}

    def stored(self) -> int:
        return sum(self.count(name) for name in _STORED)


def empty_runs(runs: Mapping[str, Sequence[RunFacts]], limit: int) -> list[HealthEvent]:
    """Sources whose last `limit` finished runs (newest first) each stored no new page."""
    events = []
    for source, latest in sorted(runs.items()):
        last = latest[:limit]
        if limit > 0 and len(last) == limit and all(run.count("pages/new") == 0 for run in last):
            ids = ", ".join(str(run.run_id) for run in last)
            events.append(HealthEvent(EMPTY_RUNS, source, (
                f"source {source}: its last {limit} runs stored no new page (runs {ids}); "
                f"the site may have changed, blocked the crawler or stopped publishing")))
    return events


def error_rate(runs: Mapping[str, Sequence[RunFacts]], threshold: float,
               min_pages: int) -> list[HealthEvent]:
    """Sources whose latest finished run failed on more than `threshold` of the pages it
    fetched (errors / (stored pages + errors)), counted once it fetched `min_pages`."""
    events = []
    for source, latest in sorted(runs.items()):
        if not latest:
            continue
        run = latest[0]
        by_kind = run.errors()
        errors = sum(by_kind.values())
        fetched = errors + run.stored()
        if fetched >= max(1, min_pages) and errors / fetched > threshold:
            kinds = ", ".join(f"{kind} {count}" for kind, count in by_kind.items())
            events.append(HealthEvent(ERROR_RATE, source, (
                f"source {source}: run {run.run_id} failed on {errors} of {fetched} pages "
                f"({errors / fetched:.0%}, over {threshold:.0%}): {kinds}")))
    return events


def stopped_workers(last_beats: Mapping[str, float], now: float,
                    silent_after: float) -> list[HealthEvent]:
    """Workers whose last heartbeat (seconds, `now`'s clock) is `silent_after` old or more."""
    return [HealthEvent(WORKER_STOPPED, worker, (
        f"worker {worker}: no heartbeat for {now - beat:.0f} s; it stopped without closing "
        f"(killed, crashed or cut off); the others take over its requests"))
        for worker, beat in sorted(last_beats.items()) if now - beat >= silent_after]


def stand_ins(last_beats: Mapping[str, float], started: Mapping[str, float], now: float,
              silent_after: float) -> dict[str, str]:
    """Silent workers (as `stopped_workers`) → the live worker standing in for each: one
    that started after the silent one's last beat, on the same host first (the worker is
    back, restarted by systemd or Docker), else anywhere (replaced); each live worker stands
    in for one. `started`: each worker's start; one without (a worker of an older version)
    stands in for none. A stood-in worker is no longer missed: its condition clears, and
    stays cleared."""
    live = {worker: started[worker] for worker, beat in last_beats.items()
            if now - beat < silent_after and worker in started}
    silent = sorted(((beat, worker) for worker, beat in last_beats.items()
                     if now - beat >= silent_after), reverse=True)  # the latest stopped first
    found: dict[str, str] = {}
    for same_host in (True, False):
        for beat, worker in silent:
            candidates = sorted((start, name) for name, start in live.items()
                                if start >= beat and worker not in found
                                and (not same_host or _host(name) == _host(worker)))
            if candidates:
                found[worker] = candidates[0][1]
                del live[found[worker]]
    return found


def _host(worker: str) -> str:
    """The host a worker runs on: its name is `host-pid-tag` (crawler/cluster/scheduler.py)."""
    return worker.rsplit("-", 2)[0]


def unreachable(kind: str, what: str, worker: str, since: float | None, now: float,
                limit: float) -> list[HealthEvent]:
    """The service `what` unreachable from `worker` since `since` (None: reachable), for
    `limit` seconds or more."""
    if since is None or now - since < limit:
        return []
    return [HealthEvent(kind, worker, f"worker {worker}: {what} unreachable for "
                                      f"{now - since:.0f} s")]


def journal_backlog(worker: str, samples: Sequence[tuple[float, int]], now: float,
                    window: float, min_growth: int, holding: bool = False) -> list[HealthEvent]:
    """The pages waiting in the worker's journal, sampled as (time, pages) oldest first, are
    `min_growth` or more above what they were `window` seconds ago (the last sample at or
    before then): the database takes pages slower than the crawl journals them, or not at
    all. A condition already `holding` goes on while the backlog is not below that mark and
    not empty (a crawl that pauses during an outage does not end it; the database taking
    the backlog down does)."""
    before = [pages for at, pages in samples if now - at >= window]
    if not before or not samples:
        return []
    mark, pages = before[-1], samples[-1][1]
    growth = pages - mark
    if growth < min_growth and not (holding and growth >= 0 and pages > 0):
        return []
    return [HealthEvent(JOURNAL_BACKLOG, worker, (
        f"worker {worker}: {pages} pages wait in the journal, {growth} more than {window:.0f} s "
        f"ago; the database is not keeping up"))]


def changes(open_keys: Iterable[str], events: Sequence[HealthEvent]
            ) -> tuple[list[HealthEvent], list[str]]:
    """(conditions that started, keys of conditions that cleared) between the conditions
    already reported and those that hold now."""
    known = set(open_keys)
    holding = {event.key for event in events}
    started = [event for event in events if event.key not in known]
    return started, sorted(known - holding)
