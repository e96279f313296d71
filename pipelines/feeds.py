"""Feeds and sitemaps: XML documents for machines (RSS, Atom, RDF, sitemaps), never articles.

`is_feed` reads a decoded page's opening, whatever its Content-Type said: a feed served as
text/html is still a feed, and its entries read as an article's comments if it is extracted.
`feed_links` serves discovery (`crawler/discovery.py`): the feeds a page declares.
"""

from __future__ import annotations

import re

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
