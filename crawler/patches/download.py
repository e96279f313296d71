"""The HTTP download handler: Scrapy's own, plus the per-domain limits kept where the
transfer really starts: the slot's, which a source's settings may set
(`crawler.source_policy`).

Works around Scrapy 2.19: its downloader hands every request queued in a domain's slot on
at once, so `CONCURRENT_REQUESTS_PER_DOMAIN` held only when requests trickled in (see
docs/DECISIONS.md, "Per-domain concurrency at the transfer"). The handler keeps each
slot to its concurrency itself, and in a cluster also takes the domain's lease shared by all
workers (`crawler.cluster.politeness`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.crawler import Crawler
from scrapy.http import Response

from crawler import settings as defaults
from crawler.cluster import connection
from crawler.cluster.politeness import DomainLeases


class SlotPlaces:
    """At most `limit` holders per key at once; a key's semaphore lives while used."""

    def __init__(self) -> None:
        self._semaphores: dict[str, asyncio.Semaphore] = {}
        self._users: Counter[str] = Counter()  # holders and waiters

    @asynccontextmanager
    async def place(self, key: str, limit: int) -> AsyncIterator[None]:
        semaphore = self._semaphores.setdefault(key, asyncio.Semaphore(limit))
        self._users[key] += 1
        try:
            async with semaphore:
                yield
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key], self._semaphores[key]


class PoliteDownloadHandler(HTTP11DownloadHandler):
    """HTTP/1.1 transfers within their slot's concurrency and, in a cluster, the
    domain's global lease (held for the transfer only, not while queued).

    Settings: REDIS_URL, GLOBAL_DOMAIN_CONCURRENCY, GLOBAL_DOMAIN_DELAY, DOWNLOAD_TIMEOUT."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        settings = crawler.settings
        self.places = SlotPlaces()
        self.leases = DomainLeases(connection.from_settings(settings),
                                   settings.getint("GLOBAL_DOMAIN_CONCURRENCY",
                                                   defaults.GLOBAL_DOMAIN_CONCURRENCY),
                                   settings.getfloat("GLOBAL_DOMAIN_DELAY",
                                                     defaults.GLOBAL_DOMAIN_DELAY),
                                   settings.getfloat("DOWNLOAD_TIMEOUT"),
                                   ) if settings.get("REDIS_URL") else None

    async def download_request(self, request: Request) -> Response:
        host = urlsplit(request.url).hostname or ""
        key = request.meta.get("download_slot") or host
        downloader = self.crawler.engine.downloader
        slot = downloader.slots.get(key)
        limits = downloader.per_slot_settings.get(key, {})  # a source's own (DOWNLOAD_SLOTS)
        async with (self.places.place(key, slot.concurrency if slot else 1),
                    self._lease(host, limits.get("concurrency"), limits.get("delay"))):
            return await super().download_request(request)

    @asynccontextmanager
    async def _lease(self, domain: str, concurrency: int | None,
                     delay: float | None) -> AsyncIterator[None]:
        """The domain's global lease for the transfer (a cluster only), within the slot's
        own concurrency and delay where it has them, else the GLOBAL_DOMAIN_* settings."""
        if self.leases is None:
            yield
            return
        lease = await self.leases.acquire(domain, concurrency, delay)
        try:
            yield
        finally:
            self.leases.give_back(domain, lease)

    async def close(self) -> None:
        if self.leases is not None:
            self.leases.return_leases()
        await super().close()
