"""Scrapy's in-memory crawl statistics, without the shim on every attribute access.

Scrapy 2.19's stats collector overrides `__getattribute__` to warn about a deprecated
`spider` argument: every `inc_value` goes through a wrapper, and every attribute the
collector reads inside (its `_stats` dict too) first fails a lookup of a cached name,
an exception each time. A page costs some twenty stats calls (Scrapy's own and ours):
about 1 % of a worker's CPU on the demo crawl (py-spy, 2026-11-22). The methods and
their `spider` parameter are Scrapy's; only the deprecation warning is gone.
"""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class StatsCollector(MemoryStatsCollector):
    """MemoryStatsCollector with plain attribute access."""

    __getattribute__ = object.__getattribute__
