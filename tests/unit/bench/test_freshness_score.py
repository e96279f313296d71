"""Freshness scores against a truth log: delays split into the wait and the run's work,
censoring, comment matching through edits, duplicates and strays."""

from __future__ import annotations

import math

from bench.freshness_score import (
    Schedule,
    StoredComment,
    article_delays,
    comment_delays,
    delay,
    duplicates,
    percentile,
)

SCALE = 10.0


def _item(path: str, wall: float) -> dict:
    return {"kind": "item", "path": path, "at": 0, "wall": wall}


def _comment(path: str, wall: float, cid: int | None, author: str, text: str,
             kind: str = "comment") -> dict:
    return {"kind": kind, "path": path, "at": 0, "wall": wall, "cid": cid, "author": author,
            "text": text}


def test_the_wait_is_scaled_and_the_runs_work_is_not() -> None:
    # appeared at 100, the next run started at 110, its row at 112: 10 s waited, 2 s worked
    assert delay(100, 112, [90, 110, 130], SCALE) == (100 + 2, 120)
    # a run already under way stored it: all of it is the run's work
    assert delay(100, 101, [95], SCALE) == (1, 10)


def test_articles_stored_missed_and_censored() -> None:
    truth = [_item("/a", 100), _item("/b", 100), _item("/c", 195), {"kind": "comment"}]
    result = article_delays(truth, {"/a": 110}, [100], SCALE, goal=300, end=200)
    assert (result.delays, result.scaled, result.missed, result.censored) == ([10], [100], 1, 1)
    assert result.within == 1 and result.share_within == 0.5


def test_a_comment_counts_from_its_first_row_and_against_its_articles_interval() -> None:
    truth = [_comment("/a", 100, 1, "ann", "first"),
             _comment("/a", 150, 2, "bob", "second"),
             _comment("/a", 160, 2, "bob", "second, edited", kind="comment_edit"),
             _comment("/a", 190, 3, "cy", "late"),
             _comment("/new", 100, None, "dee", "on an article stored later")]
    rows = [StoredComment("/a", "ann", "first", False, 109),
            StoredComment("/a", "bob", "second, edited", False, 170)]
    schedule = Schedule()
    schedule.note(50, 30)   # the visit at 50 planned the next 30 s later
    schedule.note(50, 30)   # the same visit polled twice is one visit
    schedule.note(109, 15)
    result = comment_delays(truth, rows, {"/a": 40, "/new": 120}, {"/a": schedule},
                            [108, 169], SCALE, end=200)
    assert schedule.visits == [(50, 30), (109, 15)]
    assert result.delays == [80 + 1, 190 + 1]  # ann: 8 s waited (×10), 1 s worked
    assert result.within == 1  # ann within 300 s; bob's 191 s > 150 s (15 s × 10)
    assert (result.missed, result.censored) == (0, 1)  # cy's window is open at the end


def test_duplicates_missing_and_stray_rows() -> None:
    final = {"/a": [("ann", "hello"), ("bob", "same"), ("bob", "same")], "/b": [("cy", "x")]}
    rows = [StoredComment("/a", "ann", "hello", False, 0),
            StoredComment("/a", "ann", "hello", False, 0),  # stored twice
            StoredComment("/a", "bob", " same ", False, 0),  # one of bob's two
            StoredComment("/a", "zed", "deleted", False, 0),  # gone from the site, not marked
            StoredComment("/a", "old", "gone", True, 0)]  # marked gone: not counted
    result = duplicates(final, rows)
    assert (result.duplicated, result.missing, result.stray, result.rows) == (1, 2, 1, 4)


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 21))
    assert (percentile(values, 0.5), percentile(values, 0.95)) == (10, 19)
    assert math.isnan(percentile([], 0.5))
