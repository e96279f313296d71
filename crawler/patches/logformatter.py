"""Scrapy's log messages, minus the two per page that the log level hides anyway.

Works around Scrapy 2.19: it builds a DEBUG record for every response ("Crawled") and every
item ("Scraped") whatever LOG_LEVEL, for the handlers to drop (see docs/DECISIONS.md,
"No per-page DEBUG records"). Below DEBUG the two are not built; at DEBUG they are Scrapy's.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy.logformatter import LogFormatter, LogFormatterResult
from twisted.python.failure import Failure


class PageLogFormatter(LogFormatter):
    """Scrapy's formatter; "Crawled" and "Scraped" only when DEBUG is logged.

    Settings: LOG_ENABLED, LOG_LEVEL (Scrapy's own)."""

    def __init__(self, per_page: bool) -> None:
        self.per_page = per_page

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageLogFormatter:
        settings = crawler.settings
        level = settings.get("LOG_LEVEL")
        if isinstance(level, str):
            level = logging.getLevelName(level.upper())
        return cls(settings.getbool("LOG_ENABLED") and isinstance(level, int)
                   and level <= logging.DEBUG)

    def crawled(self, request: Request, response: Response,
                spider: Spider) -> LogFormatterResult | None:
        return super().crawled(request, response, spider) if self.per_page else None

    def scraped(self, item: Any, response: Response | Failure | None,
                spider: Spider) -> LogFormatterResult | None:
        return super().scraped(item, response, spider) if self.per_page else None
