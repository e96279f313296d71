"""Every log line of a crawl bounded and free of credentials, whichever logger wrote it.

An extension: it puts the guard of pipelines/log_lines.py around the formatter of every
root handler (Scrapy's stderr or LOG_FILE handler, any other), so Scrapy's lines, ours and
the libraries' alike are masked and cut. Scrapy 2.19 installs its root handler anew twice
as a crawler starts (Crawler.__init__, and after its settings are applied), so the guard
is put on when the extension is built (before Scrapy logs the crawl's settings) and again
when the spider opens, before the crawl fetches anything. The secrets it masks are the
passwords of every URL in the environment (DATABASE_URL, REDIS_URL, proxies) and in the
DATABASE_URL and REDIS_URL settings.

Settings: LOG_LINE_MAX_CHARS, LOG_RECORD_MAX_LINES.
"""

from __future__ import annotations

import os

from scrapy import signals
from scrapy.crawler import Crawler

from crawler import settings as defaults
from pipelines import LogGuard, LogLineParams, guard_root_logging


class GuardLogLines:
    """Installs the log guard for the crawl."""

    def __init__(self, guard: LogGuard) -> None:
        self.guard = guard
        guard_root_logging(guard)

    def spider_opened(self) -> None:
        guard_root_logging(self.guard)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GuardLogLines:
        settings = crawler.settings
        params = LogLineParams(
            settings.getint("LOG_LINE_MAX_CHARS", defaults.LOG_LINE_MAX_CHARS),
            settings.getint("LOG_RECORD_MAX_LINES", defaults.LOG_RECORD_MAX_LINES))
        extension = cls(LogGuard.from_environment(
            os.environ, (settings.get("DATABASE_URL"), settings.get("REDIS_URL")), params))
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        return extension
