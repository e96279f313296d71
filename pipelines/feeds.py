"""Feeds and sitemaps: XML documents for machines (RSS, Atom, RDF, sitemaps), never articles.

`is_feed` reads a decoded page's opening, whatever its Content-Type said: a feed served as
text/html is still a feed, and its entries read as an article's comments if it is extracted.
`feed_links` and `read_feed` serve discovery (the crawler's `crawler/discovery.py`): the feeds a
page declares, and the entries a feed lists, with their dates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import feedparser

from pipelines.document import Document, join_url
from pipelines.lexicon import FEED_MEDIA_TYPES, FEED_ROOTS
from pipelines.params import DECODING, DecodingParams

# The prolog an XML document may open with (a BOM, white space, the XML declaration,
# processing instructions such as xml-stylesheet, comments, a DOCTYPE), then the root's name.
_ROOT = re.compile(r"\A\ufeff?(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)*"
                   r"<([A-Za-z_][\w:.-]*)", re.S)


def is_feed(text: str, params: DecodingParams = DECODING) -> bool:
    """Whether the document is a feed or a sitemap: its root element (past the prolog, in its
    first `sniff_bytes` characters) is rss, feed, RDF, urlset or sitemapindex, any prefix and
    case. An HTML page's root is html (or a body fragment's first tag): never one of them."""
    match = _ROOT.match(text[:params.sniff_bytes])
    return bool(match) and match.group(1).rpartition(":")[2].lower() in FEED_ROOTS


@dataclass(frozen=True)
class FeedEntry:
    """One entry a feed or sitemap lists: the page's absolute URL and the time the document
    gives it (aware, UTC; None when it gives none), with that time as written."""

    url: str
    published: datetime | None = None
    published_raw: str | None = None


def feed_links(document: Document) -> list[str]:
    """The feeds a page declares (`<link rel="alternate" type="application/rss+xml">`, Atom
    or RDF), absolute, in document order, each once."""
    found: list[str] = []
    for link in document.tree.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        media = (link.get("type") or "").split(";")[0].strip().lower()
        href = (link.get("href") or "").strip()
        url = join_url(document.base_url or "", href) if href else None
        if "alternate" in rel and media in FEED_MEDIA_TYPES and url and url not in found:
            found.append(url)
    return found


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
        link = join_url(url, (entry.get("link") or "").strip()) if entry.get("link") else None
        if not link or not link.startswith(("http://", "https://")):
            continue
        parsed_time = entry.get("published_parsed") or entry.get("updated_parsed")
        raw = entry.get("published") or entry.get("updated")
        when = datetime(*parsed_time[:6], tzinfo=UTC) if parsed_time else None
        entries.append(FeedEntry(link, when, raw if when else None))
    return entries
