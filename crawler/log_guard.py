"""Every log line of a crawl bounded and free of credentials, whichever logger wrote it.

An extension, built when the crawler starts, right after Scrapy installs its root log
handler for the crawl and before Scrapy logs the crawl's settings: it puts the guard of
pipelines/log_lines.py around the formatter of every root handler (Scrapy's stderr or
LOG_FILE handler, any other), so Scrapy's lines, ours and the libraries' alike are masked
and cut. The secrets it masks are the passwords of every URL in the environment
(DATABASE_URL, REDIS_URL, proxies) and in the DATABASE_URL and REDIS_URL settings.

Settings: LOG_LINE_MAX_CHARS, LOG_RECORD_MAX_LINES.
"""

from __future__ import annotations

import os

from scrapy.crawler import Crawler

from crawler import settings as defaults
from pipelines import LogGuard, LogLineParams, guard_root_logging


class GuardLogLines:
    """Installs the log guard for the crawl (no state, no signals)."""

    def __init__(self, guard: LogGuard) -> None:
        self.guard = guard
        guard_root_logging(guard)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GuardLogLines:
        settings = crawler.settings
        params = LogLineParams(
            settings.getint("LOG_LINE_MAX_CHARS", defaults.LOG_LINE_MAX_CHARS),
            settings.getint("LOG_RECORD_MAX_LINES", defaults.LOG_RECORD_MAX_LINES))
        return cls(LogGuard.from_environment(
            os.environ, (settings.get("DATABASE_URL"), settings.get("REDIS_URL")), params))
