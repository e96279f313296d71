"""Serve the demo site over HTTP, blocking (CLI) or in a background thread (tests).

`DemoServer` keeps one `Site` per edition built from a shared catalog, so switching
edition mid-test (`set_edition`) changes list pages while detail pages stay identical.
With `live`, it serves the live site instead (tests/demosite/live.py), which changes by
itself once `live.start()` is called.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections import Counter
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from tests.demosite.catalog import Catalog, SiteConfig
from tests.demosite.faults import Faults, Response
from tests.demosite.live import LiveConfig, LiveSite
from tests.demosite.site import Site

NOT_FOUND = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>404 页面不存在</title>'
             "</head><body><h1>404</h1><p>您访问的页面不存在。</p>"
             '<p><a href="/">返回首页</a></p></body></html>').encode()


class DemoServer:
    """The demo site on host:port (port 0 = ephemeral); use as a context manager in tests."""

    def __init__(self, seed: int = 0, edition: int = 0, *, host: str = "127.0.0.1",
                 port: int = 0, faults: bool = False, slow_seconds: float = 5.0,
                 latency: float = 0.0, jitter: float = 0.0, config: SiteConfig | None = None,
                 verbose: bool = False, live: LiveConfig | None = None) -> None:
        self.catalog = Catalog(seed, config)
        self.live = LiveSite(self.catalog, live) if live is not None else None
        self.faults = Faults(slow_seconds) if faults else None
        self.latency = latency  # seconds each answer takes, as a distant server's would
        self.jitter = jitter  # each answer's latency drawn uniformly within latency ± jitter
        self.verbose = verbose
        self._sites: dict[int, Site] = {}
        self._lock = threading.Lock()
        self.hits: Counter[str] = Counter()  # GETs per path: lets tests prove "fetched once"
        self.sent: Counter[str] = Counter()  # body bytes sent per path (a 304 sends none)
        self.in_flight = self.most_in_flight = 0  # requests being answered: proves politeness
        self.set_edition(edition)
        self.httpd = _HTTPServer((host, port), _Handler)
        self.httpd.demo = self
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL without a trailing slash, e.g. http://127.0.0.1:54321."""
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def site(self) -> Site:
        """The site at the edition currently served (the live site as it stands, if live)."""
        return self.live.site() if self.live is not None else self._sites[self.edition]

    def set_edition(self, edition: int) -> None:
        """Serve `edition` from now on (built on first use, then cached)."""
        with self._lock:
            if edition not in self._sites:
                self._sites[edition] = Site(edition=edition, catalog=self.catalog)
            self.edition = edition

    def start(self) -> str:
        """Serve in a daemon thread; returns the base URL."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                        name="demosite")
        self._thread.start()
        return self.url

    def serve_forever(self) -> None:
        """Serve on the calling thread until interrupted."""
        try:
            self.httpd.serve_forever()
        finally:
            self.httpd.server_close()

    def stop(self) -> None:
        """Stop serving and release the port."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
            self._thread = None
        self.httpd.server_close()

    def __enter__(self) -> DemoServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def total_hits(self) -> int:
        """GETs answered so far, read under the lock the handlers count under (summing
        `hits` from another thread while a handler adds a path raises RuntimeError)."""
        with self._lock:
            return sum(self.hits.values())

    def response_latency(self) -> float:
        """Seconds this answer waits: `latency` ± `jitter`, uniform (never below 0)."""
        return max(0.0, self.latency + random.uniform(-self.jitter, self.jitter))

    def respond(self, path: str, base_url: str) -> Response:
        """The response for a request path (query ignored)."""
        site = self.site
        if path == "/robots.txt":
            return Response(200, site.robots_txt(base_url), "text/plain; charset=utf-8")
        document = site.discovery_document(path, base_url)
        if document is not None:
            return Response(200, document, "application/rss+xml" if path.endswith("feed.xml")
                            else "application/xml")
        page = site.get(path)
        if page is not None:
            return Response(200, page.body, page.content_type)
        fault = self.faults.respond(path) if self.faults and path.startswith("/faults/") else None
        if fault is not None:
            return fault
        if site.get(path + "/") is not None:
            return Response(301, b"", None, headers=(("Location", path + "/"),))
        return Response(404, NOT_FOUND)


@cache
def _etag(body: bytes) -> str:
    """A page's ETag, hashed once: the demo shares the cores with the crawlers it serves.
    (Bodies are the site's own, a bounded set; bytes keep their hash for the lookup.)"""
    return f'"{hashlib.sha1(body).hexdigest()[:20]}"'


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's listen backlog is 5: a crawler opening 16 connections at once had
    # the rest of its SYNs dropped and retried by TCP a second later (a 1 s stall).
    request_queue_size = 128
    demo: DemoServer

    def handle_error(self, request: object, client_address: object) -> None:
        if self.demo.verbose:  # clients hanging up on the slow page are expected
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    server_version = "DemoSite/1.0"
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes. With Nagle's algorithm on, the body waits for
    # the client's ACK of the headers, which a keep-alive client delays by up to 40 ms:
    # every answer after a connection's first took ~44 ms (800 sequential requests: 35 s,
    # with TCP_NODELAY 0.5 s). A real site's latency is `latency`'s business, not this.
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        demo = self.server.demo
        with demo._lock:
            demo.hits[urlsplit(self.path).path] += 1
            demo.in_flight += 1
            demo.most_in_flight = max(demo.most_in_flight, demo.in_flight)
        try:
            self._reply(send_body=True)
        finally:
            with demo._lock:
                demo.in_flight -= 1

    def do_HEAD(self) -> None:
        self._reply(send_body=False)

    def _reply(self, send_body: bool) -> None:
        demo = self.server.demo
        host = self.headers.get("Host")
        base = f"http://{host}" if host else demo.url
        response = demo.respond(urlsplit(self.path).path, base)
        if response.delay or demo.latency:
            time.sleep(response.delay + demo.response_latency())
        etag = _etag(response.body)
        if response.status == 200 and self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(response.status)
        if response.content_type:
            self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        if response.status == 200:
            self.send_header("ETag", etag)
        for name, value in response.headers:
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            with demo._lock:  # counted before the client can read it
                demo.sent[urlsplit(self.path).path] += len(response.body)
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: object) -> None:
        if self.server.demo.verbose:
            super().log_message(format, *args)
