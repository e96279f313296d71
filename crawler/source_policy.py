"""Each request under its own source's settings (user agent, headers, cookies, the delay
and concurrency of its domain), looked up per request from its `source_id`.

A cluster worker serves many sources at once, so the policy cannot be the process's
settings: as zyte-spider-templates applies per-seed policy, a downloader middleware
applies it to each request. Delay and concurrency go to a download slot of the source's
own (`DOWNLOAD_SLOTS` form), which Scrapy's downloader spaces, our download handler
(`crawler.patches.download`) keeps to its concurrency and, in a cluster, its domain leases to both.
Settings a source leaves out are the crawl's own (crawler/settings.py, `-s`).
"""

from __future__ import annotations

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares import cookies
from scrapy.utils.httpobj import urlparse_cached

from models.source_settings import SourceSettings

_NO_OVERRIDES = SourceSettings()


def source_slot(request: Request, source_id: int) -> str:
    """The download slot of a source's requests to one host: its own, so its delay and
    concurrency are never another source's."""
    return f"{urlparse_cached(request).hostname or ''} source:{source_id}"


class SourcePolicyMiddleware:
    """Set the request's source's headers, user agent, cookie handling and download slot.
    Runs before the robots.txt middleware, so robots rules are read for the source's agent.

    Settings: COOKIES_ENABLED (the default of sources that do not say)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.cookies = crawler.settings.getbool("COOKIES_ENABLED")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SourcePolicyMiddleware:
        return cls(crawler)

    def process_request(self, request: Request, spider: object = None) -> None:
        source_id = request.meta.get("source_id")
        settings = (_NO_OVERRIDES if source_id is None
                    else self.crawler.spider.target_for(source_id).settings)
        if not (self.cookies if settings.cookies is None else settings.cookies):
            request.meta["dont_merge_cookies"] = True
        elif source_id is not None:
            request.meta.setdefault("cookiejar", source_id)  # sources share no cookies
        if settings.user_agent:
            request.headers.setdefault(b"User-Agent", settings.user_agent)
        for name, value in settings.headers:
            request.headers.setdefault(name, value)
        slot = settings.slot_settings
        if slot:
            key = source_slot(request, source_id)
            self.crawler.engine.downloader.per_slot_settings.setdefault(key, slot)
            request.meta["download_slot"] = key
            if "delay" in slot:  # the source's delay is exact: AutoThrottle leaves it
                request.meta["autothrottle_dont_adjust_delay"] = True


class CookiesMiddleware(cookies.CookiesMiddleware):
    """Scrapy's cookie middleware, installed whatever COOKIES_ENABLED says: that setting is
    the default of sources that do not say, applied per request by SourcePolicyMiddleware
    (`dont_merge_cookies`).

    Settings: COOKIES_DEBUG (Scrapy's own)."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CookiesMiddleware:
        middleware = cls(crawler.settings.getbool("COOKIES_DEBUG"))
        middleware.crawler = crawler
        return middleware
