"""`scrapy crawl SPIDER`: Scrapy's command, with the spider's arguments and the database
checked before the crawl starts, and its log written as JSON lines from the first one when
LOG_FORMAT is `json`.

A spider class may define `preflight(settings, arguments)`, raising ArgumentError or
DatabaseNotReady; either is printed as one line and the command exits non-zero without
crawling. (Scrapy's own command would raise it inside the running crawl, as an asyncio
traceback ending in the useful line, and exit 1 after the crawler's start-up banner.)
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands import crawl
from scrapy.crawler import Crawler
from scrapy.spiderloader import get_spider_loader

from crawler.arguments import ArgumentError
from crawler.log_guard import json_lines_from_start
from models.schema import DatabaseNotReady

EXIT_ARGUMENTS = 2
EXIT_DATABASE = 1
EXIT_FRONTIER_LOST = 3


class Command(crawl.Command):
    """Scrapy's `crawl`, refusing bad arguments and an unready database in one line, and
    exiting non-zero when a cluster run lost its Redis frontier under this worker."""

    def _create_crawler(self, spname: str) -> Crawler:
        self.crawler = super()._create_crawler(spname)
        return self.crawler

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        super().run(args, opts)
        stats = getattr(getattr(self, "crawler", None), "stats", None)
        if self.exitcode == 0 and stats is not None and stats.get_value("frontier/lost_runs"):
            self.exitcode = EXIT_FRONTIER_LOST

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)
        assert self.settings is not None
        json_lines_from_start(self.settings)  # before Scrapy makes its first log handler
        if len(args) != 1:
            return  # Scrapy's run() reports the usage error
        try:
            spidercls = get_spider_loader(self.settings).load(args[0])
        except KeyError:
            return  # Scrapy's run() reports the unknown spider
        preflight = getattr(spidercls, "preflight", None)
        if preflight is None:
            return
        try:
            preflight(self.settings, opts.spargs)
        except ArgumentError as error:
            self._refuse(args[0], error, EXIT_ARGUMENTS)
        except DatabaseNotReady as error:
            self._refuse(args[0], error, EXIT_DATABASE)

    @staticmethod
    def _refuse(spider: str, error: Exception, code: int) -> None:
        print(f"scrapy crawl {spider}: {error}", file=sys.stderr)
        sys.exit(code)
