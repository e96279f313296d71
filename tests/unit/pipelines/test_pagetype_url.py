"""URL features of S3: the seed's ten date shapes with a real-date check, keyword counts/scores;
the pagination rule's exception for item views."""

from __future__ import annotations

import pytest

from pipelines.pagetype.rules import match_rule, names_one_item
from pipelines.pagetype.url_features import (
    has_valid_date,
    keyword_score,
    url_features,
    url_string,
)


def test_url_string_strips_scheme_and_trailing_slash() -> None:
    assert url_string("HTTPS://News.Example.com/a/b/") == "news.example.com/a/b"


@pytest.mark.parametrize("path", [
    "x/2023-05-01/a", "x/20230501.html", "x/2023-05/01/a", "x/2023-05/a", "x/202305/a",
    "x/2023/05-01/a", "x/2023/0501/a", "x/2023/05/01/a", "x/2023/05/a", "x/2023_05/01/a",
    "m.guancha.cn/politics/2019_09_09_517162.shtml",  # ours: YYYY_MM_DD
])
def test_each_date_shape_is_found(path: str) -> None:
    assert has_valid_date(path)


@pytest.mark.parametrize("path", [
    "x/2023-13-45/a", "x/20231345.html", "x/2023/13/30/a", "x/2023-13/a", "x/1234-56/a",
    "x/item/123456789012", "x/2023.05.01/a", "x/2023_13_01/a",
])
def test_invalid_or_unlisted_dates_are_rejected(path: str) -> None:
    assert not has_valid_date(path)


def test_an_invalid_match_does_not_hide_a_later_valid_one() -> None:
    assert has_valid_date("x/2023-13-45/2023-05-01")


def test_url_feature_values() -> None:
    features = url_features("https://bbs.example.com.cn/forum/viewthread.php?tid=7")
    assert features["url_depth"] == 3  # host / forum / viewthread… : two slashes + 1
    assert features["url_host_dots"] == 3
    assert features["url_has_date"] == 0
    assert features["url_kw_forum"] == 4  # bbs, forum, viewthread, tid
    assert features["url_kwscore_forum"] == pytest.approx(1.0)  # every level holds one
    assert features["url_kw_news"] == 0


def test_keyword_score_weighs_deeper_levels_more() -> None:
    shallow = keyword_score(["news.site.com", "a", "b"], ("news",))
    deep = keyword_score(["site.com", "a", "news"], ("news",))
    assert shallow == pytest.approx(1 / 6)
    assert deep == pytest.approx(3 / 6)
    assert keyword_score(["news", "news"], ("news",)) == pytest.approx(1.0)


def test_no_url_gives_no_url_features() -> None:
    assert url_features(None) == {}


def test_leaf_shape_features() -> None:
    index = url_features("http://127.0.0.1:8000/news/china/")
    item = url_features("https://example.com/news/2023/05/01/10004.html")
    slug = url_features("https://example.com/blog/why-you-should-salt-the-water.html")
    assert (index["url_index_leaf"], index["url_digit_share"]) == (1.0, 0.0)  # host digits ignored
    assert url_features("https://example.com/news/list_2.html")["url_index_leaf"] == 1.0
    assert item["url_index_leaf"] == 0.0 and item["url_leaf_digits"] > 1.5
    assert slug["url_leaf_words"] > index["url_leaf_words"]


def test_only_requested_url_features_are_computed() -> None:
    features = url_features("https://example.com/news/2023/05/01/10004.html",
                            ["url_has_date", "url_kw_news"])
    assert features["url_has_date"] == 1.0 and features["url_kw_news"] == 1.0
    assert "url_kwscore_news" not in features and "url_leaf_digits" not in features
    assert url_features("https://example.com/a", ["url_depth"]).keys() == {
        "url_depth", "url_host_dots", "url_has_query"}  # the free ones always come


# A forum thread's or a post's later page: `?page=2` pages the item, not a list, so the
# pagination rule leaves it to the classifier.
@pytest.mark.parametrize("url", [
    "https://forum.example.org/t/blue-screen-after-update/4567?page=2",
    "https://forum.example.org/forum/topic/blue-screen-after-update?page=2",
    "https://www.example.cn/news/2023/05/88231.html?page=2",
    "https://blog.example.org/?p=123&page=2",
    # View scripts that carry the list's page into each article link (Korean news CMSs).
    "http://www.example.co.kr/news/news_view.html?idx=8576&page=1&bc=03&find=",
    "http://www.example.co.kr/news/articleView.html?idxno=12345&page=2",
    "http://www.example.kr/bbs/read.php?table=free&no=77&page=3",
])
def test_a_page_number_on_an_item_view_is_no_pager(url: str) -> None:
    assert names_one_item(url)
    assert match_rule(url) is None


@pytest.mark.parametrize("url", [
    "https://forum.example.org/forums/general-discussion?page=2",
    "https://forum.example.org/forums/12345?page=2",
    "https://www.example.org/category/news-and-views/?page=2",
    "https://www.example.org/news?page=2",
    "https://www.example.org/posts/9/?page=2",
    "https://www.example.org/search?q=a-long-query&page=2",
    "https://www.example.org/blog/2023/05/a-long-post/page/2/",
    "http://www.example.de/product-featured.php?page=2",
    # A view script whose query names no record: a page number or a category is no id.
    "http://www.example.kr/news/view.php?section=sports&page=2",
    "http://www.example.kr/board_view.php?pageno=3&page=3",
    "http://www.example.kr/list_view.php?cat_id=4&page=2",
])
def test_a_listing_stays_paged(url: str) -> None:
    assert match_rule(url) == ("list", "rule:pagination")
