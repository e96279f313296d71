"""Sitemaps read for discovery (Scrapy's sitemap utilities), entry order, the source setting."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime

import pytest

from crawler.discovery import entry_priority
from crawler.feeds import FeedEntry, newest_first, read_sitemap
from models.source_settings import parse_source_settings

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
URLSET = (f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}>'
          "<url><loc>https://a.example/one.html</loc><lastmod>2026-05-01</lastmod></url>"
          "<url><loc>https://a.example/two.html</loc>"
          "<lastmod>2026-05-03T10:00:00+08:00</lastmod></url>"
          "<url><loc>https://a.example/three.html</loc></url></urlset>").encode()
INDEX = (f'<?xml version="1.0"?><sitemapindex {NS}>'
         "<sitemap><loc>https://a.example/s1.xml</loc></sitemap>"
         "<sitemap><loc>https://a.example/s2.xml.gz</loc><lastmod>2026-05-01</lastmod>"
         "</sitemap></sitemapindex>").encode()
NEWS = (f'<?xml version="1.0"?><urlset {NS} '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">'
        "<url><loc>https://a.example/n1.html</loc><lastmod>2026-06-01T00:00:00Z</lastmod>"
        "<news:news><news:publication>x</news:publication>"
        "<news:publication_date>2026-05-20T08:00:00+08:00</news:publication_date>"
        "</news:news></url></urlset>").encode()
CAP = 1024 * 1024


def test_a_sitemap_lists_its_pages_dated_by_lastmod_in_utc() -> None:
    read = read_sitemap(URLSET, "https://a.example/sitemap.xml", CAP)
    assert read.kind == "urlset"
    assert [(e.url, e.published) for e in read.entries] == [
        ("https://a.example/one.html", datetime(2026, 5, 1, tzinfo=UTC)),
        ("https://a.example/two.html", datetime(2026, 5, 3, 2, tzinfo=UTC)),
        ("https://a.example/three.html", None)]
    assert read.entries[1].published_raw == "2026-05-03T10:00:00+08:00"


def test_a_sitemap_index_lists_its_sitemaps() -> None:
    read = read_sitemap(INDEX, "https://a.example/sitemap.xml", CAP)
    assert read.kind == "sitemapindex"
    assert [e.url for e in read.entries] == ["https://a.example/s1.xml",
                                             "https://a.example/s2.xml.gz"]


def test_a_news_sitemap_dates_by_publication_date_before_lastmod() -> None:
    (entry,) = read_sitemap(NEWS, "https://a.example/news.xml", CAP).entries
    assert entry.published == datetime(2026, 5, 20, 0, tzinfo=UTC)
    assert entry.published_raw == "2026-05-20T08:00:00+08:00"


def test_a_gzipped_sitemap_is_unpacked_within_the_size_cap() -> None:
    packed = gzip.compress(URLSET)
    assert len(read_sitemap(packed, "https://a.example/s.xml.gz", CAP).entries) == 3
    assert read_sitemap(packed, "https://a.example/s.xml.gz", len(URLSET) - 1) is None


def test_a_truncated_sitemap_yields_the_entries_before_the_break() -> None:
    cut = URLSET[:URLSET.index(b"<url><loc>https://a.example/three")] + b"<url><loc>https://a"
    assert [e.url for e in read_sitemap(cut, "https://a.example/s.xml", CAP).entries][:2] == [
        "https://a.example/one.html", "https://a.example/two.html"]
    packed = gzip.compress(URLSET)
    read = read_sitemap(packed[:len(packed) // 2], "https://a.example/s.xml.gz", CAP)
    assert read is None or {e.url for e in read.entries} <= {
        "https://a.example/one.html", "https://a.example/two.html", "https://a.example/three.html"}


@pytest.mark.parametrize("body", [b"", b"<html><body><p>no sitemap</p></body></html>",
                                  b"\x00\x01\x02", b"<rss version='2.0'><channel/></rss>"])
def test_what_is_no_sitemap_reads_as_none(body: bytes) -> None:
    assert read_sitemap(body, "https://a.example/sitemap.xml", CAP) is None


def test_entries_go_newest_first_undated_last_each_url_once_within_the_limit() -> None:
    entries = [FeedEntry("https://a/1", datetime(2026, 1, 1, tzinfo=UTC)),
               FeedEntry("https://a/2"),
               FeedEntry("https://a/3", datetime(2026, 3, 1, tzinfo=UTC)),
               FeedEntry("https://a/1", datetime(2026, 1, 1, tzinfo=UTC))]
    assert [e.url for e in newest_first(entries, 10)] == ["https://a/3", "https://a/1",
                                                          "https://a/2"]
    assert [e.url for e in newest_first(entries, 1)] == ["https://a/3"]
    assert entry_priority(0) > entry_priority(1) > entry_priority(10**6) == entry_priority(10**7)


def test_the_discovery_setting_accepts_its_three_modes_only() -> None:
    assert parse_source_settings({}).discovery == "feeds+links"
    assert parse_source_settings({"discovery": "feeds-only"}).discovery == "feeds-only"
    assert parse_source_settings({"discovery": "links"}).discovery == "links"
    with pytest.raises(ValueError, match='"feeds-only" or "feeds\\+links" or "links"'):
        parse_source_settings({"discovery": "feeds"})
