"""URL patterns and sibling ranking for same-template pages (S2 step 2)."""

from __future__ import annotations

import pytest

from pipelines.siblings import sibling_candidates, url_pattern


@pytest.mark.parametrize(
    ("url", "pattern"),
    [
        ("http://news.example.cn/news/2026/11/20/12345.html",
         "news.example.cn/news/{n}/{n}/{n}/{n}.html"),
        ("http://bbs.example.cn/forum/thread-5678-1.html",
         "bbs.example.cn/forum/thread-{n}-{n}.html"),
        ("http://www.example.cn/show.php?page=1&id=123", "www.example.cn/show.php?id&page"),
        ("http://news.example.cn/w/2010-09-27/202421181404.shtml",
         "news.example.cn/w/{date}/{n}.shtml"),
        ("https://Blog.Example.com/2019/11/how-to-retire-early-in-ten-steps/",
         "blog.example.com/{n}/{n}/{slug}"),
        ("https://example.com/article/6486944b076b4df99a583a3a7c85574d/x",
         "example.com/article/{h}/x"),
    ],
)
def test_url_pattern(url: str, pattern: str) -> None:
    assert url_pattern(url) == pattern


def test_same_shape_same_pattern_other_shape_differs() -> None:
    assert url_pattern("http://a.cn/news/2026/11/19/99.html") == url_pattern(
        "http://a.cn/news/2026/11/20/12345.html")
    assert url_pattern("http://a.cn/news/list_2.html") != url_pattern("http://a.cn/news/12345.html")
    assert url_pattern("http://a.cn/show.php?id=1") != url_pattern("http://a.cn/show.php?id=1&p=2")


def test_siblings_rank_closest_date_and_id_and_skip_target_and_other_patterns() -> None:
    target = "http://news.example.cn/news/2026/11/20/12345.html"
    links = [
        "/news/2025/01/02/10.html",
        "/news/2026/11/20/12345.html#comments",  # the target itself
        "/news/2026/11/19/12300.html",
        "12350.html",  # relative to the target's folder
        "/news/index.html",
        "http://other.example.cn/news/2026/11/20/12346.html",
        "/news/2026/11/20/12344.html",
        "javascript:void(0)",
    ]
    assert sibling_candidates(target, links) == [
        "http://news.example.cn/news/2026/11/20/12344.html",
        "http://news.example.cn/news/2026/11/20/12350.html",
    ]
    assert len(sibling_candidates(target, links, limit=10)) == 4


def test_forum_and_query_siblings() -> None:
    thread = "http://bbs.example.cn/forum/thread-5678-1.html"
    links = ["thread-5679-1.html", "forum-2-1.html", "thread-9000-3.html"]
    assert sibling_candidates(thread, links, limit=1) == [
        "http://bbs.example.cn/forum/thread-5679-1.html"]
    page = "http://www.example.cn/show.php?id=123&page=1"
    assert sibling_candidates(page, ["?id=124&page=1", "?id=123", "list.php?id=123&page=1"]) == [
        "http://www.example.cn/show.php?id=124&page=1"]


def test_slug_siblings_prefer_the_longer_shared_prefix() -> None:
    target = "https://blog.example.com/2019/11/how-to-retire-early-in-ten-steps/"
    links = ["/2018/02/best-winter-soup-recipes-ever/", "/2019/11/techy-gift-guide-for-you/",
             "/about/"]
    assert sibling_candidates(target, links) == [
        "https://blog.example.com/2019/11/techy-gift-guide-for-you/",
        "https://blog.example.com/2018/02/best-winter-soup-recipes-ever/",
    ]
