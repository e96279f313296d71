"""What a crawl may fetch: one rule for links, redirects, meta refreshes, siblings and
robots.txt, checked before a request goes out.

A URL is in a source's scope when its scheme is http or https, it names no user and its
authority holds no backslash (browsers and URL parsers disagree on where such a host ends),
and its origin (scheme, host, port) is allowed:
- without `allowed_domains`: exactly the origins of the start URLs, and each http origin on
  its default port also under https (a site that moved to https redirects every link so);
- with `allowed_domains`: each entry is a host that admits its subdomains too (Scrapy's
  convention), or `host:port`, under http or https, on the scheme's default port, on the port
  the entry names, or on a port a start URL uses for that host.
Hosts compare case-insensitively and in their ASCII (punycode) form, the form requests use.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest

from crawler import settings as defaults

DEFAULT_PORTS = {"http": 80, "https": 443}
logger = logging.getLogger(__name__)


class OutOfScope(IgnoreRequest):
    """A request its source does not allow: another origin, scheme or address."""


def ascii_host(host: str) -> str:
    """The host as requests spell it: lower case, international names in punycode."""
    host = host.strip().rstrip(".").lower()
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, ASCII host, port) of an http(s) URL that names no user and has no
    backslash in its authority; None for any other URL."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if (scheme not in DEFAULT_PORTS or not parts.hostname or "@" in parts.netloc
            or "\\" in url.split("//", 1)[-1].split("/", 1)[0]):
        return None
    return scheme, ascii_host(parts.hostname), port or DEFAULT_PORTS[scheme]


@dataclass(frozen=True)
class Scope:
    """The origins a source allows (see the module's rule)."""

    origins: frozenset[tuple[str, str, int]]
    domains: tuple[str, ...] = ()  # allowed_domains' hosts, their subdomains admitted too
    ports: frozenset[tuple[str, int]] = frozenset()  # (host, port) pairs they admit

    @classmethod
    def of(cls, start_urls: Iterable[str], allowed_domains: Iterable[str] = ()) -> Scope:
        starts = {found for found in map(origin, start_urls) if found}
        origins = set(starts) | {("https", host, 443) for scheme, host, port in starts
                                 if scheme == "http" and port == 80}
        domains, ports = [], set()
        for entry in allowed_domains:
            host, _, port = entry.strip().rpartition(":") if ":" in entry else (entry, "", "")
            host = ascii_host(host.lstrip("*").lstrip("."))
            if host:
                domains.append(host)
                ports.update({(host, int(port))} if port.isdigit() else set())
        ports.update((host, port) for _, host, port in starts)
        return cls(frozenset(origins), tuple(domains), frozenset(ports))

    def allows(self, url: str) -> bool:
        found = origin(url)
        if found is None:
            return False
        if found in self.origins:
            return True
        scheme, host, port = found
        domain = next((d for d in self.domains if host == d or host.endswith("." + d)), None)
        return domain is not None and (port == DEFAULT_PORTS[scheme]
                                       or (host, port) in self.ports
                                       or (domain, port) in self.ports)


def is_private_address(address: str) -> bool:
    """Loopback, private, link-local, multicast, reserved or unspecified: an address that
    is not a public host on the internet (an IPv4-mapped IPv6 address as its IPv4)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


class ScopeMiddleware:
    """Downloader middleware, first of all: every request, redirects and meta refreshes
    included (they come back through here), is checked before it is fetched. It is refused
    when it is outside its source's scope, longer than the URL length limit, or for a host
    that is a loopback or private address (after DNS resolution, so a public name that
    resolves to one is refused too) unless the source's settings or the crawl's allow it; a
    robots.txt request may not leave the origin it was asked for.

    Settings: ALLOW_PRIVATE_ADDRESSES, ADDRESS_CHECK_CACHE_SECONDS, DNS_TIMEOUT,
    URLLENGTH_LIMIT."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        settings = crawler.settings
        self.private_allowed = settings.getbool("ALLOW_PRIVATE_ADDRESSES",
                                                defaults.ALLOW_PRIVATE_ADDRESSES)
        self.cache_seconds = settings.getfloat("ADDRESS_CHECK_CACHE_SECONDS",
                                               defaults.ADDRESS_CHECK_CACHE_SECONDS)
        self.dns_timeout = settings.getfloat("DNS_TIMEOUT")
        self.url_length_limit = settings.getint("URLLENGTH_LIMIT", defaults.URLLENGTH_LIMIT)
        self._private: dict[tuple[str, int], tuple[float, str | None]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ScopeMiddleware:
        return cls(crawler)

    async def process_request(self, request: Request, spider: object = None) -> None:
        if request.meta.get("dont_obey_robotstxt") and "source_id" not in request.meta:
            first = (request.meta.get("redirect_urls") or [request.url])[0]
            if origin(request.url) is None or origin(request.url) != origin(first):
                why = (f"robots.txt of {first} redirects to {request.url}, another origin: "
                       "not fetched, read as absent")
                logger.info("%s", why)  # Scrapy's robots.txt middleware logs no IgnoreRequest
                raise OutOfScope(why)
            return
        try:
            target = self.crawler.spider.target_for(request.meta.get("source_id"))
        except ValueError as error:  # no source to judge by: refused, never guessed
            raise OutOfScope(f"{request.url}: {error}") from None
        if len(request.url) > self.url_length_limit:
            raise OutOfScope(f"{request.url[:self.url_length_limit]}… is longer than "
                             f"URLLENGTH_LIMIT ({self.url_length_limit} characters)")
        if not self.in_scope(request, target.scope):
            raise OutOfScope(f"{request.url} is outside its source's scope")
        allowed = target.settings.private_addresses
        if not (self.private_allowed if allowed is None else allowed):
            address = await self.private_address(request.url)
            if address is not None:
                raise OutOfScope(f"{request.url}: its host is the private or loopback address "
                                 f"{address} (allowed only with ALLOW_PRIVATE_ADDRESSES)")

    @staticmethod
    def in_scope(request: Request, scope: Scope) -> bool:
        """A start request (depth 0, given by the operator, not found on a page) is in scope,
        and so are its redirects within its own origin (and to its https); any other
        request must be in the source's scope."""
        if request.meta.get("depth", 0) == 0:
            first = (request.meta.get("redirect_urls") or [request.url])[0]
            if first == request.url or Scope.of([first]).allows(request.url):
                return True
        return scope.allows(request.url)

    async def private_address(self, url: str) -> str | None:
        """A loopback or private address the URL's host is or resolves to, else None (also
        when it does not resolve: that fetch fails on its own)."""
        found = origin(url)
        if found is None:
            return None
        _, host, port = found
        if is_private_address(host.strip("[]")):
            return host
        cached = self._private.get((host, port))
        if cached is not None and cached[0] > time.monotonic():
            return cached[1]
        try:
            infos = await asyncio.wait_for(
                asyncio.get_running_loop().getaddrinfo(host, port), self.dns_timeout)
        except (OSError, TimeoutError, UnicodeError):
            infos = []
        address = next((str(info[4][0]) for info in infos if is_private_address(str(info[4][0]))),
                       None)
        self._private[(host, port)] = (time.monotonic() + self.cache_seconds, address)
        return address
