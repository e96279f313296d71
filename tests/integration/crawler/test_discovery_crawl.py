"""Discovery crawled for real: articles linked only from a site's feed and sitemaps are
stored, dated by them when the page shows no date; feed-only and links-only sources; the
same through a cluster's shared queue."""

from __future__ import annotations

import gzip
import threading
from datetime import UTC, datetime
from http.server import ThreadingHTTPServer
from pathlib import Path

from models.crawl import Source
from models.db import session_factory
from tests.crawling import latest_run_stats, run_crawl, run_spider, stored
from tests.integration.crawler.test_scope_crawl import PROSE, Handler, Recorder
from tests.services import redis_database

RSS = "application/rss+xml"
NEWS_NS = ('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
           'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"')


def article(title: str) -> str:
    """An article page that shows no date and links nowhere."""
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>"
            f"<article>{PROSE}{PROSE}</article></body></html>")


def feed_site(outsider: str, home_links: str = "") -> dict[str, tuple[int, dict[str, str], str]]:
    """A site whose home page declares a feed and links (by default) nowhere; robots.txt
    names a sitemap index whose one sitemap, gzip'd, is a news sitemap."""
    feed = ('<?xml version="1.0"?><rss version="2.0"><channel><title>S</title>'
            "<item><title>A1</title><link>../story/a1.html</link>"
            "<pubDate>Fri, 01 May 2026 10:00:00 +0800</pubDate></item>"
            "<item><title>A2</title><link>/story/a2.html</link>"
            "<pubDate>Sat, 02 May 2026 10:00:00 +0800</pubDate></item>"
            f"<item><title>X</title><link>{outsider}/story/x.html</link></item>"
            "</channel></rss>")
    news = (f'<?xml version="1.0"?><urlset {NEWS_NS}>' + "".join(
        f"<url><loc>/story/{name}.html</loc><news:news><news:publication_date>{when}"
        "</news:publication_date></news:news></url>"
        for name, when in (("n1", "2026-05-03T08:00:00+08:00"), ("n2", "2026-05-04")))
        + "</urlset>")
    index = ('<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/'
             'sitemap/0.9"><sitemap><loc>/maps/news.xml.gz</loc></sitemap></sitemapindex>')
    home = ('<html><head><title>Home</title><link rel="alternate" type="application/rss+xml" '
            f'href="/feeds/main.xml"></head><body><h1>Home</h1>{PROSE}{home_links}</body></html>')
    pages: dict[str, tuple[int, dict[str, str], str]] = {
        "/": (200, {}, home),
        "/robots.txt": (200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
                        "Sitemap: /maps/index.xml\n"),
        "/feeds/main.xml": (200, {"Content-Type": RSS}, feed),
        "/maps/index.xml": (200, {"Content-Type": "application/xml"}, index),
        "/maps/news.xml.gz": (200, {"Content-Type": "application/x-gzip"}, news),
    }
    pages.update({f"/story/{name}.html": (200, {}, article(name.upper()))
                  for name in ("a1", "a2", "n1", "n2", "linked")})
    return pages


class GzipHandler(Handler):
    """The Recorder's handler, serving paths that end in .gz gzip'd."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if not self.path.endswith(".gz"):
            super().do_GET()
            return
        self.server.hits.append(self.path)
        status, headers, body = self.server.pages[self.path]
        data = gzip.compress(body.encode())
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class GzipRecorder(Recorder):
    def __init__(self, host: str, pages: dict[str, tuple[int, dict[str, str], str]]) -> None:
        self.pages, self.hits = pages, []
        ThreadingHTTPServer.__init__(self, (host, 0), GzipHandler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


def add_source(url: str, name: str, start_url: str, settings: dict[str, str]) -> None:
    with session_factory(url).begin() as session:
        session.add(Source(name=name, start_urls=[start_url], allowed_domains=[],
                           page_type_rules=[{"pattern": "/story/", "type": "news"}],
                           settings=settings, max_depth=2))


def test_articles_only_in_feeds_and_sitemaps_are_stored_with_their_dates(
        pg_url: str, tmp_path: Path) -> None:
    outsider = Recorder("127.0.0.2", {})
    site = GzipRecorder("127.0.0.1", feed_site(outsider.origin))
    add_source(pg_url, "feedy", site.origin + "/", {})
    done = run_crawl(None, pg_url, tmp_path, "-a", "source=feedy")
    assert done.returncode == 0, done.stderr[-3000:]
    pages = stored(pg_url)
    paths = {url.removeprefix(site.origin) for url in pages}
    assert paths == {"/", "/story/a1.html", "/story/a2.html", "/story/n1.html",
                     "/story/n2.html"}  # feeds and sitemaps read, never stored
    published = {url.removeprefix(site.origin): (p.article.published_at,
                                                 p.article.published_raw)
                 for url, p in pages.items() if p.article}
    assert published["/story/a1.html"] == (datetime(2026, 5, 1, 2, tzinfo=UTC),
                                            "Fri, 01 May 2026 10:00:00 +0800")
    assert published["/story/n1.html"][0] == datetime(2026, 5, 3, 0, 0, tzinfo=UTC)
    assert published["/story/n2.html"][1] == "2026-05-04"
    assert outsider.hits == []
    for path in ("/feeds/main.xml", "/maps/index.xml", "/maps/news.xml.gz", "/robots.txt"):
        assert site.hits.count(path) <= 1 + (path == "/robots.txt")  # its middleware's, ours
    stats = latest_run_stats(pg_url)
    assert stats["discovery/feeds_found"] == 1
    assert stats["discovery/sitemaps_found"] == 2
    assert stats["discovery/entries"] == 5
    assert "fetch failed" not in done.stderr


def test_a_feed_only_source_follows_no_links_and_a_links_source_reads_no_feed(
        pg_url: str, tmp_path: Path) -> None:
    outsider = Recorder("127.0.0.2", {})
    site = GzipRecorder("127.0.0.1", feed_site(outsider.origin,
                                               '<p><a href="/story/linked.html">more</a></p>'))
    add_source(pg_url, "feeds-only", site.origin + "/", {"discovery": "feeds-only"})
    done = run_crawl(None, pg_url, tmp_path, "-a", "source=feeds-only")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "/story/linked.html" not in site.hits
    assert {"/story/a1.html", "/story/n2.html"} <= set(site.hits)

    site.hits.clear()
    add_source(pg_url, "links", site.origin + "/", {"discovery": "links"})
    done = run_crawl(None, pg_url, tmp_path, "-a", "source=links")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "/story/linked.html" in site.hits
    assert not {"/feeds/main.xml", "/maps/index.xml", "/story/a1.html"} & set(site.hits)


def test_without_declared_feeds_or_robots_sitemaps_the_common_paths_are_probed(
        pg_url: str, tmp_path: Path) -> None:
    """No <link rel="alternate">, a robots.txt that is missing: the feed paths are probed
    once each (an HTML page at one is no feed) and /sitemap.xml is read."""
    feed = ('<?xml version="1.0"?><rss version="2.0"><channel><title>S</title>'
            "<item><title>R</title><link>/story/r1.html</link></item></channel></rss>")
    sitemap = ('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/'
               '0.9"><url><loc>/story/s1.html</loc></url></urlset>')
    site = GzipRecorder("127.0.0.1", {
        "/": (200, {}, f"<html><head><title>Home</title></head><body>{PROSE}</body></html>"),
        "/robots.txt": (404, {}, "no"), "/rss.xml": (200, {"Content-Type": RSS}, feed),
        "/sitemap.xml": (200, {"Content-Type": "application/xml"}, sitemap),
        **{f"/story/{name}.html": (200, {}, article(name)) for name in ("r1", "s1")}})
    add_source(pg_url, "probed", site.origin + "/", {"discovery": "feeds-only"})
    done = run_crawl(None, pg_url, tmp_path, "-a", "source=probed")
    assert done.returncode == 0, done.stderr[-3000:]
    paths = {url.removeprefix(site.origin) for url in stored(pg_url)}
    assert paths == {"/", "/story/r1.html", "/story/s1.html"}
    probes = ["/feed", "/rss", "/atom.xml", "/feed.xml", "/rss.xml", "/index.xml",
              "/feeds/posts/default"]
    assert [site.hits.count(path) for path in probes] == [1] * len(probes)
    stats = latest_run_stats(pg_url)
    assert stats["discovery/feeds_found"] == 1 and stats["discovery/sitemaps_found"] == 1
    assert stats["discovery/missing"] == len(probes) - 1 + 1  # HTML at six paths, robots.txt
    assert "fetch failed" not in done.stderr and " ERROR: " not in done.stderr


def test_discovery_through_the_cluster_queue_stores_the_entries_and_ends_the_run(
        pg_url: str, tmp_path: Path) -> None:
    """Discovery requests travel through scrapy-redis (callbacks by name, JSON meta) and
    are settled after their entries are queued: the run drains and is recorded finished."""
    outsider = Recorder("127.0.0.2", {})
    site = GzipRecorder("127.0.0.1", feed_site(outsider.origin))
    add_source(pg_url, "feedy", site.origin + "/", {"discovery": "feeds-only"})
    with redis_database(6) as redis_url:
        done = run_spider(pg_url, tmp_path, "-a", "source=feedy", "-s",
                          "MAX_IDLE_TIME_BEFORE_CLOSE=3", redis_url=redis_url)
    assert done.returncode == 0, done.stderr[-3000:]
    paths = {url.removeprefix(site.origin) for url in stored(pg_url)}
    assert paths == {"/", "/story/a1.html", "/story/a2.html", "/story/n1.html",
                     "/story/n2.html"}
    stats = latest_run_stats(pg_url)  # finished: its last request was settled
    assert stats["discovery/entries"] == 5 and stats["discovery/sitemaps_found"] == 2
