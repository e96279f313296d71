"""Feeds read for discovery: RSS 2.0, RSS 1.0 (RDF), Atom, relative links, broken feeds,
and the feeds a page declares."""

from __future__ import annotations

from datetime import UTC, datetime

from crawler.feeds import read_feed
from pipelines import feed_links, load_document

RSS2 = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>T</title><link>https://a.example/</link>
<item><title>One</title><link>https://a.example/2026/one.html</link>
<pubDate>Mon, 09 Nov 2026 19:07:00 +0800</pubDate></item>
<item><title>Two</title><link>https://a.example/2026/two.html</link></item>
</channel></rss>"""

RSS1 = b"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
 xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://b.example/"><title>B</title><link>https://b.example/</link></channel>
<item rdf:about="https://b.example/p/1"><title>P1</title><link>https://b.example/p/1</link>
<dc:date>2026-05-01T08:00:00+08:00</dc:date></item>
</rdf:RDF>"""

ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://c.example/blog/">
<title>C</title><id>urn:c</id><updated>2026-05-02T00:00:00Z</updated>
<entry><title>E1</title><id>urn:e1</id><link rel="alternate" href="posts/e1.html"/>
<published>2026-05-01T10:00:00Z</published><updated>2026-05-02T00:00:00Z</updated></entry>
<entry><title>E2</title><id>urn:e2</id><link href="/other/e2.html"/>
<updated>2026-04-30T00:00:00Z</updated></entry>
</feed>"""


def test_rss2_entries_with_their_dates_in_utc() -> None:
    entries = read_feed(RSS2, "https://a.example/feed")
    assert [e.url for e in entries] == ["https://a.example/2026/one.html",
                                        "https://a.example/2026/two.html"]
    assert entries[0].published == datetime(2026, 11, 9, 11, 7, tzinfo=UTC)
    assert entries[0].published_raw == "Mon, 09 Nov 2026 19:07:00 +0800"
    assert entries[1].published is None and entries[1].published_raw is None


def test_rss1_rdf_entries_dated_by_dc_date() -> None:
    entries = read_feed(RSS1, "https://b.example/index.rdf")
    assert [(e.url, e.published) for e in entries] == [
        ("https://b.example/p/1", datetime(2026, 5, 1, 0, 0, tzinfo=UTC))]


def test_atom_links_resolved_against_xml_base_and_published_before_updated() -> None:
    entries = read_feed(ATOM, "https://c.example/atom.xml")
    assert [e.url for e in entries] == ["https://c.example/blog/posts/e1.html",
                                        "https://c.example/other/e2.html"]
    assert entries[0].published == datetime(2026, 5, 1, 10, tzinfo=UTC)
    assert entries[1].published == datetime(2026, 4, 30, tzinfo=UTC)  # only <updated>


def test_relative_links_resolve_against_the_feed_url() -> None:
    feed = RSS2.replace(b"https://a.example/2026/", b"../2026/")
    entries = read_feed(feed, "https://a.example/feeds/rss.xml")
    assert entries[0].url == "https://a.example/2026/one.html"


def test_a_truncated_feed_yields_the_entries_before_the_break() -> None:
    cut = RSS2[:RSS2.index(b"<item><title>Two")] + b"<item><title>Tw"
    entries = read_feed(cut, "https://a.example/feed")
    assert [e.url for e in entries] == ["https://a.example/2026/one.html"]


def test_an_html_page_or_garbage_at_a_feed_path_is_no_feed() -> None:
    html = b"<!DOCTYPE html><html><head><title>404</title></head><body><p>x</p></body></html>"
    assert read_feed(html, "https://a.example/feed") is None
    assert read_feed(b"\x00\x01binary", "https://a.example/feed") is None
    assert read_feed(b"", "https://a.example/feed") is None


def test_entries_without_an_http_link_are_left_out() -> None:
    feed = RSS2.replace(b"https://a.example/2026/two.html", b"javascript:void(0)")
    assert [e.url for e in read_feed(feed, "https://a.example/feed")] == [
        "https://a.example/2026/one.html"]


def test_feed_links_are_the_declared_alternates_absolute_and_once() -> None:
    page = load_document(
        b'<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml">'
        b'<link rel="alternate" type="application/atom+xml; charset=utf-8" href="atom.xml">'
        b'<link rel="Alternate" type="application/rss+xml" href="/feed.xml">'
        b'<link rel="alternate" hreflang="en" type="text/html" href="/en/">'
        b'<link rel="stylesheet" type="text/css" href="/s.css"></head><body><p>x</p></body></html>',
        url="https://d.example/blog/index.html")
    assert feed_links(page) == ["https://d.example/feed.xml", "https://d.example/blog/atom.xml"]
