"""The article route: body, metadata and comments of one news, blog or forum page.

Stages share the one parsed tree and never change it: blocks to leave out (template
blocks from the template diff, named furniture, comment sections) are passed down as a set
of removed subtrees.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.article.body import density, render
from pipelines.article.body.headline_header import headline_headers
from pipelines.article.boilerplate import find_noise
from pipelines.article.comments import (
    OpeningPost,
    comment_anchor,
    find_posts,
    find_sections,
    lone_post,
    opening_post,
    parse_item,
    parse_section,
    repeated_groups,
)
from pipelines.article.dates.cn_fields import field_lines, has_cn_labels
from pipelines.article.dates.publish import posted_date
from pipelines.article.dates.zones import local_now, localise
from pipelines.article.markup import Markup, read_markup
from pipelines.article.metadata import extract_metadata, prose_text
from pipelines.collector import collector_paused
from pipelines.deadline import NO_DEADLINE, Deadline
from pipelines.document import Document
from pipelines.params import DENSITY, DensityParams
from pipelines.results import ArticleData, CommentData


def _comments(sections: list, replies: list, now: datetime, groups: list,
              markup: Markup, zone: ZoneInfo | None, deadline: Deadline) -> list[CommentData]:
    """Forum replies first (they follow the first post), then comment sections; their
    times on the page's clock, as the article's."""
    now = local_now(now, zone)
    found = []
    for post in replies:
        deadline.check("forum replies")
        found.append(parse_item(post, set(), now, markup))
    for section in sections:
        deadline.check("comments")
        found += parse_section(section, now, groups, markup)
    kept = [c for c in found if c is not None]
    for comment in kept:
        comment.published_at = localise(comment.published_at, zone)
    return kept


def _body(doc: Document, removed: set, posts: list, opening: OpeningPost | None,
          params: DensityParams, markup: Markup, headers: set) -> density.DensityResult:
    """The density frame's content. A thread's body is its opening post without its chrome
    (its header line, a short post's densest block, was the body's first line), so density
    looks nowhere else (the title, stats and reply box around a short post outweighed it),
    while the metadata looks everywhere; where the post holds no content (a group of dated
    blocks that only head the text), the whole page. A post's headline header (`headers`)
    is never the content's root: a short post's header outweighed its text."""
    if posts and opening:
        found = density.extract(doc.body, removed | _around(posts[0]) | opening.chrome, params,
                                markup, headers)
        if found.content:
            return _within(found, posts[0])
    return density.extract(doc.body, removed, params, markup, headers)


def _within(found: density.DensityResult,
            post: lxml.html.HtmlElement) -> density.DensityResult:
    """`found`, sought in the opening post alone, with a content root that holds the post
    (the densest node, when a short post, "Thanks!", does not outweigh its wrapper) read
    as the post: the wrapper's headline and stats line beside the post are no body."""
    if any(root in post.iterancestors() for root in found.content):
        return replace(found, content=[post])
    return found


def _author(byline: str | None, opening: OpeningPost | None, forum: bool) -> str | None:
    """On a page typed forum, the opening post's poster before any byline-like line (phpBB's
    post header "Post by NAME » Tue Jan 31" read as a byline); elsewhere the byline first
    (a news page whose reader comments were taken for a thread names its author in it)."""
    poster = opening.author if opening else None
    return (poster or byline) if forum else (byline or poster)


def _around(element: lxml.html.HtmlElement) -> set[lxml.html.HtmlElement]:
    """Everything on the page beside `element` and its ancestors: the siblings along its path."""
    beside: set[lxml.html.HtmlElement] = set()
    for node in (element, *element.iterancestors()):
        beside.update(node.itersiblings(preceding=True))
        beside.update(node.itersiblings())
    return beside


def _read_lines(found: density.DensityResult, removed: set, markup: Markup,
                opening: OpeningPost | None) -> set[lxml.html.HtmlElement]:
    """What the metadata reads inside the body, which is not the article: byline, date and
    breadcrumb lines, a thread's post header and its starter's cell."""
    lines = (field_lines(found.content, found.stats, removed) if has_cn_labels(markup.text())
             else set())
    return (lines | (opening.chrome if opening else set())) - removed


def extract_article(
    doc: Document,
    exclude: Collection[lxml.html.HtmlElement] = (),
    params: DensityParams = DENSITY,
    deadline: Deadline = NO_DEADLINE,
    forum: bool = False,
    later_page: bool = False,
) -> ArticleData:
    """Body (text and clean HTML), metadata and comments, without a second parse. `forum`:
    the page was typed a forum thread, so a lone post is its opening post (lone_post).
    `later_page`: the page is a thread's later page (thread_pages.thread_first_page), whose
    posts are all replies: comments, no body, no author or time of its own.
    Raises OutOfTimeError when the deadline passes, checked between stages."""
    with collector_paused():  # the route keeps its objects to the page's end
        return _extract(doc, exclude, params, deadline, forum, later_page)


def _replies_only(doc: Document, posts: list, groups: list, markup: Markup,
                  deadline: Deadline) -> ArticleData:
    """A thread's later page: every post a reply, the title and language the page's (the
    replies' prose tells the language), no body."""
    prose = render.to_text(posts, set())
    meta = extract_metadata(doc.tree, doc.body, doc.url, doc.fetched_at, "", set(posts),
                            markup, None, doc.zone, prose)
    return ArticleData(title=meta.title, source=meta.source, language=meta.language,
                       comments=_comments([], posts, doc.fetched_at, groups, markup, meta.zone,
                                          deadline))


def _extract(doc: Document, exclude: Collection[lxml.html.HtmlElement],
             params: DensityParams, deadline: Deadline, forum: bool,
             later_page: bool = False) -> ArticleData:
    # The markup table also holds every element, which keeps its lxml proxy alive: later
    # walks reuse it instead of building a new one (a Python class lookup) on every visit.
    markup = read_markup(doc.body)
    removed = set(exclude)
    deadline.check("article markup")
    groups = repeated_groups(markup)
    posts = find_posts(markup, doc.fetched_at, groups)  # forum: 1st post is the body
    lone = lone_post(markup, doc.fetched_at) if forum and not posts else None
    posts = posts or ([lone] if lone is not None else [])
    if later_page and posts:
        return _replies_only(doc, posts, groups, markup, deadline)
    replies = posts[1:]
    removed |= set(replies)
    deadline.check("forum posts")
    sections = find_sections(markup, removed | set(posts[:1]), doc.fetched_at, groups)
    removed |= set(sections)
    deadline.check("comment sections")
    removed |= set(find_noise(markup))
    deadline.check("boilerplate")
    opening = opening_post(posts[0], doc.fetched_at, markup) if posts else None
    headers = headline_headers(markup) - removed
    found = _body(doc, removed, posts, opening, params, markup, headers)
    removed |= found.dropped
    deadline.check("article body")
    # the metadata reads byline lines, the headline's header and a thread's post header; the
    # body leaves them out
    read = _read_lines(found, removed, markup, opening) | headers
    text = render.to_text(found.content, removed | read)
    deadline.check("body text")
    meta = extract_metadata(doc.tree, doc.body, doc.url, doc.fetched_at, text, removed, markup,
                            found.stats, doc.zone, prose_text(found.content, removed | read, text))
    removed |= read
    deadline.check("metadata")
    # a thread names its time in the opening post, seldom in a byline line
    by_post = (posted_date(opening.raw if opening else None, doc.fetched_at, meta.zone)
               if not meta.published_at else None)
    return ArticleData(
        title=meta.title, source=meta.source,
        author=_author(meta.author, opening, forum),
        published_at=by_post[0] if by_post else meta.published_at,
        published_raw=by_post[1] if by_post else meta.published_raw,
        language=meta.language, content_text=text,
        content_html=render.to_html(found.content, removed),
        comments=_comments(sections, replies, doc.fetched_at, groups, markup, meta.zone,
                           deadline),
        post_anchor=comment_anchor(posts[0]) if posts else None,
    )
