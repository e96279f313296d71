"""robots.txt is obeyed by every request, including those that waited for its fetch."""

from __future__ import annotations

import asyncio
import importlib

import pytest
from scrapy import Request
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as ScrapyRobotsTxt
from scrapy.exceptions import IgnoreRequest
from scrapy.http import TextResponse
from scrapy.utils.test import get_crawler

from crawler import settings
from crawler.patches.robots import RobotsTxtMiddleware

ROBOTS = b"User-agent: *\nDisallow: /admin/\n"


class SlowEngine:
    """Serves robots.txt once released, so requests pile up waiting for it."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.fetched: list[str] = []

    async def download_async(self, request: Request) -> TextResponse:
        self.fetched.append(request.url)
        await self.release.wait()
        return TextResponse(request.url, body=ROBOTS, request=request)


def test_every_request_waiting_for_robots_txt_is_checked_against_it() -> None:
    async def scenario() -> list[str]:
        crawler = get_crawler(settings_dict={"ROBOTSTXT_OBEY": True})
        crawler.engine = SlowEngine()
        middleware = RobotsTxtMiddleware(crawler)
        urls = [f"http://a.cn/{path}" for path in ("", "news/", "about.html", "admin/")]
        pending = [asyncio.ensure_future(middleware.process_request(Request(url)))
                   for url in urls]
        await asyncio.sleep(0.05)  # all four are waiting for the one robots.txt fetch
        crawler.engine.release.set()
        outcomes = await asyncio.gather(*pending, return_exceptions=True)
        assert crawler.engine.fetched == ["http://a.cn/robots.txt"]
        assert crawler.stats.get_value("robotstxt/forbidden") == 1
        return [url for url, outcome in zip(urls, outcomes, strict=True)
                if isinstance(outcome, IgnoreRequest)]

    assert asyncio.run(scenario()) == ["http://a.cn/admin/"]


@pytest.mark.parametrize("redis_url", [None, "redis://127.0.0.1:6379/0"])
def test_the_crawler_uses_the_fixed_middleware(monkeypatch: pytest.MonkeyPatch,
                                               redis_url: str | None) -> None:
    if redis_url:
        monkeypatch.setenv("REDIS_URL", redis_url)
    else:
        monkeypatch.delenv("REDIS_URL", raising=False)
    middlewares = importlib.reload(settings).DOWNLOADER_MIDDLEWARES
    assert middlewares["crawler.patches.robots.RobotsTxtMiddleware"] == 100
    assert middlewares[f"{ScrapyRobotsTxt.__module__}.{ScrapyRobotsTxt.__name__}"] is None
    monkeypatch.undo()
    importlib.reload(settings)
