"""URL identity: one page is one row whichever spelling of its URL was linked."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from crawler import settings
from crawler.urls import UrlIdentity, canonical_or_none, normalise_url
from pipelines.siblings import sibling_candidates


@pytest.mark.parametrize(
    ("spelling", "identity"),
    [
        ("http://a.cn/news/index.html", "http://a.cn/news/"),
        ("http://a.cn/news/INDEX.HTM", "http://a.cn/news/"),
        ("http://a.cn/index.shtml", "http://a.cn/"),
        ("http://a.cn/bbs/index.php?tid=3", "http://a.cn/bbs/?tid=3"),
        ("http://a.cn/Default.aspx", "http://a.cn/"),
        ("http://a.cn/news/?utm_source=x&utm_medium=y&id=1", "http://a.cn/news/?id=1"),
        ("http://a.cn/a.html?spm=1.2&from=timeline&fbclid=f&gclid=g&yclid=y&igshid=i",
         "http://a.cn/a.html"),
        ("http://a.cn/a.html?mc_cid=c&mc_eid=e&_hsenc=h&UTM_Campaign=z", "http://a.cn/a.html"),
        ("HTTP://News.A.CN:80/a.html#comments", "http://news.a.cn/a.html"),
        ("https://a.cn:443/", "https://a.cn/"),
        ("https://a.cn:80/", "https://a.cn:80/"),  # not https's default port
        ("http://a.cn:8080/index.html?b=2&a=1", "http://a.cn:8080/?a=1&b=2"),
    ],
)
def test_spellings_of_one_page_share_one_identity(spelling: str, identity: str) -> None:
    assert normalise_url(spelling) == identity
    assert normalise_url(identity) == identity  # identity is a fixed point


@pytest.mark.parametrize("url", [
    "http://a.cn/index.html/next",  # an index name that is not the path's end
    "http://a.cn/myindex.html",
    "http://a.cn/news/1.html?id=3&page=2",
    "http://a.cn/news/",
    "http://a.cn/news",  # a directory without its slash may be another resource
])
def test_other_urls_keep_their_identity(url: str) -> None:
    assert normalise_url(url) == url


def test_the_lists_are_the_crawl_settings_and_can_be_overridden() -> None:
    assert "utm_*" in settings.URL_TRACKING_PARAMETERS
    assert "index.html" in settings.URL_DIRECTORY_INDEXES
    custom = UrlIdentity.from_settings(Settings({"URL_TRACKING_PARAMETERS": "ref,x_*",
                                                 "URL_DIRECTORY_INDEXES": "home.html"}))
    url = "http://a.cn/s/home.html?ref=1&x_y=2&utm_source=3&id=4"
    assert normalise_url(url, custom) == "http://a.cn/s/?id=4&utm_source=3"
    assert canonical_or_none("http://a.cn:99999/", custom) is None
    no_indexes = UrlIdentity.from_settings(Settings({"URL_DIRECTORY_INDEXES": ""}))
    assert normalise_url("http://a.cn/s/index.html", no_indexes) == "http://a.cn/s/index.html"


def test_a_page_is_never_its_own_sibling_under_another_spelling() -> None:
    target = "http://a.cn/news/12.html"
    links = ["HTTP://A.CN:80/news/12.html", "/news/13.html"]
    assert sibling_candidates(target, links, identity=normalise_url) == [
        "http://a.cn/news/13.html"]
