"""The zone a page's zone-less times are in: told, else its country domain, else its language."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from pipelines.article.dates.zones import local_now, localise, page_zone, zone_named

HONG_KONG = ZoneInfo("Asia/Hong_Kong")


def test_country_domain_then_language_then_nothing() -> None:
    assert page_zone("https://www.example.de/a.html", "en") == ZoneInfo("Europe/Berlin")
    for tag in ("zh", "zh-CN", "zh_CN", "ZH-tw"):
        assert page_zone("https://example.com/a.html", tag) == ZoneInfo("Asia/Shanghai")
    assert page_zone("https://example.com/a.html", "en") is None
    assert page_zone(None, None) is None
    assert page_zone("http://127.0.0.1:8000/a.html", None) is None  # a port is no domain


def test_a_zone_the_crawl_was_told_comes_first() -> None:
    assert page_zone("https://news.example.cn/a.html", "zh", HONG_KONG) == HONG_KONG


def test_the_fetch_time_on_the_pages_clock_and_zone_less_times_placed_in_it() -> None:
    fetched = datetime(2023, 5, 10, 20, 0, tzinfo=UTC)
    assert local_now(fetched, HONG_KONG).day == 11  # 04:00 the next day in Hong Kong
    assert local_now(fetched, None) is fetched
    assert localise(datetime(2023, 5, 1, 10, 0), HONG_KONG).utcoffset().total_seconds() == 8 * 3600
    zoned = datetime(2023, 5, 1, 10, 0, tzinfo=UTC)
    assert localise(zoned, HONG_KONG) is zoned and localise(None, HONG_KONG) is None


def test_a_zone_is_named_as_iana_names_it() -> None:
    assert zone_named("Asia/Hong_Kong") == HONG_KONG
    with pytest.raises(ValueError, match="unknown time zone 'Asia/Pekin'"):
        zone_named("Asia/Pekin")
