"""The soak benchmark's arithmetic: growth per 1,000 pages between two shares of a crawl."""

import os

from bench.soak import growth, rss_mb


def test_growth_is_read_between_the_samples_at_the_given_shares() -> None:
    samples = [(0, 100.0), (1000, 110.0), (2000, 112.0), (3000, 113.0), (4000, 114.0)]
    assert growth(samples, 0.25, 0.5) == 2.0  # 110 → 112 MB over 1,000 pages
    assert growth(samples, 0.5, 1.0) == 1.0


def test_rss_of_this_process_and_of_none() -> None:
    assert rss_mb(os.getpid()) > 1
    assert rss_mb(2 ** 22 + 7) is None  # above the kernel's pid limit: no such process
