"""A comment's identity: its own handle on the page, else its author, time and text."""

from __future__ import annotations

import lxml.html

from pipelines import comment_keys
from pipelines.article.comments import comment_anchor


def _item(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fragment_fromstring(html)


def test_the_page_s_own_handle_is_the_anchor_and_a_section_name_is_not() -> None:
    assert comment_anchor(_item('<li id="comment-123"><p>好</p></li>')) == "id=comment-123"
    assert comment_anchor(_item('<div data-pid="9" id="x-1"><p>好</p></div>')) == "data-pid=9"
    assert comment_anchor(_item('<div><a name="pid77"></a><p>好</p></div>')) == "name=pid77"
    assert comment_anchor(_item('<div id="comments"><p>好</p></div>')) is None
    assert comment_anchor(_item("<div><p>好</p></div>")) is None


def test_an_anchored_comment_keeps_its_key_when_edited_or_moved() -> None:
    first = comment_keys([{"anchor": "id=c1", "text": "原文"}, {"anchor": "id=c2", "text": "二"}])
    later = comment_keys([{"anchor": "id=c2", "text": "二"}, {"anchor": "id=c1", "text": "改了"}])
    assert later == first[::-1]


def test_without_an_anchor_author_time_and_normalised_text_decide() -> None:
    said = {"author": "网友", "published_at": "2026-11-20T10:00:00+08:00", "text": "同意 楼上"}
    [key] = comment_keys([said])
    assert comment_keys([{**said, "text": " 同意\n楼上 "}]) == [key]  # whitespace only
    assert comment_keys([{**said, "author": "别人"}]) != [key]
    assert comment_keys([{**said, "text": "不同意"}]) != [key]


def test_the_same_comment_twice_on_a_page_gets_two_keys() -> None:
    plus_one = {"author": "网友", "text": "+1"}
    keys = comment_keys([plus_one, {"author": "网友", "text": "别的"}, plus_one])
    assert len(set(keys)) == 3 and keys[2] == keys[0] + "#2"
    assert all(len(key) <= 200 for key in keys + comment_keys([{"anchor": "x" * 900}]))
