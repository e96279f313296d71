"""A scheduled source keeps its cadence, and its run revisits what falls due before the
next one (crawler/cluster/schedule.py; the live-demo figures: docs/BENCHMARKS.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from crawler.cluster.schedule import claim_time, next_start
from models import Source

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def _source(interval: int | None = 300, cron: str | None = None,
            last: datetime | None = T0) -> Source:
    return Source(name="s", start_urls=["https://a.cn/"], allowed_domains=[], page_type_rules=[],
                  settings={"timezone": "UTC"}, interval_seconds=interval, cron=cron,
                  last_scheduled_at=last, enabled=True)


def test_a_run_is_recorded_when_it_fell_due_so_checks_do_not_drift_the_schedule() -> None:
    late = T0 + timedelta(seconds=329)  # found due by a check 29 s after the moment
    assert claim_time(_source(), late) == T0 + timedelta(seconds=300)
    # after a pause longer than one interval, the cadence restarts from now
    long_after = T0 + timedelta(seconds=650)
    assert claim_time(_source(), long_after) == long_after
    for source in (_source(last=None), _source(interval=None, cron="*/5 * * * *")):
        assert claim_time(source, late) == late


def test_the_next_start_bounds_the_revisits_a_run_takes() -> None:
    assert next_start(_source(), T0) == T0 + timedelta(seconds=300)
    cron = _source(interval=None, cron="*/5 * * * *")
    assert next_start(cron, T0 + timedelta(seconds=61)) == T0 + timedelta(seconds=300)
    assert next_start(_source(interval=None), T0) == T0  # run only when asked
