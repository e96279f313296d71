"""The crawl-health rules: plain facts in, the conditions that hold out."""

from __future__ import annotations

from pipelines.health import (
    DATABASE_UNREACHABLE,
    EMPTY_RUNS,
    ERROR_RATE,
    HealthEvent,
    RunFacts,
    changes,
    empty_runs,
    error_rate,
    journal_backlog,
    stand_ins,
    stopped_workers,
    unreachable,
)


def _run(run_id: int, new: int = 0, unchanged: int = 5, **errors: int) -> RunFacts:
    return RunFacts(run_id, {"pages/new": new, "pages/unchanged": unchanged,
                             "pages/type/other": new + unchanged,
                             "finish_reason": "finished",
                             **{f"errors/{kind}": count for kind, count in errors.items()}})


def test_a_source_is_empty_only_after_its_last_n_runs_all_stored_nothing_new() -> None:
    runs = {"quiet": [_run(9), _run(8), _run(7), _run(6, new=4)],
            "lively": [_run(5, new=1), _run(4), _run(3)],
            "young": [_run(2), _run(1)]}  # fewer runs than the limit: not yet
    [event] = empty_runs(runs, 3)
    assert (event.kind, event.subject, event.key) == (EMPTY_RUNS, "quiet", "empty_runs:quiet")
    assert "runs 9, 8, 7" in event.message
    assert empty_runs(runs, 0) == []  # 0 turns the rule off


def test_the_error_rate_counts_errors_against_pages_fetched_from_a_minimum() -> None:
    runs = {"broken": [_run(3, new=1, unchanged=0, http_500=10)],
            "small": [_run(2, new=1, unchanged=0, http_500=3)],  # 4 fetched: under the minimum
            "fine": [_run(1, new=20, unchanged=0, http_404=1)],
            "db": [RunFacts(4, {"pages/new": 1, "errors/db_unavailable": 50})]}
    [event] = error_rate(runs, 0.2, 5)
    assert (event.kind, event.subject) == (ERROR_RATE, "broken")
    assert "10 of 11 pages" in event.message and "http_500 10" in event.message
    assert error_rate({"broken": [_run(5, new=30), *runs["broken"]]}, 0.2, 5) == []  # latest


def test_a_worker_is_stopped_once_its_heartbeat_is_old_enough() -> None:
    [event] = stopped_workers({"a": 100.0, "b": 95.0, "c": 70.0}, now=100.0, silent_after=30)
    assert event.subject == "c" and "30 s" in event.message


def test_a_silent_worker_is_stood_in_for_by_one_started_after_it_stopped() -> None:
    beats = {"h1-10-aa": 50.0, "h2-11-bb": 60.0, "h1-12-cc": 99.0, "h3-13-dd": 99.0,
             "h3-14-ee": 99.0}
    starts = {"h1-12-cc": 70.0, "h3-13-dd": 65.0, "h3-14-ee": 10.0}
    # h1's worker is back (same host, started after its last beat), h2's replaced by the one
    # on h3 started after it stopped; the one that ran alongside them stands in for nobody
    assert stand_ins(beats, starts, now=100.0, silent_after=30) == {
        "h1-10-aa": "h1-12-cc", "h2-11-bb": "h3-13-dd"}
    # one stand-in for two silent workers: the one on its host is back, the other is missed
    assert stand_ins({"h1-10-aa": 50.0, "h2-11-bb": 60.0, "h1-12-cc": 99.0}, starts,
                     now=100.0, silent_after=30) == {"h1-10-aa": "h1-12-cc"}
    assert stand_ins({"a-1-x": 99.0}, {}, now=100.0, silent_after=30) == {}
    # a live worker whose start is unknown (an older version's) stands in for nobody
    assert stand_ins({"h1-10-aa": 50.0, "h1-12-cc": 99.0}, {}, now=100.0, silent_after=30) == {}


def test_a_service_is_unreachable_from_the_limit_on() -> None:
    assert unreachable(DATABASE_UNREACHABLE, "the database", "w", None, 100.0, 10) == []
    assert unreachable(DATABASE_UNREACHABLE, "the database", "w", 95.0, 100.0, 10) == []
    [event] = unreachable(DATABASE_UNREACHABLE, "the database", "w", 90.0, 100.0, 10)
    assert event.key == "database_unreachable:w" and "for 10 s" in event.message


def test_a_journal_backlog_grows_over_the_window_and_holds_until_it_goes_down() -> None:
    growing = [(0.0, 0), (4.0, 10), (8.0, 30), (12.0, 60)]
    [event] = journal_backlog("w", growing, 12.0, 10.0, 50)  # 60 now, 0 at 2.0 (10 s ago)
    assert event.key == "journal_backlog:w" and "60 pages wait" in event.message
    assert not journal_backlog("w", growing, 12.0, 10.0, 70)  # not grown enough
    assert not journal_backlog("w", growing[2:], 12.0, 10.0, 20)  # no sample a window old
    assert journal_backlog("w", [(0.0, 0), (4.0, 60), (8.0, 20), (12.0, 60)], 12.0, 10.0, 50)
    stalled = [(0.0, 500), (12.0, 500)]  # an outage during which the crawl paused
    assert not journal_backlog("w", stalled, 12.0, 10.0, 1)
    assert journal_backlog("w", stalled, 12.0, 10.0, 1, holding=True)
    assert not journal_backlog("w", [(0.0, 500), (12.0, 450)], 12.0, 10.0, 1, holding=True)
    assert not journal_backlog("w", [(0.0, 0), (12.0, 0)], 12.0, 10.0, 1, holding=True)


def test_changes_are_conditions_that_started_and_keys_that_cleared() -> None:
    a, b = HealthEvent(EMPTY_RUNS, "a", "…"), HealthEvent(EMPTY_RUNS, "b", "…")
    assert changes([], [a]) == ([a], [])
    assert changes([a.key], [a, b]) == ([b], [])  # a goes on: not raised again
    assert changes([a.key, b.key], [b]) == ([], [a.key])
