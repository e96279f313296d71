"""The limits that end every crawl, per source: the crawl's settings (crawler/settings.py,
`-s`) with the source's own overrides (its `settings`, and `max_pages` for the page limit).

Each limit reached is counted in `bounds/<limit>` (the run's statistics say which limit
stopped a crawl) and logged once per worker and key (a source, a domain, a host), not once
per dropped request.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scrapy.settings import BaseSettings

from crawler import settings as defaults
from crawler.sources import CrawlTarget

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Bounds:
    """One source's limits; 0 is no limit."""

    max_pages: int  # requests per run
    pagination_chain: int  # pages of one list in a row
    domain_queue: int  # requests queued per domain
    url_repeats: int  # occurrences of one path segment or query pair in a URL

    @classmethod
    def of(cls, target: CrawlTarget, settings: BaseSettings) -> Bounds:
        own = target.settings

        def pick(override: int | None, name: str) -> int:
            return override if override is not None else settings.getint(
                name, getattr(defaults, name))

        return cls(max_pages=pick(target.max_pages, "MAX_PAGES_PER_RUN"),
                   pagination_chain=pick(own.pagination_chain_limit, "PAGINATION_CHAIN_LIMIT"),
                   domain_queue=pick(own.domain_queue_limit, "DOMAIN_QUEUE_LIMIT"),
                   url_repeats=pick(own.url_repeat_limit, "URL_REPEAT_LIMIT"))


class LimitLog:
    """Logs the first time each limit is reached for a key (a source, a domain, a host)."""

    def __init__(self) -> None:
        self._logged: set[tuple[str, object]] = set()

    def reached(self, limit: str, key: object, message: str, *args: object) -> None:
        if (limit, key) in self._logged:
            return
        self._logged.add((limit, key))
        logger.info(message + "; further ones are only counted in bounds/%s", *args, limit)
