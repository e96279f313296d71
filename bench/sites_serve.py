"""A static site on 127.0.0.1 and a replay proxy in front of it, for bench.sites.

`LocalSite` serves a folder with the standard library's threaded http.server.
`ReplayProxy` is an HTTP proxy (what `http_proxy` / `https_proxy` point at) that answers
requests for the site's own host names, and for the local server itself, from that server:
plain GETs in absolute-URI form, and CONNECT tunnels for https, whose TLS it terminates
with a throwaway self-signed certificate made by the `openssl` command line. Every other
request is refused (403) and counted, so a crawl through it never leaves the machine.
"""

from __future__ import annotations

import contextlib
import http.client
import shutil
import socket
import ssl
import subprocess
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

# Hop-by-hop headers and those the proxy writes itself.
_NOT_FORWARDED = {"connection", "keep-alive", "transfer-encoding", "content-length", "server",
                  "date", "proxy-connection"}


class _QuietFiles(SimpleHTTPRequestHandler):
    """Static files over HTTP/1.1 keep-alive, without a log line per request."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
        pass


class LocalSite:
    """`root` served on 127.0.0.1 at a free port (by serve_site)."""

    def __init__(self, root: Path) -> None:
        handler = partial(_QuietFiles, directory=str(root))
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.netloc = f"127.0.0.1:{self.server.server_address[1]}"
        self.origin = f"http://{self.netloc}"



@contextmanager
def _serving(server: ThreadingHTTPServer) -> Iterator[None]:
    """`server` answering in a daemon thread of this process while the block runs."""
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def serve_site(root: Path) -> Iterator[LocalSite]:
    """`root` on 127.0.0.1 for the block."""
    site = LocalSite(root)
    with _serving(site.server):
        yield site


@contextmanager
def serve_proxy(site: LocalSite, own_hosts: list[str], workdir: Path) -> Iterator[ReplayProxy]:
    """A replay proxy in front of `site` for the block (its certificate made in workdir)."""
    proxy = ReplayProxy(site, own_hosts, workdir)
    with _serving(proxy.server):
        yield proxy


def self_signed_certificate(hosts: list[str], folder: Path) -> tuple[Path, Path]:
    """A certificate and key for `hosts` made with the openssl CLI in `folder`."""
    if shutil.which("openssl") is None:
        raise RuntimeError("the openssl command is needed to serve https hosts")
    cert, key = folder / "cert.pem", folder / "key.pem"
    names = ",".join(f"DNS:{host}" for host in hosts)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", f"/CN={hosts[0]}", "-addext", f"subjectAltName={names}",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


class _ProxyHandler(BaseHTTPRequestHandler):
    """One client connection: absolute-URI GETs, or a CONNECT tunnel then origin-form GETs
    read from the TLS stream on the same connection."""

    protocol_version = "HTTP/1.1"
    server: _ProxyServer
    tunnel_host: str | None = None
    upstream: http.client.HTTPConnection | None = None

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
        pass

    def do_CONNECT(self) -> None:  # noqa: N802 - http.server's naming
        host = self.path.rsplit(":", 1)[0]
        if self.server.context is None or not self.server.owns(host):
            self._refuse(self.path)
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        try:
            tls = self.server.context.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError):
            self.close_connection = True
            return
        # http.server's loop goes on reading requests, now from inside the tunnel.
        self.connection = tls
        self.rfile = tls.makefile("rb")
        self.wfile = tls.makefile("wb")
        self.tunnel_host = self.path
        self.close_connection = False  # also after an HTTP/1.0 CONNECT (urllib's)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
        self._answer(body=False)

    def _answer(self, body: bool) -> None:
        if self.tunnel_host is not None:
            host, path = self.tunnel_host, self.path
        else:
            parts = urlsplit(self.path)
            host = parts.netloc
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            if not parts.scheme:  # origin-form outside a tunnel: not a proxy request
                host = ""
        if not self.server.owns(host):
            self._refuse(host or self.path)
            return
        status, reason, headers, content = self._fetch("HEAD" if not body else "GET", path)
        self.send_response(status, reason)
        for name, value in headers:
            if name.lower() not in _NOT_FORWARDED:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        if body:
            self.wfile.write(content)

    def _fetch(self, method: str, path: str) -> tuple[int, str, list[tuple[str, str]], bytes]:
        """The local server's answer, over this connection's kept-alive upstream."""
        for attempt in (1, 2):
            if self.upstream is None:
                self.upstream = http.client.HTTPConnection(self.server.upstream, timeout=30)
            try:
                self.upstream.request(method, path,
                                      headers={"User-Agent": self.headers.get("User-Agent", "")})
                response = self.upstream.getresponse()
                return response.status, response.reason, response.getheaders(), response.read()
            except (http.client.HTTPException, OSError):
                self.upstream.close()
                self.upstream = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def finish(self) -> None:
        with contextlib.suppress(OSError):  # the client hung up
            super().finish()
        if self.tunnel_host is not None:
            self.connection.close()
        if self.upstream is not None:
            self.upstream.close()

    def _refuse(self, what: str) -> None:
        self.server.count_refused(urlsplit(f"//{what}").hostname or what)
        self.send_error(403, "not a host of this site")
        self.close_connection = True


class _ProxyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, upstream: str, own_hosts: list[str],
                 context: ssl.SSLContext | None) -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.upstream = upstream
        self.hosts = {host.lower() for host in own_hosts} | {upstream}
        self.context = context
        self.refused: Counter[str] = Counter()
        self._lock = threading.Lock()

    def owns(self, netloc: str) -> bool:
        """Whether a request's host (with or without its port) is one this proxy answers."""
        netloc = netloc.lower()
        if netloc in self.hosts:
            return True
        host = urlsplit(f"//{netloc}").hostname or ""
        return host in self.hosts

    def count_refused(self, host: str) -> None:
        with self._lock:
            self.refused[host] += 1

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket],
                     client_address: tuple[str, int] | str) -> None:
        """A client that hangs up mid-answer is no error worth a traceback."""


class ReplayProxy:
    """The proxy for one site: its own hosts (any scheme) and `site`'s netloc go to `site`
    (served by serve_proxy)."""

    def __init__(self, site: LocalSite, own_hosts: list[str], workdir: Path) -> None:
        context = None
        if own_hosts:
            cert, key = self_signed_certificate(own_hosts, workdir)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(cert, key)
        self.server = _ProxyServer(site.netloc, own_hosts, context)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def refused(self) -> Counter[str]:
        """Requests refused, by host."""
        return self.server.refused

    def environment(self) -> dict[str, str]:
        """The variables that route a process' requests (Scrapy's included) through here."""
        return {"http_proxy": self.url, "https_proxy": self.url,
                "HTTP_PROXY": self.url, "HTTPS_PROXY": self.url}
