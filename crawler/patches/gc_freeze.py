"""Start-up objects moved out of the cyclic garbage collector's sight once the crawl starts.

Works around Scrapy 2.19 (and Python's defaults): neither freezes a worker's start-up
objects (Scrapy, Twisted, SQLAlchemy, lxml, the extraction modules, the page-type model),
which every full collection traverses again though they live as long as the process.
`gc.freeze()` after one last collection puts them in a permanent generation; what the crawl
allocates is still collected as before. The youngest generation is collected every
`GC_YOUNG_THRESHOLD` allocations instead of Python's 700: most of a page's objects die by
reference counting first. Evidence: docs/DECISIONS.md, "Start-up objects frozen".
"""

from __future__ import annotations

import gc
import logging

from scrapy import signals
from scrapy.crawler import Crawler

from crawler import settings as defaults

logger = logging.getLogger(__name__)


class FreezeStartupObjects:
    """Scrapy extension: collect once, then freeze, when the engine has started.

    Settings: GC_YOUNG_THRESHOLD."""

    def __init__(self, young_threshold: int) -> None:
        self.young_threshold = young_threshold

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FreezeStartupObjects:
        extension = cls(crawler.settings.getint("GC_YOUNG_THRESHOLD", defaults.GC_YOUNG_THRESHOLD))
        crawler.signals.connect(extension.engine_started, signal=signals.engine_started)
        return extension

    def engine_started(self) -> None:
        gc.collect()
        gc.freeze()
        gc.set_threshold(self.young_threshold, *gc.get_threshold()[1:])
        logger.debug("froze %d start-up objects out of garbage collection",
                     gc.get_freeze_count())
