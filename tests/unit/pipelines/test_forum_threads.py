"""Forum threads in five themes' markup (forum_themes.py): the opening post is the body, its
poster the author and its time the publish time; the other posts are the comments, each
with its poster and time; a thread without replies keeps its lone post as the body."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pipelines.article import extract_article
from pipelines.document import load_document
from pipelines.process import extract
from pipelines.results import ArticleData, PageTypeDecision
from tests.unit.pipelines.forum_themes import (
    MINUTES,
    OPENING,
    OPENING_ZH,
    REPLIERS,
    REPLIERS_ZH,
    REPLIES,
    REPLIES_ZH,
    STARTER,
    THEMES,
    thread,
)

NOW = datetime(2023, 6, 1, tzinfo=UTC)


def _read(theme: str, replies: int, forum: bool = True) -> ArticleData:
    page = thread(theme, replies)
    return extract_article(load_document(page.encode(), url=f"https://forum.example.org/{theme}",
                                         fetched_at=NOW), forum=forum)


def _texts(theme: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    chinese = THEMES[theme][2]
    return ((OPENING_ZH, REPLIERS_ZH, REPLIES_ZH) if chinese else (OPENING, REPLIERS, REPLIES))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_opening_post_is_the_body_and_the_replies_are_comments(theme: str) -> None:
    opening, repliers, replies = _texts(theme)
    art = _read(theme, replies=3)
    assert opening in art.content_text
    assert not any(reply in art.content_text for reply in replies)
    assert art.author == STARTER
    assert (art.published_at.day, art.published_at.hour, art.published_at.minute) == (
        31 if theme != "discuz" else 6, 10, MINUTES[0])
    assert [c.author for c in art.comments] == list(repliers)
    assert all(reply in comment.text for reply, comment in zip(replies, art.comments,
                                                                strict=True))
    assert [c.published_at.minute for c in art.comments] == list(MINUTES[1:])


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_thread_without_replies_keeps_its_post_as_the_body(theme: str) -> None:
    """No repeated post group: on a page typed forum the lone post after the headline is
    the opening post, its header out of the body."""
    opening, _, _ = _texts(theme)
    art = _read(theme, replies=0)
    assert opening in art.content_text
    assert art.author == STARTER
    assert art.comments == []


def test_a_lone_post_leaves_the_thread_header_out_of_the_body() -> None:
    """A thread without replies under its headline and a 'Started by' stats line written
    over indented source lines: the body is the post alone, not the headline, the stats
    line and the post's header (they were, before the lone post counted)."""
    post = (f'<article class="post" id="msg516"><div class="post-head"><span class="post-author">'
            f'{STARTER}</span> <span class="post-date">2008-01-02 21:58 UTC</span></div>'
            f'<div class="post-body">Only two weeks left to submit your logo.<br></div></article>')
    page = f"""<html><body><header><a href="/">Forums Archive</a></header><main>
    <p class="breadcrumbs"><a href="/">Boards</a> / <a href="/boards/6.html">Show and Tell</a></p>
    <h1>Reminder</h1>
    <p class="meta">Started by {STARTER} ·
      2008-01-02 21:58 UTC ·
      0 replies · topic #131</p>
    {post}</main><footer>Generated from the forum's database dump.</footer></body></html>"""
    doc = load_document(page.encode(), url="https://forum.example.org/topics/131.html",
                        fetched_at=NOW)
    art = extract_article(doc, forum=True)
    assert art.content_text == "Only two weeks left to submit your logo."
    assert art.author == STARTER and art.comments == []
    assert "Started by" in extract_article(doc).content_text  # not typed forum: the page


def test_a_short_opening_post_is_the_body_not_its_wrapper() -> None:
    """An opening post of one word ("Thanks!") is too short to outweigh its wrapper in the
    density search: the body is still the post, not the headline and stats line beside it."""
    posts = "".join(
        f'<article class="post" id="m{i}"><div class="post-head"><span class="post-author">'
        f'{name}</span> <span class="post-date">2010-05-19 0{i}:22 UTC</span></div>'
        f'<div class="post-body">{text}</div></article>'
        for i, (name, text) in enumerate([(STARTER, "Thanks!")] + list(zip(REPLIERS, REPLIES,
                                                                          strict=True))))
    page = f"""<html><body><main><h1>Will the current version work on AutoCAD 2011?</h1>
    <p class="meta">Started by {STARTER} · 2010-05-19 00:22 UTC · 3 replies</p>{posts}</main>
    </body></html>"""
    art = extract_article(load_document(page.encode(), url="https://forum.example.org/t/1",
                                        fetched_at=NOW))
    assert art.content_text == "Thanks!"
    assert [c.author for c in art.comments] == list(REPLIERS)


def test_the_page_route_reads_a_lone_post_on_a_page_typed_forum() -> None:
    """The route tells the article stage the page is a forum thread: the type decides."""
    doc = load_document(thread("vbulletin", replies=0).encode(),
                        url="https://forum.example.org/showthread.php?t=345", fetched_at=NOW)
    as_forum = extract(doc, PageTypeDecision("forum", 1.0, "forced")).article
    as_news = extract(doc, PageTypeDecision("news", 1.0, "forced")).article
    assert as_forum is not None and as_news is not None
    assert (as_forum.content_text, as_forum.author) == (OPENING, STARTER)
    assert as_news.author is None  # no byline on the page: the poster is the post's


LATER_PAGES = {  # each theme's page 2, and the first page its pager links back to
    "phpbb": ("https://forum.example.org/viewtopic.php?t=17&start=10",
              "https://forum.example.org/viewtopic.php?t=17&start=0"),
    "discuz": ("https://forum.example.org/thread-8812-2-1.html",
               "https://forum.example.org/thread-8812-1-1.html"),
    "vbulletin": ("https://forum.example.org/showthread.php?t=345&page=2",
                  "https://forum.example.org/showthread.php?t=345&page=1"),
    "discourse": ("https://forum.example.org/t/linking-a-slider/345?page=2",
                  "https://forum.example.org/t/linking-a-slider/345"),
    "smf": ("https://forum.example.org/index.php?topic=345.10",
            "https://forum.example.org/index.php?topic=345.0"),
}


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_later_page_of_a_thread_holds_replies_only(theme: str) -> None:
    """Page 2 of a thread starts with a reply, not the opening post: every post there is a
    comment, the page has no body, author or time of its own, and it names the thread's
    first page (the store adds its posts to that page's article)."""
    _, repliers, replies = _texts(theme)
    url, first = LATER_PAGES[theme]
    doc = load_document(thread(theme, replies=3, page=2).encode(), url=url, fetched_at=NOW)
    art = extract(doc, PageTypeDecision("forum", 1.0, "forced")).article
    assert art is not None
    assert (art.content_text, art.content_html, art.author, art.published_at) == ("", "", None,
                                                                                  None)
    assert [c.author for c in art.comments] == list(repliers)
    assert all(reply in comment.text for reply, comment in zip(replies, art.comments,
                                                                strict=True))
    assert (art.thread_url, art.thread_page) == (first, 2)
    assert ("西山" if THEMES[theme][2] else "slider") in (art.title or "")


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_first_page_names_no_thread_of_its_own(theme: str) -> None:
    url, first = LATER_PAGES[theme]
    doc = load_document(thread(theme, replies=3).encode(), url=first, fetched_at=NOW)
    art = extract(doc, PageTypeDecision("forum", 1.0, "forced")).article
    assert art is not None and art.thread_url is None and art.content_text


def test_a_previous_topic_link_is_no_earlier_page() -> None:
    """`/t/6.html` from `/t/7.html` is one number lower, but "Previous topic" is no pager."""
    page = thread("vbulletin", replies=3).replace(
        '<div id="footer">', '<a href="/t/6.html">Previous topic</a><div id="footer">')
    doc = load_document(page.encode(), url="https://forum.example.org/t/7.html", fetched_at=NOW)
    assert extract(doc, PageTypeDecision("forum", 1.0, "forced")).article.thread_url is None


def test_a_thread_s_later_page_is_typed_by_the_thread_rule_not_pagination() -> None:
    from pipelines.pagetype.rules import match_rule

    assert match_rule("https://forum.example.org/showthread.php?t=345&page=2") == (
        "forum", "rule:forum_thread")
    assert match_rule("https://forum.example.org/forumdisplay.php?f=2&page=2")[0] == "list"
