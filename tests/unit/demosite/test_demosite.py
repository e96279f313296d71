"""The demo site: deterministic, edition-stable, truthful, and served correctly over HTTP."""

from __future__ import annotations

import http.client
import json
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from html import escape
from urllib.parse import urlsplit

import pytest

from tests.demosite import DemoServer, Site, SiteConfig
from tests.demosite.__main__ import main
from tests.demosite.faults import FAULTS, HUGE_BYTES, Faults
from tests.demosite.layout import NAV
from tests.unit.pipelines.test_cli import _parser_of

HREF = re.compile(r'(?:href|src)="([^"]+)"')


@pytest.fixture(scope="module")
def site() -> Site:
    return Site(seed=0)


@pytest.fixture(scope="module")
def site_next(site: Site) -> Site:
    return Site(edition=1, catalog=site.catalog)


def _text(site: Site, path: str) -> str:
    page = site.get(path)
    return page.body.decode(page.truth["encoding"])


def test_same_seed_gives_same_bytes_and_other_seed_differs(site: Site) -> None:
    started = time.process_time()
    again = Site(seed=0)
    assert time.process_time() - started < 3
    assert {p: pg.body for p, pg in again.pages.items()} == {
        p: pg.body for p, pg in site.pages.items()}
    other = Site(seed=1, config=SiteConfig(articles_per_section=5, threads_per_board=5,
                                           blog_posts=5))
    assert other.get("/").body != site.get("/").body


def test_page_counts_cover_every_type(site: Site) -> None:
    counts = Counter(record["type"] for record in site.ground_truth().values())
    assert 300 <= sum(counts.values()) <= 600
    assert counts["news"] == 250 and counts["forum"] == 150 and counts["blog"] == 60
    assert counts["list"] >= 30 and counts["other"] == 3


def test_new_edition_adds_items_on_top_and_keeps_old_pages(site: Site, site_next: Site) -> None:
    old, new = site.ground_truth(), site_next.ground_truth()
    assert set(old) < set(new)
    for path, record in old.items():
        if record["type"] != "list":
            assert site_next.get(path).body == site.get(path).body, path
    added = [p for p, r in new.items() if p not in old and r["type"] != "list"]
    assert len(added) == 5 * 3 + 5 * 2 + 2
    assert all(new[p]["edition"] == 1 for p in added)
    china_top = [r["url"] for r in new["/news/china/"]["records"][:3]]
    assert set(china_top) <= set(added)
    assert new["/news/china/"]["records"][3]["url"] == old["/news/china/"]["records"][0]["url"]


def test_list_records_and_next_pages_point_at_served_pages(site: Site) -> None:
    truth = site.ground_truth()
    lists = [r for r in truth.values() if r["type"] == "list"]
    for record in lists:
        assert record["records"], record["url"]
        assert all(row["url"] in truth for row in record["records"])
        assert record["next_page"] is None or record["next_page"] in truth
    detail_urls = {p for p, r in truth.items() if r["type"] in ("news", "forum", "blog")}
    listed = {row["url"] for r in lists for row in r["records"]}
    assert detail_urls <= listed


def test_every_internal_link_is_served(site: Site) -> None:
    for path, page in site.pages.items():
        if page.truth is None:
            continue
        for href in HREF.findall(_text(site, path)):
            if not href.startswith(("http://", "javascript:")):
                assert (site.get(href) or site.discovery_document(href, "")) is not None, (
                    path, href)
    nav = re.search(r'<nav id="nav">(.*?)</nav>', _text(site, "/")).group(1)
    assert HREF.findall(nav) == [href for _, href in NAV]


def test_truth_text_is_what_the_page_shows(site: Site) -> None:
    for path, record in site.ground_truth().items():
        html = _text(site, path)
        if record["type"] in ("news", "forum", "blog", "other"):
            assert escape(record["title"]) in html
            for paragraph in record["body"].split("\n\n"):
                assert f"<p>{escape(paragraph)}</p>" in html, path
        if record["published_raw"]:
            assert record["published_raw"] in html
        for comment in record["comments"]:
            assert comment["published_raw"] in html and escape(comment["text"]) in html
        for row in record["records"]:
            assert escape(row["title"]) in html and row["date"] in html


def test_chinese_body_has_full_width_punctuation(site: Site) -> None:
    truth = site.ground_truth()
    news = next(r for r in truth.values() if r["template"] == "news-zh")
    assert news["body"].count("\n\n") >= 3 and "，" in news["body"] and "。" in news["body"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:00\+08:00", news["published"])
    forum_text = "".join(r["body"] for r in truth.values() if r["type"] == "forum")
    assert "！" in forum_text and "？" in forum_text


def test_gbk_section_declares_no_charset_in_header(site: Site) -> None:
    pages = [pg for p, pg in site.pages.items() if p.startswith("/news/local/")]
    assert len(pages) > 50
    for page in pages:
        assert page.content_type == "text/html"
        with pytest.raises(UnicodeDecodeError):
            page.body.decode("utf-8")
        page.body.decode("gbk")
    assert b"charset" not in site.get("/news/local/").body


def test_cli_writes_truth_json(tmp_path) -> None:
    out = tmp_path / "truth.json"
    assert main(["truth", "--out", str(out), "--seed", "0"]) == 0
    truth = json.loads(out.read_text(encoding="utf-8"))
    assert truth["/"]["type"] == "list" and len(truth) > 300


def _get(base: str, path: str, method: str = "GET",
         headers: dict | None = None) -> http.client.HTTPResponse:
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.request(method, path, headers=headers or {})
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def test_server_speaks_http_and_switches_edition() -> None:
    config = SiteConfig(articles_per_section=12, threads_per_board=6, blog_posts=8)
    with DemoServer(seed=0, config=config, faults=True, slow_seconds=0.2) as server:
        home = _get(server.url, "/")
        assert home.status == 200 and home.getheader("Content-Type") == "text/html; charset=utf-8"
        assert int(home.getheader("Content-Length")) == len(home.body) > 0
        etag = {"If-None-Match": home.getheader("ETag")}
        assert _get(server.url, "/", headers=etag).status == 304
        assert _get(server.url, "/no/such/page.html").status == 404
        assert _get(server.url, "/news/china").getheader("Location") == "/news/china/"
        assert b"Disallow: /admin/" in _get(server.url, "/robots.txt").body
        index = _get(server.url, "/sitemap.xml").body.decode()
        assert f"<loc>{server.url}/sitemap-pages.xml</loc>" in index
        sitemap = _get(server.url, "/sitemap-pages.xml").body.decode()
        assert f"<loc>{server.url}/news/china/2026/" in sitemap and "/admin/" not in sitemap
        assert _get(server.url, "/news/local/").getheader("Content-Type") == "text/html"
        assert _get(server.url, "/", method="HEAD").body == b""

        assert _get(server.url, "/faults/500.html").status == 500
        assert _get(server.url, "/faults/loop-a").getheader("Location") == "/faults/loop-b"
        assert _get(server.url, "/faults/empty.html").body == b""
        assert _get(server.url, "/faults/image.html").body.startswith(b"\x89PNG")
        started = time.perf_counter()
        assert _get(server.url, "/faults/slow.html").status == 200
        assert time.perf_counter() - started >= 0.2

        before = set(server.site.ground_truth())
        server.set_edition(1)
        added = sorted(set(server.site.ground_truth()) - before)
        assert added and _get(server.url, added[0]).status == 200


def test_faults_are_off_by_default() -> None:
    config = SiteConfig(articles_per_section=2, threads_per_board=2, blog_posts=2)
    with DemoServer(config=config) as server:
        assert _get(server.url, "/faults/500.html").status == 404


def test_fault_bodies_are_what_they_claim() -> None:
    faults = Faults(slow_seconds=0)
    responses = {path: faults.respond(path) for path in FAULTS}
    assert all(responses.values()) and faults.respond("/faults/nothing") is None
    assert len(responses["/faults/huge.html"].body) > HUGE_BYTES
    mislabeled = responses["/faults/mislabeled.html"]
    assert "utf-8" in mislabeled.content_type
    with pytest.raises(UnicodeDecodeError):
        mislabeled.body.decode("utf-8")
    gb18030 = responses["/faults/gb18030.html"]
    assert gb18030.content_type == "text/html" and b"charset" not in gb18030.body
    with pytest.raises(UnicodeDecodeError):
        gb18030.body.decode("gbk")
    assert "䶮" in gb18030.body.decode("gb18030")
    assert responses["/faults/file.bin"].content_type == "application/octet-stream"
    assert b"</p>" not in responses["/faults/broken.html"].body


def test_server_accepts_a_crawlers_burst_of_connections_without_stalling() -> None:
    """A crawler opens many connections at once; none may wait for TCP's 1 s SYN retry
    (socketserver's default listen backlog of 5 made the demo crawl stall that way)."""
    def fetch(url: str) -> float:
        began = time.monotonic()
        host, port = urlsplit(url).netloc.split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.request("GET", "/robots.txt")
        connection.getresponse().read()
        connection.close()
        return time.monotonic() - began

    with DemoServer() as server, ThreadPoolExecutor(max_workers=48) as pool:
        waits = list(pool.map(fetch, [server.url] * 48))
    assert max(waits) < 0.9, sorted(waits)[-5:]


def test_latency_with_jitter_spreads_answers_within_its_bounds() -> None:
    """bench.crawl's latency mode: each answer waits latency ± jitter, uniformly, never less
    than nothing."""
    servers = [DemoServer(latency=0.15, jitter=0.05), DemoServer(latency=0.01, jitter=0.05)]
    try:
        waits, short = ([server.response_latency() for _ in range(2000)] for server in servers)
    finally:
        for server in servers:
            server.stop()
    assert 0.10 <= min(waits) < 0.11 and 0.19 < max(waits) <= 0.20
    assert abs(sum(waits) / len(waits) - 0.15) < 0.005
    assert min(short) == 0.0 and max(short) > 0.05


def test_answers_on_a_kept_alive_connection_do_not_wait_for_delayed_acks() -> None:
    """A crawler reuses its connections. Headers and body leave in two writes; with
    Nagle's algorithm on, the body waited for the client's delayed ACK of the headers:
    about 40 ms an answer after the first, so 25 pages took over a second."""
    with DemoServer() as server:
        host, port = urlsplit(server.url).netloc.split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        paths = sorted(server.site.ground_truth())[:25]
        began = time.monotonic()
        for path in paths:
            connection.request("GET", path)
            assert connection.getresponse().read()
        elapsed = time.monotonic() - began
        connection.close()
    assert elapsed < 0.5, f"{len(paths)} answers on one connection took {elapsed:.2f} s"


def test_every_option_of_the_demo_command_has_a_help_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`make demo`'s command, checked as every `python -m crawler` command is (test_cli)."""
    parser = _parser_of("tests.demosite.demo", "main", monkeypatch)
    assert [action.option_strings or action.dest
            for action in parser._actions if not action.help] == []
