"""A status snapshot as text for people or as JSON for scripts: pure functions."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Any

from crawler.status.snapshot import RunView, Snapshot, WorkerView

DOMAINS_SHOWN = 10  # the text lists the domains with the most queued requests; JSON all


def as_json(snapshot: Snapshot) -> dict[str, Any]:
    """The snapshot as JSON-able data: times in ISO 8601, every field named as in
    `crawler.status.snapshot`."""
    return _jsonable(asdict(snapshot))


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_jsonable(item) for item in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count:,}" for name, count in
                     sorted(counts.items(), key=lambda item: (-item[1], item[0]))) or "none"


def _ago(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    if seconds < 90:
        return f"{seconds:.0f} s ago"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min ago"
    return f"{seconds / 3600:.1f} h ago"


def _run_lines(run: RunView) -> list[str]:
    started = (f"started {run.started_at:%Y-%m-%d %H:%M:%S}" if run.started_at else
               "start not recorded")
    head = f"run {run.run_id}  {run.source or '(no source)'}  {run.status}  {started}"
    if run.finished_at is not None:
        head += f", finished {run.finished_at:%Y-%m-%d %H:%M:%S}"
    stored = sum(run.outcomes.values())
    lines = [head,
             f"  pages stored {stored:,}: {_counts(run.outcomes)}",
             f"  pages by type: {_counts(run.pages_by_type)}",
             f"  errors: {_counts(run.errors)}"]
    flow = []
    if run.per_minute is not None:
        flow.append(f"{run.per_minute:,.0f} pages stored in the last minute")
    if run.pending is not None:
        flow.append(f"{run.pending:,} requests pending (queued or in flight)")
    if run.finished_at is None and run.updated_seconds_ago is not None and run.pending is None:
        flow.append(f"figures written {_ago(run.updated_seconds_ago)}")
    if flow:
        lines.append("  " + "; ".join(flow))
    return lines


def _worker_line(worker: WorkerView) -> str:
    state = (f"heartbeat {_ago(worker.last_beat_seconds_ago)}" if worker.alive
             else "no heartbeat (stopped)")
    line = f"{worker.name}  {state}  {worker.in_flight:,} in flight"
    if worker.stored is not None:
        line += f"  {worker.stored:,} stored"
    if worker.per_minute is not None:
        line += f"  {worker.per_minute:,.0f}/min"
    if worker.backlog:
        line += f"  {worker.backlog:,} waiting in the journal"
    return line


def as_text(snapshot: Snapshot) -> str:
    """The snapshot for a terminal: runs, then the shared queue and the workers."""
    where = "Redis and the database" if snapshot.mode == "cluster" else "the database"
    lines = [f"status at {snapshot.taken_at:%Y-%m-%d %H:%M:%S %Z} (from {where})"]
    in_flight = [run for run in snapshot.runs if run.finished_at is None]
    lines.append(f"{len(in_flight)} run{'s' * (len(in_flight) != 1)} in flight")
    for run in snapshot.runs:
        lines += ["  " + line for line in _run_lines(run)]
    if snapshot.stale_runs:
        lines.append(f"{snapshot.stale_runs} unfinished run{'s' * (snapshot.stale_runs != 1)} "
                     "not updated recently (crawls stopped before recording their end?): "
                     "`status RUN` shows one")
    if snapshot.queued is not None:
        domains = sorted(snapshot.queued_by_domain.items(), key=lambda item: (-item[1], item[0]))
        shown = ", ".join(f"{domain} {count:,}" for domain, count in domains[:DOMAINS_SHOWN])
        more = f" and {len(domains) - DOMAINS_SHOWN} more" if len(domains) > DOMAINS_SHOWN else ""
        lines.append(f"shared queue: {snapshot.queued:,} requests"
                     + (f"; by domain: {shown}{more}" if shown else ""))
        alive = sum(worker.alive for worker in snapshot.workers)
        lines.append(f"{alive} worker{'s' * (alive != 1)} alive")
        lines += ["  " + _worker_line(worker) for worker in snapshot.workers]
    return "\n".join(lines)
