"""Every log line of a crawl bounded and free of credentials, whichever logger wrote it.

An extension: it puts the guard of pipelines/log_lines.py around the formatter of every
root handler (Scrapy's stderr or LOG_FILE handler, any other), so Scrapy's lines, ours and
the libraries' alike are masked and cut. Scrapy 2.19 installs its root handler anew twice
as a crawler starts (Crawler.__init__, and after its settings are applied), so the guard
is put on when the extension is built (before Scrapy logs the crawl's settings) and again
when the spider opens, before the crawl fetches anything. The secrets it masks are the
passwords of every URL in the environment (DATABASE_URL, REDIS_URL, proxies) and in the
DATABASE_URL and REDIS_URL settings.

With LOG_FORMAT=json every line is a JSON object (`pipelines.log_lines.JsonLinesFormatter`):
from the first line when `scrapy crawl` starts (`json_lines_from_start`, which makes
Scrapy's own handler write them), else from when the extension is built.

Settings: LOG_LINE_MAX_CHARS, LOG_RECORD_MAX_LINES, LOG_FORMAT.
"""

from __future__ import annotations

import logging
import os

import scrapy.utils.log
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings

from crawler import settings as defaults
from pipelines import JSON_LINES, JsonLinesFormatter, LogGuard, LogLineParams, guard_root_logging


def json_lines_from_start(settings: BaseSettings) -> None:
    """With LOG_FORMAT=json, Scrapy's log handlers (the first made before any extension)
    write JSON lines: its formatter factory is replaced for this process."""
    if settings.get("LOG_FORMAT") != JSON_LINES:
        return
    guard = LogGuard.from_environment(os.environ)

    def json_formatter(*_: object) -> logging.Formatter:
        return JsonLinesFormatter(guard)

    scrapy.utils.log._get_formatter = json_formatter


class GuardLogLines:
    """Installs the log guard for the crawl."""

    def __init__(self, guard: LogGuard, json_lines: bool = False) -> None:
        self.guard = guard
        self.json_lines = json_lines
        guard_root_logging(guard, json_lines=json_lines)

    def spider_opened(self) -> None:
        guard_root_logging(self.guard, json_lines=self.json_lines)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GuardLogLines:
        settings = crawler.settings
        params = LogLineParams(
            settings.getint("LOG_LINE_MAX_CHARS", defaults.LOG_LINE_MAX_CHARS),
            settings.getint("LOG_RECORD_MAX_LINES", defaults.LOG_RECORD_MAX_LINES))
        extension = cls(LogGuard.from_environment(
            os.environ, (settings.get("DATABASE_URL"), settings.get("REDIS_URL")), params),
            settings.get("LOG_FORMAT") == JSON_LINES)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        return extension
