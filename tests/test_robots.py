"""robots.txt is obeyed by every request, including those that waited for its fetch; its
refusals are counted and told once per host, not reported as failures."""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as ScrapyRobotsTxt
from scrapy.exceptions import IgnoreRequest
from scrapy.http import TextResponse
from scrapy.utils.test import get_crawler

from crawler import settings
from crawler.patches.robots import RobotsTxtMiddleware
from tests.crawling import latest_run_stats, run_crawl
from tests.demosite import DemoServer

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


def test_robots_refusals_are_counted_and_told_once_per_host_not_failures(
        pg_url: str, tmp_path: Path) -> None:
    """Pages robots.txt forbids are the site's wish, not fetch failures: one INFO line for
    the host, `robots/forbidden` in the run's stats, no `errors/…`, and each request settled."""
    with DemoServer() as server:
        urls = ",".join(server.url + path for path in ("/admin/", "/search", "/"))
        done = run_crawl(urls, pg_url, tmp_path, "-a", "depth=0")
        fetched = set(server.hits)
    assert done.returncode == 0, done.stderr[-3000:]
    host = server.url.removeprefix("http://")
    told = [line for line in done.stderr.splitlines() if f"robots.txt of {host} forbids" in line]
    assert len(told) == 1 and " INFO: " in told[0], done.stderr[-3000:]
    assert "fetch failed" not in done.stderr and "IgnoreRequest" not in done.stderr
    stats = latest_run_stats(pg_url)
    assert stats["robots/forbidden"] == 2
    assert not [name for name in stats if name.startswith("errors/")]
    assert not {"/admin/", "/search"} & fetched
