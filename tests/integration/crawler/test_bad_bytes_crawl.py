"""A bad byte never loses a page, crawled for real: a GBK site whose home page and every
article declare a codec that is no character set (in the <meta>, some in the HTTP header
too) and a meta refresh, with characters XML forbids beside scripts, deep JSON-LD, and
malformed links, list records and next page. Before, the home page's LookupError lost it
and all it led to."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.crawling import latest_run_stats, run_crawl, stored

BAD_CODECS = ["hex", "base64", "bz2", "zip", "uu", "quopri", "rot13", "idna", "punycode",
              "undefined", "unicode_escape", "x-no-such-codec"]
BAD_LINKS = ["http://[::1/x", "http://hostname[:port%5D/x", "http://127.0.0.1:99999/x"]


def _prose(n: int) -> str:
    return f"第{n}篇报道：市政府召开常务会议，研究部署近期重点工作，会议强调要切实做好民生保障。"


def _article(n: int, codec: str) -> str:
    nested = "[" * 1_000 + "1" + "]" * 1_000
    links = "".join(f'<a href="{link}">相关链接</a>' for link in BAD_LINKS)
    return (f'<html><head><meta charset="{codec}"><meta http-equiv="refresh" content="600">'
            f"<title>第{n}篇新闻</title>"
            '<script type="application/ld+json">{"@type": "NewsArticle", "headline": '
            f'"第{n}篇新闻", "x": {nested}}}</script></head><body>'
            f'<h1>第{n}篇新闻</h1><div class="content"><p>{_prose(n)}</p>\x01<script>var a=1;'
            f"</script>\x0b&#1;<p>{_prose(n)}</p><style>p{{}}</style>\x1f<p>{_prose(n)}</p>"
            f"</div><div>{links}</div></body></html>")


class GbkSite(ThreadingHTTPServer):
    """The site's pages, GBK-encoded, on 127.0.0.1: path → (Content-Type, body)."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, bytes]] = {}
        items = "".join(f'<li><a href="/news/{n}.html">第{n}篇新闻</a> 2024-05-{n:02d}</li>'
                        for n in range(1, len(BAD_CODECS) + 1))
        items += "".join(f'<li><a href="{link}">坏链接的新闻</a> 2024-05-20</li>'
                         for link in BAD_LINKS)  # records no URL parser reads
        links = f'<a href="{BAD_LINKS[1]}list_2.html">下一页</a>'  # a next page likewise
        home = (f'<html><head><meta charset="hex"><title>新闻列表</title></head><body><ul>{items}'
                f"</ul>{links}</body></html>")
        self.pages["/"] = ("text/html", home.encode("gbk"))
        for n, codec in enumerate(BAD_CODECS, 1):
            header = f"text/html; charset={codec}" if n % 2 else "text/html"
            self.pages[f"/news/{n}.html"] = (header, _article(n, codec).encode("gbk"))
        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: GbkSite

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        content_type, body = self.server.pages.get(self.path, ("text/html", b""))
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def gbk_site() -> Iterator[GbkSite]:
    site = GbkSite()
    yield site
    site.shutdown()
    site.server_close()


def test_every_page_of_a_site_declaring_bad_codecs_is_stored_with_its_text(
        gbk_site: GbkSite, pg_url: str, tmp_path: Path) -> None:
    done = run_crawl(gbk_site.origin + "/", pg_url, tmp_path, "-a", "depth=1",
                     "-s", "ROBOTSTXT_OBEY=False")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    pages = stored(pg_url)
    expected = {gbk_site.origin + path for path in gbk_site.pages}
    assert set(pages) == expected
    for n in range(1, len(BAD_CODECS) + 1):
        page = pages[f"{gbk_site.origin}/news/{n}.html"]
        assert page.encoding == "gb18030"
        assert page.article is not None and page.article.title == f"第{n}篇新闻"
        assert page.article.body_text.count(_prose(n)) == 3
    stats = latest_run_stats(pg_url)
    assert stats["pages/new"] == len(expected) and "errors/extract" not in stats
