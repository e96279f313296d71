"""End-to-end crawls of the demo site into real PostgreSQL, faults included."""

from __future__ import annotations

import asyncio
import logging
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler
from sqlalchemy.engine import make_url

from crawler import settings
from crawler.frontier import PAGINATION
from crawler.items import CrawledPage
from crawler.patches.logformatter import PageLogFormatter
from crawler.patches.meta_refresh import HEAD_BYTES, MetaRefreshMiddleware, may_refresh
from crawler.patches.stats import StatsCollector
from crawler.revisits import THREAD_PAGE, THREAD_URL
from crawler.spiders.site import SiteSpider
from models.journal import read_segment
from models.persist import store_journal_root
from tests.crawling import ROOT, followed, latest_run_stats, run_crawl, stored
from tests.demosite import DemoServer
from tests.tcp_proxy import TcpProxy


def test_demo_crawl_stores_every_allowed_page_once(pg_url: str, tmp_path: Path) -> None:
    with DemoServer() as server:
        done = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8")
        truth = server.site.ground_truth()
    assert done.returncode == 0, done.stderr[-3000:]
    pages = stored(pg_url)
    paths = {url.removeprefix(server.url) for url in pages}
    allowed = {path for path, record in truth.items()
               if not record["meta"].get("robots_disallowed")}
    assert paths == allowed
    assert f"robots.txt of {server.url.removeprefix('http://')} forbids" in done.stderr
    assert " ERROR: " not in done.stderr
    assert not any(tmp_path.glob("**/*.jsonl")), "everything reached the database"
    gbk = [p for p, r in truth.items() if r["encoding"] == "gbk" and r["type"] == "news"][0]
    page = pages[server.url + gbk]
    assert page.encoding == "gb18030"
    first_paragraph = truth[gbk]["body"].split("\n\n")[0]
    assert page.article is None or first_paragraph[:12] in page.article.body_text
    bodies = [p.article.body_text for p in pages.values() if p.article]
    assert bodies and not [b for b in bodies if "版权所有" in b or "友情链接" in b]
    stats = latest_run_stats(pg_url)
    assert 0 < stats["template/sibling_fetches"] <= 2 * 12  # a pair per URL pattern at most
    assert stats["template/sibling_fetches_saved"] > 10 * stats["template/sibling_fetches"]


def test_per_domain_concurrency_holds_when_requests_queue_up(pg_url: str,
                                                           tmp_path: Path) -> None:
    """A list page queues many requests for one domain at once; no more than
    CONCURRENT_REQUESTS_PER_DOMAIN of them may reach the server together (Scrapy 2.19
    alone lets such a burst through)."""
    with DemoServer(latency=0.05) as server:
        done = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=1",
                         "-s", "CONCURRENT_REQUESTS=16", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2")
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(stored(pg_url)) > 20
    assert server.most_in_flight == 2


def test_faults_are_logged_and_the_crawl_goes_on(pg_url: str, tmp_path: Path) -> None:
    faults = ["500.html", "503.html", "loop-a", "slow.html", "file.bin", "image.html",
              "empty.html", "broken.html", "mislabeled.html", "gb18030.html"]
    with DemoServer(faults=True, slow_seconds=4) as server:
        urls = ",".join(f"{server.url}/faults/{name}" for name in faults) + f",{server.url}/"
        done = run_crawl(urls, pg_url, tmp_path, "-a", "depth=0", "-s", "DOWNLOAD_TIMEOUT=1",
                         "-s", "RETRY_TIMES=1", "-s", "REDIRECT_MAX_TIMES=3")
    log = done.stderr
    assert done.returncode == 0, log[-3000:]
    assert "fetch failed (http_500)" in log and "fetch failed (http_503)" in log
    assert "max redirections reached" in log.lower()
    assert "slow.html: Getting" in log and "took longer than 1.0 seconds" in log
    assert "skipped non-HTML" in log and "body is binary" in log
    assert "empty body" in log
    pages = stored(pg_url)
    by_path = {url.removeprefix(server.url): page for url, page in pages.items()}
    assert {"/faults/broken.html", "/faults/mislabeled.html", "/faults/gb18030.html",
            "/"} <= set(by_path)
    assert not {"/faults/file.bin", "/faults/image.html", "/faults/empty.html"} & set(by_path)
    assert by_path["/faults/mislabeled.html"].encoding == "gb18030"


def test_a_ten_megabyte_page_is_warned_about_and_stored(pg_url: str, tmp_path: Path) -> None:
    with DemoServer(faults=True) as server:
        done = run_crawl(f"{server.url}/faults/huge.html", pg_url, tmp_path, "-a", "depth=0")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "larger than download warn size" in done.stderr
    assert list(stored(pg_url)) == [f"{server.url}/faults/huge.html"]


def _scraped(log: str) -> int:
    return int(re.search(r"'item_scraped_count': (\d+)", log).group(1))


def _cut(proxy: TcpProxy, when: Callable[[], bool], for_seconds: float | None) -> None:
    """Cut the database off once `when` holds (not after a fixed time: a crawler's start-up
    takes seconds on a busy machine), for a while or for good."""
    def outage() -> None:
        while not when():
            time.sleep(0.01)
        proxy.stop()
        if for_seconds is not None:
            time.sleep(for_seconds)
            proxy.start()
    threading.Thread(target=outage, daemon=True).start()


def test_database_outage_mid_crawl_loses_and_duplicates_nothing(pg_url: str,
                                                                tmp_path: Path) -> None:
    proxy = TcpProxy(make_url(pg_url).port or 5432).start()
    via_proxy = make_url(pg_url).set(port=proxy.port).render_as_string(hide_password=False)
    options = ("-a", "max_pages=150", "-a", "depth=8", "-s", "DOWNLOAD_DELAY=0.02",
               "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2", "-s", "PERSIST_BATCH_SIZE=10",
               "-s", "PERSIST_FLUSH_SECONDS=0.3", "-s", "PERSIST_RETRY_SECONDS=0.5")
    with DemoServer() as server:
        _cut(proxy, lambda: server.total_hits() >= 20, for_seconds=2.0)
        done = run_crawl(server.url + "/", via_proxy, tmp_path, *options)
    proxy.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    assert "database unavailable" in done.stderr
    assert "database reachable again" in done.stderr
    assert len(stored(pg_url)) == _scraped(done.stderr) > 100
    assert not any(tmp_path.glob("**/*.jsonl"))


def test_items_kept_through_an_outage_that_outlasts_the_crawl_are_replayed(
        pg_url: str, tmp_path: Path) -> None:
    proxy = TcpProxy(make_url(pg_url).port or 5432).start()
    via_proxy = make_url(pg_url).set(port=proxy.port).render_as_string(hide_password=False)
    with DemoServer() as server:
        _cut(proxy, lambda: True, for_seconds=None)
        done = run_crawl(server.url + "/", via_proxy, tmp_path, "-a", "max_pages=40",
                         "-s", "PERSIST_RETRY_SECONDS=0.5")
        assert done.returncode == 0, done.stderr[-3000:]
        assert "could not be written" in done.stderr
        assert len(stored(pg_url)) == 0
        journalled = _scraped(done.stderr)
        proxy.start()  # the next crawl adopts the journal first
        again = run_crawl(server.url + "/", via_proxy, tmp_path, "-a", "max_pages=1")
    proxy.stop()
    assert f"adopted {journalled} journalled items" in again.stderr, again.stderr[-3000:]
    assert len(stored(pg_url)) == journalled


def test_a_crawl_adopts_only_the_journals_of_its_own_database(pg_url: str,
                                                               tmp_path: Path) -> None:
    """A crawl into an unreachable database leaves its items journalled; a crawl into
    another database sharing the journal directory must not adopt them."""
    closed = TcpProxy(make_url(pg_url).port or 5432)  # a free port, never started
    unreachable = make_url(pg_url).set(port=closed.port).render_as_string(hide_password=False)
    with DemoServer() as server:
        first = run_crawl(server.url + "/", unreachable, tmp_path, "-a", "max_pages=20",
                          "-s", "PERSIST_RETRY_SECONDS=0.5")
        assert "could not be written" in first.stderr, first.stderr[-3000:]
        second = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "max_pages=1")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "adopted" not in second.stderr
    assert list(stored(pg_url)) == [server.url + "/"]
    left = store_journal_root(tmp_path, unreachable)
    assert sum(1 for segment in left.glob("*/*.jsonl") for _ in read_segment(segment)) == 20


def test_a_paused_crawl_resumes_from_its_jobdir(pg_url: str, tmp_path: Path) -> None:
    jobdir = tmp_path / "job"
    tmp_path = tmp_path / "journal"
    with DemoServer() as server:
        first = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8",
                          "-s", f"JOBDIR={jobdir}", "-s", "CLOSESPIDER_PAGECOUNT=60")
        assert first.returncode == 0, first.stderr[-3000:]
        assert "closespider_pagecount" in first.stderr
        paused = len(stored(pg_url))
        second = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8",
                           "-s", f"JOBDIR={jobdir}")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "Resuming crawl" in second.stderr
    assert paused < len(stored(pg_url))
    paths = {url.removeprefix(server.url) for url in stored(pg_url)}
    assert paths == {p for p, r in server.site.ground_truth().items()
                     if not r["meta"].get("robots_disallowed")}


def test_revisit_after_new_articles_fetches_only_the_new_detail_pages(pg_url: str,
                                                                      tmp_path: Path) -> None:
    with DemoServer() as server:
        first = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8")
        assert first.returncode == 0, first.stderr[-3000:]
        before = stored(pg_url)
        server.set_edition(1)
        second = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8")
        truth = server.site.ground_truth()
    assert second.returncode == 0, second.stderr[-3000:]
    after = stored(pg_url)
    run_ids = {page.crawl_run_id for page in after.values()}
    latest = max(run_ids)
    in_second = {url.removeprefix(server.url) for url, page in after.items()
                 if page.crawl_run_id == latest}
    new_details = {path for path, record in truth.items() if record["edition"] == 1}
    old_details = {path for path, record in truth.items() if record["edition"] == 0}
    assert new_details and new_details <= in_second
    assert not in_second & old_details  # no stored article, post or thread fetched again
    allowed = {p for p, r in truth.items() if not r["meta"].get("robots_disallowed")}
    assert {url.removeprefix(server.url) for url in after} == allowed  # old pages kept too
    assert set(before) <= set(after)


def test_the_demo_command_crawls_into_the_embedded_default_and_reports(tmp_path: Path) -> None:
    """`make demo`, the README's first command: SQLite, the local site, a readable report."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.demosite.demo", "--database-url",
         f"sqlite:///{tmp_path / 'demo.sqlite3'}", "-s", f"JOURNAL_DIR={tmp_path / 'journal'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    agreed, crawled = map(int, re.search(r"agrees with the site's ground truth on (\d+)/(\d+)",
                                         done.stdout).groups())
    assert crawled > 400 and agreed > 0.9 * crawled
    assert re.search(r"^- news: '.+' by '.+' at 20\d\d-", done.stdout, re.M), done.stdout
    differing = re.search(r"^(\d+) pages? typed otherwise than in the site's truth:$",
                          done.stdout, re.M)
    assert differing is None or int(differing.group(1)) == crawled - agreed
    assert crawled - agreed == len(re.findall(r"^  /\S+: stored as \w+ \(.+\); the site says \w+$",
                                              done.stdout, re.M))
    assert re.search(r"^  /admin/ \(other\)$", done.stdout, re.M)  # robots.txt's, named
    # its progress on stderr: a line every 10 s off a terminal, rising, and the closing one
    shown = [int(n) for n in re.findall(r"^(\d+) of \d+ pages fetched", done.stderr, re.M)]
    assert shown == sorted(shown), done.stderr[-3000:]
    fetched, total = map(int, re.search(r"^fetched (\d+) of the site's (\d+) pages in",
                                        done.stderr, re.M).groups())
    assert fetched == total == crawled, done.stderr[-3000:]


def _page(body: bytes, url: str = "http://a.cn/p.html") -> HtmlResponse:
    return HtmlResponse(url, body=body, headers={"Content-Type": "text/html"},
                        request=Request(url))


def test_meta_refresh_is_followed_and_other_pages_are_not_decoded_for_it() -> None:
    """Scrapy decoded every HTML body to look for a meta refresh; a page whose head never
    says "refresh" is now passed on undecoded, and a real one still redirects."""
    middleware = MetaRefreshMiddleware.from_crawler(get_crawler())
    refresh = _page(b'<html><head><META HTTP-EQUIV="Refresh" CONTENT="0; URL=/new.html">'
                    b"</head><body>moved</body></html>")
    redirected = middleware.process_response(refresh.request, refresh)
    assert isinstance(redirected, Request) and redirected.url == "http://a.cn/new.html"
    plain = _page('<html><head><meta charset="gbk"></head><body>政策解读</body></html>'
                  .encode("gbk"))
    assert middleware.process_response(plain.request, plain) is plain
    assert plain._cached_ubody is None  # never decoded
    assert settings.DOWNLOADER_MIDDLEWARES["crawler.patches.meta_refresh.MetaRefreshMiddleware"]


def test_only_a_head_that_says_refresh_or_is_not_ascii_compatible_is_checked() -> None:
    tag = '<meta http-equiv="refresh" content="5;url=/x">'
    assert may_refresh(f"<html><head>{tag}</head></html>".encode())
    assert may_refresh(f"<html><head>{tag}</head></html>".encode("utf-16"))  # NULs: Scrapy's
    assert not may_refresh(("<html><body>" + "新闻" * 3000 + "</body></html>").encode("gb18030"))
    late = b"<html><body>" + b"x" * HEAD_BYTES + tag.encode() + b"</body></html>"
    assert not may_refresh(late)  # past the 4096 characters Scrapy reads


def test_per_page_debug_messages_are_built_only_when_debug_is_logged() -> None:
    request = Request("http://a.cn/p.html")
    response = HtmlResponse(request.url, body=b"<html></html>", request=request)
    quiet = PageLogFormatter.from_crawler(get_crawler(settings_dict={"LOG_LEVEL": "WARNING"}))
    assert quiet.crawled(request, response, None) is None
    assert quiet.scraped({"url": request.url}, response, None) is None
    loud = PageLogFormatter.from_crawler(get_crawler(settings_dict={"LOG_LEVEL": "DEBUG"}))
    assert loud.crawled(request, response, None)["level"] == logging.DEBUG
    assert loud.scraped({"url": request.url}, response, None)["level"] == logging.DEBUG
    assert settings.LOG_FORMATTER == "crawler.patches.logformatter.PageLogFormatter"


def test_crawl_stats_count_as_scrapy_s_without_the_per_access_shim() -> None:
    """Scrapy's collector ran a deprecation wrapper, and failed an attribute lookup, on
    every stats call (some twenty per page); ours counts the same through plain access."""
    stats = get_crawler(settings_dict={"STATS_CLASS": settings.STATS_CLASS}).stats
    assert isinstance(stats, StatsCollector)
    assert type(stats).__getattribute__ is object.__getattribute__
    stats.inc_value("pages/new")
    stats.inc_value("pages/new", 2)
    stats.max_value("depth", 3)
    stats.max_value("depth", 1)
    stats.set_value("finish_reason", "finished")
    assert stats.get_stats() == {"pages/new": 3, "depth": 3, "finish_reason": "finished"}


def test_a_link_without_a_canonical_form_costs_its_page_no_other_link(pg_url: str) -> None:
    """A port out of range cannot be canonicalised (nor ever requested); the spider skips
    it, in the site or outside it, and still follows the page's other links in order."""
    crawler = get_crawler(SiteSpider, settings_dict={"DATABASE_URL": pg_url})
    spider = SiteSpider.from_crawler(crawler, start_urls="http://a.cn/")
    item = CrawledPage(url="http://a.cn/", final_url="http://a.cn/", status=200, body=b"",
                       content_type="text/html", fetched_at=datetime.now(UTC), depth=0,
                       source_id=None, run_id=1)
    links = ["http://a.cn/1.html", "http://a.cn:99999/bad.html", "http://b.cn:99999/x",
             "http://b.cn/out.html", "http://a.cn/2.html"]
    requests = asyncio.run(followed(spider, item, ["http://a.cn/r.html"], "http://a.cn/?p=2",
                                    links))
    assert [r.url for r in requests] == ["http://a.cn/?p=2", "http://a.cn/r.html",
                                         "http://a.cn/1.html", "http://a.cn/2.html"]
    assert not asyncio.run(followed(spider, item, [], None, links))  # all requested now


def test_a_link_already_requested_in_its_run_gets_no_request(pg_url: str) -> None:
    """Most of a page's links were requested before (menus, lists): the spider builds no
    request for those of its run, so none passes the middlewares to be dropped there; the
    same links in another run are followed."""
    crawler = get_crawler(SiteSpider, settings_dict={"DATABASE_URL": pg_url})
    spider = SiteSpider.from_crawler(crawler, start_urls="http://a.cn/")
    page = {"url": "http://a.cn/", "final_url": "http://a.cn/", "status": 200, "body": b"",
            "content_type": "text/html", "fetched_at": datetime.now(UTC), "depth": 0,
            "source_id": None}
    links = ["http://a.cn/1.html", "http://a.cn/2.html"]
    assert spider.requested.admit(1, "http://a.cn/1.html", 0)
    requests = spider.follow_up(CrawledPage(**page, run_id=1), [], None, links)
    assert [r.url for r in requests] == ["http://a.cn/2.html"]
    requests = spider.follow_up(CrawledPage(**page, run_id=2), [], None, links)
    assert [r.url for r in requests] == links


def test_a_pager_link_the_page_also_links_gets_one_request(pg_url: str) -> None:
    """A thread's next page, a list's next page and its records are links of the page too:
    each gets one request, the first, which keeps the pagination and thread it was told."""
    crawler = get_crawler(SiteSpider, settings_dict={"DATABASE_URL": pg_url})
    spider = SiteSpider.from_crawler(crawler, start_urls="http://a.cn/")
    thread = CrawledPage(url="http://a.cn/t/7", final_url="http://a.cn/t/7", status=200,
                         body=b"", content_type="text/html", fetched_at=datetime.now(UTC),
                         depth=1, source_id=None, run_id=1)
    pager = ["http://a.cn/t/7?page=2", "http://a.cn/t/7?page=3", "http://a.cn/news/1.html"]
    requests = spider.follow_up(thread, [], None, pager, "http://a.cn/t/7?page=2")
    assert [r.url for r in requests] == ["http://a.cn/t/7?page=2", "http://a.cn/news/1.html"]
    assert requests[0].meta[THREAD_URL] == "http://a.cn/t/7"
    assert requests[0].meta[THREAD_PAGE] == 2
    board = CrawledPage(url="http://a.cn/b/", final_url="http://a.cn/b/", status=200,
                        body=b"", content_type="text/html", fetched_at=datetime.now(UTC),
                        depth=0, source_id=None, run_id=1)
    links = ["http://a.cn/b/?p=2", "http://a.cn/t/8", "http://a.cn/t/9", "http://a.cn/about"]
    requests = spider.follow_up(board, ["http://a.cn/t/8", "http://a.cn/t/9"],
                                "http://a.cn/b/?p=2", links)
    assert [r.url for r in requests] == links
    assert requests[0].meta[PAGINATION] and not requests[-1].meta.get(PAGINATION)


def test_stored_times_are_read_on_the_sites_clock(pg_url: str, tmp_path: Path) -> None:
    """The demo's Chinese pages write Beijing time without a zone; a crawl told the site's
    zone (-a timezone) stores the times as written, on that clock."""
    with DemoServer() as server:
        truth = server.site.ground_truth()
        done = run_crawl(server.url + "/news/china/", pg_url, tmp_path, "-a", "depth=1",
                         "-a", "max_pages=6", "-a", "timezone=UTC")
    assert done.returncode == 0, done.stderr[-3000:]
    articles = [(url, page.article) for url, page in stored(pg_url).items() if page.article
                and truth[url.removeprefix(server.url)]["type"] != "list"]  # an unsure list
    assert articles                                        # keeps its text, but has no time
    for url, article in articles:
        written = truth[url.removeprefix(server.url)]["published_raw"]  # "2026-10-01 06:01"
        assert article.published_at == datetime.fromisoformat(written).replace(tzinfo=UTC)
