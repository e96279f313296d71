"""Scrapy's in-memory crawl statistics, without the shim on every attribute access.

Works around Scrapy 2.19: its stats collector overrides `__getattribute__` to warn about a
deprecated `spider` argument, so every stats call, and every attribute the collector reads
inside, goes through a wrapper (see docs/DECISIONS.md, "Stats without the per-access
shim"). The methods and their `spider` parameter are Scrapy's; only the warning is gone.
"""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class StatsCollector(MemoryStatsCollector):
    """MemoryStatsCollector with plain attribute access."""

    __getattribute__ = object.__getattribute__
