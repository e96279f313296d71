"""The limits that end every crawl: defaults, a source's overrides, and URL traps."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from crawler import settings as defaults
from crawler.bounds import Bounds
from crawler.frontier import RequestedPages
from crawler.sources import target_of
from crawler.traps import repeats_too_often
from models.crawl import Source
from models.source_settings import parse_source_settings


def _target(max_pages: int | None, settings: dict) -> Bounds:
    source = Source(id=3, name="s", start_urls=["https://a.cn/"], allowed_domains=[],
                    page_type_rules=[], settings=settings, max_pages=max_pages)
    return Bounds.of(target_of(source), Settings({"URL_REPEAT_LIMIT": 5}))


def test_every_crawl_is_bounded_by_default() -> None:
    bounds = _target(None, {})
    assert bounds == Bounds(max_pages=defaults.MAX_PAGES_PER_RUN,
                            pagination_chain=defaults.PAGINATION_CHAIN_LIMIT,
                            domain_queue=defaults.DOMAIN_QUEUE_LIMIT, url_repeats=5)
    assert min(bounds.max_pages, bounds.pagination_chain, bounds.domain_queue) > 0


def test_a_source_s_own_limits_win_and_zero_is_no_limit() -> None:
    bounds = _target(0, {"PAGINATION_CHAIN_LIMIT": 7, "DOMAIN_QUEUE_LIMIT": 0,
                         "URL_REPEAT_LIMIT": 2})
    assert bounds == Bounds(max_pages=0, pagination_chain=7, domain_queue=0, url_repeats=2)
    assert _target(250, {}).max_pages == 250


@pytest.mark.parametrize("value", [-1, 1.5, True, "10"])
def test_a_limit_must_be_a_whole_number(value: object) -> None:
    with pytest.raises(ValueError, match="PAGINATION_CHAIN_LIMIT=.*an integer >= 0"):
        parse_source_settings({"PAGINATION_CHAIN_LIMIT": value})


@pytest.mark.parametrize(("url", "trap"), [
    ("https://a.cn/a/b/a/b/a/b/a/b/", True),  # alternating repeats, Heritrix's rule misses
    ("https://a.cn/a/a/a/a/x.html", True),
    ("https://a.cn/a/b/a/b/a/b/", False),  # three times: still a page
    ("https://a.cn/s?f=1&f=1&f=1&f=1", True),
    ("https://a.cn/s?f=1&f=2&f=3&f=4", False),  # different values: a filter, not a loop
    ("https://a.cn/news/2024/01/01/1.html", False),
])
def test_a_url_that_repeats_a_segment_or_query_pair_is_a_trap(url: str, trap: bool) -> None:
    assert repeats_too_often(url, 3) is trap
    assert repeats_too_often(url, 0) is False  # no limit


def test_a_worker_counts_each_run_s_pages_apart() -> None:
    """A cluster worker serves many runs: one run's pages never use up another's limit."""
    requested = RequestedPages()
    assert [requested.admit(1, f"https://a.cn/{n}", 2) for n in range(3)] == [True, True, False]
    assert requested.admit(2, "https://a.cn/0", 2)  # another run, its own count
    assert not requested.admit(2, "https://a.cn/0", 2)  # once per run
