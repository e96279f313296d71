"""Discovery documents read: feeds by feedparser, sitemaps (plain, gzip'd, indexes, news) by
Scrapy's own sitemap utilities, as its SitemapSpider reads them. Pure functions over bytes
(no request, no network); feedparser imports urllib's HTTP client, which the extraction
package may not, so they live here. Their entries feed `crawler.discovery`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urljoin

import feedparser
import lxml.etree
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class FeedEntry:
    """One entry a feed or sitemap lists: the page's absolute URL and the time the document
    gives it (aware, UTC; None when it gives none), with that time as written."""

    url: str
    published: datetime | None = None
    published_raw: str | None = None



def read_feed(body: bytes, url: str) -> list[FeedEntry] | None:
    """The entries of an RSS 0.9x/2.0, RSS 1.0 (RDF) or Atom feed, read by feedparser: links
    resolved against the feed's URL (and its xml:base), dated by the entry's published time,
    else its updated time. A truncated or ill-formed feed yields the entries read before the
    break; None when the body is no feed at all (an HTML page served at a feed's path)."""
    parsed = feedparser.parse(body, response_headers={"content-location": url})
    if not parsed.get("version") and not parsed.entries:
        return None
    entries = []
    for entry in parsed.entries:
        link = urljoin(url, (entry.get("link") or "").strip()) if entry.get("link") else None
        if not link or not link.startswith(("http://", "https://")):
            continue
        parsed_time = entry.get("published_parsed") or entry.get("updated_parsed")
        raw = entry.get("published") or entry.get("updated")
        when = datetime(*parsed_time[:6], tzinfo=UTC) if parsed_time else None
        entries.append(FeedEntry(link, when, raw if when else None))
    return entries


class _NewsSitemap(Sitemap):
    """Scrapy's Sitemap, also reading a news sitemap entry's nested
    `<news:news><news:publication_date>` (Scrapy keeps direct children only)."""

    def _process_sitemap_element(self, elem: lxml.etree._Element) -> dict[str, Any] | None:
        published = elem.findtext(".//{*}publication_date")
        found = super()._process_sitemap_element(elem)
        if found is not None and published and published.strip():
            found["publication_date"] = published.strip()
        return found


@dataclass(frozen=True)
class SitemapRead:
    """A sitemap's kind (`urlset` or `sitemapindex`) and its entries, or the sitemaps an
    index lists (as entries without dates)."""

    kind: str
    entries: list[FeedEntry]


def read_sitemap(body: bytes, url: str, max_size: int) -> SitemapRead | None:
    """A sitemap or sitemap index (gzip'd or not), or None when the body is neither or
    unpacks to more than `max_size` bytes. Entries are dated by `news:publication_date`,
    else `lastmod`; a truncated sitemap yields the entries read before the break."""
    if body[:2] == b"\x1f\x8b":
        try:
            body = gunzip(body, max_size=max_size)
        except (ValueError, OSError, EOFError):  # over the size cap, or not gzip after all
            return None
    try:
        sitemap = _NewsSitemap(body)
    except (lxml.etree.XMLSyntaxError, StopIteration):
        return None
    if sitemap.type not in ("urlset", "sitemapindex"):
        return None
    entries = []
    try:
        for found in sitemap:
            raw = found.get("publication_date") or found.get("lastmod") or None
            location = urljoin(url, found["loc"])
            if location.startswith(("http://", "https://")):
                entries.append(FeedEntry(location, _w3c_time(raw), raw))
    except lxml.etree.XMLSyntaxError:
        logger.info("sitemap %s breaks off after %d entries", url, len(entries))
    return SitemapRead(sitemap.type, entries)


def _w3c_time(raw: str | None) -> datetime | None:
    """A sitemap's W3C datetime (YYYY-MM-DD, YYYY-MM-DDThh:mm:ss+hh:mm, …Z) in UTC; a time
    without a zone is read as UTC; None when unreadable."""
    if not raw:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)


def newest_first(entries: Iterable[FeedEntry], limit: int) -> list[FeedEntry]:
    """The `limit` newest entries, newest first, undated ones after the dated, each URL once
    (in document order among equals)."""
    unique = list({entry.url: entry for entry in reversed(list(entries))}.values())[::-1]
    dated = sorted((e for e in unique if e.published), key=lambda e: e.published, reverse=True)
    return (dated + [e for e in unique if not e.published])[:limit]
