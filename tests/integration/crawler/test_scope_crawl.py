"""A hostile site cannot lead the crawl elsewhere: redirects, meta refreshes, links to other
hosts, ports and schemes, a redirected robots.txt and private addresses, crawled for real."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.crawling import latest_run_stats, run_crawl, stored

PROSE = "<p>" + "A paragraph of an article that is long enough to be its body. " * 6 + "</p>"


class Recorder(ThreadingHTTPServer):
    """A server that answers from a table of path → (status, headers, body: text or bytes)
    and records every path it was asked for."""

    def __init__(self, host: str,
                 pages: dict[str, tuple[int, dict[str, str], str | bytes]]) -> None:
        self.pages, self.hits = pages, []
        super().__init__((host, 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def origin(self) -> str:
        return f"http://{self.server_address[0]}:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: Recorder

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.server.hits.append(self.path)
        status, headers, body = self.server.pages.get(
            self.path, (200, {}, f"<html><body><h1>{self.path}</h1>{PROSE}</body></html>"))
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        for name, value in {"Content-Type": "text/html; charset=utf-8", **headers}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def hostile() -> Iterator[tuple[Recorder, Recorder, Recorder]]:
    """The site (127.0.0.1:A), an outsider on another loopback address (127.0.0.2:B) and one
    on another port of the site's host (127.0.0.1:C)."""
    outsider = Recorder("127.0.0.2", {})
    other_port = Recorder("127.0.0.1", {})
    b, c = outsider.origin, other_port.origin
    b_host = b.removeprefix("http://")
    links = [f"/r{status}" for status in (301, 302, 307)] + [
        "/refresh", f"{b}/p5", f"//{c.removeprefix('http://')}/p6", f"http://{b_host}\\@"
        "127.0.0.1/p7", "file:///etc/passwd", "file://127.0.0.1/etc/hostname",
        f"ftp://{c.removeprefix('http://')}/x", "/ok.html", "/moved", "/long/" + "y" * 3000,
        "/redirect-long"]
    home = ("<html><body><h1>Home</h1>" + PROSE + "<ul>" +
            "".join(f'<li><a href="{link}">link {n}</a></li>' for n, link in enumerate(links))
            + "</ul></body></html>")
    site = Recorder("127.0.0.1", {
        "/": (200, {}, home),
        "/robots.txt": (301, {"Location": f"{b}/robots.txt"}, ""),
        "/r301": (301, {"Location": f"{b}/p1"}, ""),
        "/r302": (302, {"Location": f"{c}/p2"}, ""),
        "/r307": (307, {"Location": f"//{b_host}/p3"}, ""),
        "/refresh": (200, {}, f'<html><head><meta http-equiv="refresh" content="0; url={b}/p4">'
                              f"</head><body>{PROSE}</body></html>"),
        "/moved": (301, {"Location": "/ok2.html"}, ""),
        "/redirect-long": (301, {"Location": "/long/" + "z" * 3000}, ""),
    })
    yield site, outsider, other_port
    for server in (site, outsider, other_port):
        server.shutdown()
        server.server_close()


def test_a_hostile_site_cannot_lead_the_crawl_out_of_its_scope(
        hostile: tuple[Recorder, Recorder, Recorder], pg_url: str, tmp_path: Path) -> None:
    site, outsider, other_port = hostile
    done = run_crawl(site.origin + "/", pg_url, tmp_path, "-a", "depth=3")
    assert done.returncode == 0, done.stderr[-3000:]
    assert outsider.hits == [] and other_port.hits == []
    pages = stored(pg_url)
    assert set(pages) >= {site.origin + "/", site.origin + "/ok.html", site.origin + "/ok2.html"}
    assert all(url.startswith(site.origin + "/") for url in pages), sorted(pages)
    assert not [page for page in pages.values()
                if page.article and "root:" in page.article.body_text]
    stats = latest_run_stats(pg_url)
    assert stats["scope/refused"] >= 5  # three redirects, the meta refresh, a long URL
    assert not [hit for hit in site.hits if hit.startswith("/long/")]  # over URLLENGTH_LIMIT
    assert "another origin: not fetched, read as absent" in done.stderr  # robots.txt
    assert "Traceback" not in done.stderr
    assert "Remote control HTTP server" not in done.stderr  # no code-running console


def test_private_addresses_are_refused_unless_allowed(
        hostile: tuple[Recorder, Recorder, Recorder], pg_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    site = hostile[0]
    monkeypatch.delenv("CRAWL_ALLOW_PRIVATE_ADDRESSES")
    done = run_crawl(site.origin + "/", pg_url, tmp_path, "-a", "depth=1")
    assert done.returncode == 0, done.stderr[-3000:]
    assert site.hits == [] and stored(pg_url) == {}
    assert "private or loopback address 127.0.0.1" in done.stderr
    assert os.environ.get("CRAWL_ALLOW_PRIVATE_ADDRESSES") is None
    allowed = run_crawl(site.origin + "/", pg_url, tmp_path, "-a", "depth=0",
                        "-s", "ALLOW_PRIVATE_ADDRESSES=True")
    assert allowed.returncode == 0 and list(stored(pg_url)) == [site.origin + "/"]
