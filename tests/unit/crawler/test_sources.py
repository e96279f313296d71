"""A crawl's plan from a stored Source: limits, rules and the site's time zone."""

from __future__ import annotations

import logging

import pytest

from crawler.sources import target_of
from crawler.spiders.site import SiteSpider
from models.crawl import Source


def _source(settings: dict) -> Source:
    return Source(id=7, name="hk-news", start_urls=["https://news.example.com/"],
                  allowed_domains=[], page_type_rules=[], settings=settings, max_depth=2)


def test_a_sources_time_zone_setting_reaches_its_plan() -> None:
    target = target_of(_source({"timezone": "Asia/Hong_Kong"}))
    assert target.timezone == "Asia/Hong_Kong"
    assert target.max_depth == 2 and target.allowed_domains == ()
    assert target.scope.allows("https://news.example.com/a/1.html")  # its start URL's origin
    assert not target.scope.allows("https://img.news.example.com/")  # and nothing else
    assert target_of(_source({})).timezone is None


def test_a_misspelt_time_zone_is_logged_and_left_out(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        target = target_of(_source({"timezone": "Asia/Hongkong_"}))
    assert target.timezone is None
    assert "source hk-news: unknown time zone 'Asia/Hongkong_'" in caplog.text


def test_a_wrong_time_zone_argument_stops_the_crawl_before_it_starts() -> None:
    with pytest.raises(ValueError, match="unknown time zone 'Asia/Pekin'"):
        SiteSpider(start_urls="https://news.example.com/", timezone="Asia/Pekin")
    assert SiteSpider(start_urls="https://news.example.com/", timezone="Asia/Hong_Kong")
