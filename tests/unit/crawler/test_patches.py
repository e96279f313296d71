"""Each patch of Scrapy (crawler/patches/) works around a behaviour of the Scrapy version
pinned in pyproject.toml. These tests show that behaviour is still upstream: when one fails,
Scrapy changed, and the patch may go (see docs/DECISIONS.md, "Patches of Scrapy")."""

from __future__ import annotations

import asyncio
import gc
import importlib.metadata
import subprocess
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request
from scrapy.core import downloader
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.http import HtmlResponse, TextResponse
from scrapy.logformatter import LogFormatter
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler
from twisted.internet.defer import Deferred

from crawler.patches import PATCHED_SCRAPY

SCRAPY = Path(downloader.__file__).resolve().parents[2]


def test_scrapy_is_the_version_the_patches_were_written_for() -> None:
    version = tuple(int(part) for part in importlib.metadata.version("scrapy").split(".")[:2])
    assert version == PATCHED_SCRAPY


def test_upstream_robots_txt_waiters_after_the_first_get_no_parser() -> None:
    """crawler/patches/robots.py: Scrapy's own middleware lets later waiters through."""
    class SlowEngine:
        def __init__(self) -> None:
            self.release = asyncio.Event()

        async def download_async(self, request: Request) -> TextResponse:
            await self.release.wait()
            return TextResponse(request.url, body=b"User-agent: *\nDisallow: /admin/\n",
                                request=request)

    async def scenario() -> list[bool]:
        crawler = get_crawler(settings_dict={"ROBOTSTXT_OBEY": True})
        crawler.engine = SlowEngine()
        middleware = RobotsTxtMiddleware(crawler)
        waiting = [asyncio.ensure_future(middleware.process_request(
            Request(f"http://a.cn/admin/{n}"))) for n in range(3)]
        await asyncio.sleep(0.05)
        crawler.engine.release.set()
        outcomes = await asyncio.gather(*waiting, return_exceptions=True)
        return [isinstance(outcome, Exception) for outcome in outcomes]

    refused = asyncio.run(scenario())
    assert refused[0] and not all(refused)  # a forbidden page that waited was let through


def test_upstream_slot_hands_every_queued_request_on_beyond_its_concurrency(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """crawler/patches/download.py: the slot's queue is emptied at once, whatever its
    concurrency, because a request counts as transferring only when its task runs."""
    started: list[Coroutine[Any, Any, Any]] = []
    monkeypatch.setattr(downloader, "_schedule_coro", started.append)
    slot = downloader.Slot(concurrency=2, delay=0, jitter=0)
    for n in range(5):
        slot.queue.append((Request(f"http://a.cn/{n}"), Deferred()))
    downloader.Downloader(get_crawler())._process_queue(slot)
    for coroutine in started:
        coroutine.close()
    assert len(started) == 5 and not slot.queue


def test_upstream_meta_refresh_decodes_every_html_body() -> None:
    """crawler/patches/meta_refresh.py: Scrapy decodes a page that has no refresh tag."""
    request = Request("http://a.cn/p.html")
    page = HtmlResponse(request.url, body="<html><body>政策解读</body></html>".encode("gbk"),
                        headers={"Content-Type": "text/html"}, request=request)
    middleware = MetaRefreshMiddleware.from_crawler(get_crawler())
    assert middleware.process_response(request, page) is page
    assert page._cached_ubody is not None  # decoded, then thrown away


def test_upstream_stats_collector_wraps_every_attribute_access() -> None:
    """crawler/patches/stats.py: the deprecation shim on `__getattribute__`."""
    assert MemoryStatsCollector.__getattribute__ is not object.__getattribute__


def test_upstream_log_formatter_builds_per_page_records_at_any_level() -> None:
    """crawler/patches/logformatter.py: "Crawled" and "Scraped" are built whatever LOG_LEVEL."""
    request = Request("http://a.cn/p.html")
    response = HtmlResponse(request.url, body=b"<html></html>", request=request)
    formatter = LogFormatter.from_crawler(get_crawler(settings_dict={"LOG_LEVEL": "ERROR"}))
    assert formatter.crawled(request, response, None) is not None
    assert formatter.scraped({"url": request.url}, response, None) is not None


def test_upstream_neither_scrapy_nor_python_freezes_start_up_objects() -> None:
    """crawler/patches/gc_freeze.py: no Scrapy component freezes or tunes the collector, and
    Python's young generation is collected every 700 allocations."""
    assert not [path for path in SCRAPY.rglob("*.py")
                if "gc.freeze" in path.read_text(encoding="utf-8")
                or "gc.set_threshold" in path.read_text(encoding="utf-8")]
    fresh = subprocess.run([sys.executable, "-c", "import gc; print(gc.get_threshold()[0])"],
                           capture_output=True, text=True, check=True)
    assert int(fresh.stdout) == 700
    assert gc.isenabled()
