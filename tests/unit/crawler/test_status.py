"""`status`'s pure parts: a run's statistics split into types, outcomes and errors; pages a
minute from a worker's samples; a snapshot as text and as JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from crawler.status.live import per_minute
from crawler.status.render import DOMAINS_SHOWN, as_json, as_text
from crawler.status.snapshot import RunView, Snapshot, WorkerView, split_stats

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_statistics_split_into_types_outcomes_and_errors() -> None:
    types, outcomes, errors = split_stats({
        "pages/type/news": 7, "pages/type/list": 2, "pages/new": 6, "pages/updated": 1,
        "pages/unchanged": 2, "pages/capped/links": 1, "errors/http_503": 3,
        "errors/TimeoutError": 1, "records/found": 40, "finish_reason": "finished",
        "live/updated_at": 1.5})
    assert types == {"news": 7, "list": 2}
    assert outcomes == {"new": 6, "updated": 1, "unchanged": 2}
    assert errors == {"http_503": 3, "TimeoutError": 1}


def test_pages_a_minute_over_the_last_minute_of_samples() -> None:
    samples = [(0.0, {1: 0}), (30.0, {1: 100}), (70.0, {1: 160, 2: 10}), (90.0, {1: 220, 2: 40})]
    rates = per_minute(samples)
    # the window starts at the oldest sample within the last minute (30 s): 120 pages in 60 s
    assert rates == {1: 120.0, 2: 40.0}
    assert per_minute(samples[:1]) == {}
    assert per_minute([(5.0, {1: 3}), (5.0, {1: 4})]) == {}


def _snapshot() -> Snapshot:
    run = RunView(12, "example-news", "running", datetime(2026, 1, 2, 3, 0, tzinfo=UTC), None,
                  {"news": 20, "list": 4}, {"new": 21, "unchanged": 3}, {"http_503": 2},
                  per_minute=96.0, pending=35)
    domains = {f"d{n}.example.cn": n for n in range(1, DOMAINS_SHOWN + 3)}
    workers = [WorkerView("host-1-abc", True, 0.8, 4, 120, 96.0, 0),
               WorkerView("host-2-def", False, None, 2, None, None, None)]
    return Snapshot(NOW, "cluster", [run], 1, 35, domains, workers)


def test_the_text_names_each_figure_status_promises() -> None:
    text = as_text(_snapshot())
    assert "1 run in flight" in text
    assert "run 12  example-news  running  started 2026-01-02 03:00:00" in text
    assert "pages stored 24: new 21, unchanged 3" in text
    assert "pages by type: news 20, list 4" in text
    assert "errors: http_503 2" in text
    assert "96 pages stored in the last minute; 35 requests pending" in text
    assert "1 unfinished run not updated recently" in text
    # the busiest domains first, the rest counted
    assert f"shared queue: 35 requests; by domain: d{DOMAINS_SHOWN + 2}.example.cn" in text
    assert "and 2 more" in text
    assert "1 worker alive" in text
    assert "host-1-abc  heartbeat 1 s ago  4 in flight  120 stored  96/min" in text
    assert "host-2-def  no heartbeat (stopped)" in text


def test_the_json_is_the_snapshot_field_for_field() -> None:
    data = json.loads(json.dumps(as_json(_snapshot())))
    assert data["taken_at"] == NOW.isoformat() and data["mode"] == "cluster"
    run = data["runs"][0]
    assert run["run_id"] == 12 and run["pending"] == 35 and run["per_minute"] == 96.0
    assert run["outcomes"] == {"new": 21, "unchanged": 3}
    assert run["started_at"] == "2026-01-02T03:00:00+00:00"
    assert data["queued"] == 35 and len(data["queued_by_domain"]) == DOMAINS_SHOWN + 2
    assert data["workers"][0] == {"name": "host-1-abc", "alive": True,
                                  "last_beat_seconds_ago": 0.8, "in_flight": 4, "stored": 120,
                                  "per_minute": 96.0, "backlog": 0}


def test_a_database_only_view_has_no_queue_or_workers() -> None:
    text = as_text(Snapshot(NOW, "database", [RunView(3, None, updated_seconds_ago=4.0)]))
    assert "(from the database)" in text and "run 3  (no source)" in text
    assert "figures written 4 s ago" in text
    assert "shared queue" not in text and "worker" not in text


def test_a_scrape_with_redis_out_of_reach_says_so_and_nothing_else() -> None:
    from redis import Redis

    from crawler.metrics.cluster import ClusterCollector
    closed = Redis.from_url("redis://127.0.0.1:1/0", socket_timeout=0.5,
                            socket_connect_timeout=0.5)
    families = list(ClusterCollector(closed, "site").collect())
    assert [(family.name, [sample.value for sample in family.samples])
            for family in families] == [("crawler_redis_up", [0.0])]
