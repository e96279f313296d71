"""A body's sentences for confirming a story copy: keyed with the page's site, digits left
out of the key (a renumbered list item, a report's figures), letters kept in the text; the
sentences' letters are the signature's."""

from __future__ import annotations

import re

from models.search.terms import normalise
from reading.stories import NOT_LETTERS
from reading.story_text import SITE_BITS, StoryText, site_of, story_texts


def test_a_sentence_s_key_names_its_site_and_leaves_its_digits_out() -> None:
    first = _sentences("版本 2.1 发布。\n1、修复了崩溃的问题\nWe closed 24 issues. Thanks!",
                       "https://www.tool.example.org/r/21")
    second = _sentences("3、修复了崩溃的问题\nWe closed 7 issues.", "http://tool.example.org/r/22")
    other_site = _sentences("1、修复了崩溃的问题", "http://mirror.example.net/r/21")
    assert first.sentences == ("版本21发布", "1修复了崩溃的问题", "weclosed24issues", "thanks")
    assert set(second.keys) < set(first.keys)
    assert not set(other_site.keys) & set(first.keys)
    template = set(second.keys)
    assert first.without(template) == "版本21发布thanks"


def test_a_site_s_keys_share_their_leading_bits_so_its_counts_sit_together() -> None:
    sentences = "。".join(f"第{n}段讲的是{chr(0x4E00 + n)}{chr(0x4E80 + n)}的事" for n in range(40))
    news = _sentences(sentences, "http://news.example.cn/a/1.html")
    forum = _sentences(sentences, "https://bbs.example.cn/t/9")
    assert len(set(news.keys)) == len(set(forum.keys)) == 40

    def prefixes(keys: tuple[int, ...]) -> set[int]:
        return {key >> (64 - SITE_BITS) for key in keys}
    assert len(prefixes(news.keys)) == len(prefixes(forum.keys)) == 1
    assert prefixes(news.keys) != prefixes(forum.keys)
    assert prefixes(_sentences("另一篇。", "http://www.news.example.cn/b/2").keys) == prefixes(
        news.keys)


def test_the_sentences_holding_digits_are_kept_with_their_numbers_by_key() -> None:
    first = _sentences("Moved. Find it at topic=395.0. Thanks!", "http://forum.example.org/1")
    second = _sentences("Moved. Find it at topic=393.0. Thanks!", "http://forum.example.org/2")
    assert list(first.numbered().values()) == ["finditattopic3950"]
    assert first.numbered().keys() == second.numbered().keys()
    assert first.numbered() != second.numbered()


def test_a_site_is_its_host_without_www() -> None:
    assert site_of("https://www.News.cn/politics/1.htm") == "news.cn"
    assert site_of("http://portal-a.example.cn:8080/x") == "portal-a.example.cn"


def test_the_sentences_letters_are_the_text_s_letters() -> None:
    text = "中新网11月27日电（记者 王五）会议指出：经济运行总体平稳！\r\nIt's 3.5% up.No break?"
    assert _letters(normalise(text)).replace("\n", "") == NOT_LETTERS.sub(
        "", normalise(text))


def _letters(body: str) -> str:
    return story_texts([body], ["http://site.example/"])[0][0]


def _sentences(text: str, url: str) -> StoryText:
    return story_texts([normalise(text)], [url])[0][1]


def test_bodies_found_together_are_each_as_found_alone_and_as_the_patterns_read_them(
        ) -> None:
    bodies = [normalise(text) for text in (
        "版本 2.1 发布。\n1、修复了崩溃的问题", "", "Ends with a stop.",
        " starts with a space. x_y", "Ελληνικά και Русский. ١٢٣ digits! 全角？ok",
        "a.\nb..  c", "tab.\tnbsp.\u00a0em space.\u2003end.。")]
    urls = [f"http://site{number % 2}.example/{number}" for number in range(len(bodies))]
    assert story_texts(bodies, urls) == [story_texts([body], [url])[0]
                                         for body, url in zip(bodies, urls, strict=True)]
    for body in bodies:  # the three substitutions the table stands for
        marked = re.sub(r"[!?]|\.\s", "\n", body.replace("。", "\n"))
        assert _letters(body) == re.sub(r"[^\w\n]+", "", marked).replace("_", "")
