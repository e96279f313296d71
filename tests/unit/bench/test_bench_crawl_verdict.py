"""The crawl benchmark's arithmetic: the steady span, whether a mode's cores were busy
over it (the goals compare steady rates), and what search costs the store rate."""

import os

import pytest

from bench.crawl import CORES_BUSY, Result, bound_by, busy_cores, goals, steady_span


def _row(seconds: float, cpu_seconds: float, steady_busy: float) -> Result:
    cpu = {"workers": cpu_seconds, "bench+demo": 0.0, "postgres": 0.0, "redis": 0.0,
           "other": 0.0}
    return Result("pipeline, 2 workers", 2, 1000, seconds, 100.0, cpu, (1.0, 0.0), steady_busy)


def test_the_steady_span_runs_from_the_first_to_the_last_share_of_the_pages() -> None:
    # (when, pages done, busy CPU seconds of the machine)
    samples = [(0.0, 0, 0.0), (1.0, 50, 0.5), (2.0, 150, 2.4), (9.0, 850, 16.0),
               (10.0, 950, 18.0), (12.0, 1000, 18.5)]
    start, end = steady_span(samples, 1000)
    assert (start, end) == ((2.0, 150, 2.4), (10.0, 950, 18.0))  # 10 % and 90 % reached


def test_a_mode_is_bound_by_the_cores_when_they_were_busy_over_its_steady_span() -> None:
    cores = os.cpu_count() or 1
    # a ramp and a tail that leave the cores idle: the whole window reads under the bound
    ramped = _row(seconds=10.0, cpu_seconds=0.5 * cores * 10.0,
                  steady_busy=CORES_BUSY * cores + 0.01)
    assert busy_cores(ramped) < CORES_BUSY * cores
    assert bound_by(ramped) == "cores busy"
    waiting = _row(seconds=10.0, cpu_seconds=0.5 * cores * 10.0, steady_busy=0.5 * cores)
    assert bound_by(waiting).startswith("waiting on sites")


def _mode(label: str, processes: int, steady: float, workers_cpu: float,
          search: bool = True) -> Result:
    cpu = {"workers": workers_cpu, "bench+demo": 0.0, "postgres": 1.0, "redis": 0.0,
           "other": 0.0}
    return Result(label, processes, 1000, 20.0, steady, cpu, (5.0, 0.0), 1.0, search=search)


@pytest.mark.parametrize(("without", "verdict"), [(100.0, "0.95 met"), (110.0, "0.86 NOT met")])
def test_search_s_cost_is_the_store_rate_with_it_against_one_worker_without_it(
        capsys: pytest.CaptureFixture[str], without: float, verdict: str) -> None:
    goals([_mode("plain Scrapy", 1, 100.0, 2.0), _mode("pipeline, 1 worker", 1, 95.0, 8.0),
           _mode("pipeline, 1 worker, no search", 1, without, 7.0, search=False)])
    printed = capsys.readouterr().out
    # the row without search is no baseline of the other goals
    assert "pipeline ≥ 0.85 × plain Scrapy (steady): 0.95 " in printed
    assert (f"search keeps the store rate within 10 % (steady): 95.0 p/s with it, "
            f"{without:.1f} without, {verdict}; CPU a stored page +1.00 ms (+12 %)") in printed
