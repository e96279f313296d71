"""Forum threads: repeated dated post blocks holding most of the page's text (or right
after its headline); the first post is the body, the others are replies."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from itertools import islice

import lxml.html

from pipelines.article.body import render
from pipelines.article.comments.items import opening_post
from pipelines.article.comments.shapes import list_entries
from pipelines.article.dates.parse import find_date
from pipelines.article.markup import Markup
from pipelines.lexicon import POST_CLASS, REPLY_SUBJECT
from pipelines.page_text import opening_text, text_of
from pipelines.params import ARTICLE_PARTS, THREADS, ArticlePartsParams, ThreadParams

# The HTML elements that may hold a whole post.
_HTML_BLOCKS = frozenset({"div", "article", "section", "table", "tbody", "tr", "dl", "ul", "li",
                          "td", "p", "blockquote", "pre", "figure", "ol", "fieldset", "form",
                          "main", "aside", "header", "footer", "center", "font"})
_NOT_POSTS = frozenset({"p", "br", "a", "span", "img", "li", "option", "td", "strong", "em",
                        # parts of an article between its paragraphs: lists, code, quotes
                        "ul", "ol", "dl", "pre", "blockquote", "figure"})


def _post_like(member: lxml.html.HtmlElement, now: datetime,
               params: ThreadParams = THREADS) -> bool:
    """A forum post: enough text, mostly not links, and a date near its start."""
    text = text_of(member)
    if len(text.strip()) < params.min_post_chars or _record(member):
        return False
    links = sum(len(text_of(a)) for a in member.iter("a") if not _subject(a))
    return links < params.max_post_link_share * len(text) and find_date(opening_text(member,
                                                                                     params.post_date_chars),
                                                                  now) is not None


def _subject(link: lxml.html.HtmlElement) -> bool:
    """A reply's subject line ("Re: …" over a phpBB or SMF post, a permalink), no link text
    of the post's own."""
    return REPLY_SUBJECT.match(text_of(link)) is not None


def _may_be_posts(member: lxml.html.HtmlElement) -> bool:
    """A post is an HTML block: not inline, not a part of an article (unless its markup
    names it a post: vBulletin's <li class="postcontainer">), and not an element no HTML
    page has (a feed's <item> or <entry>, read as a page, is no forum post)."""
    tag = member.tag
    return tag in _HTML_BLOCKS and (tag not in _NOT_POSTS or POST_CLASS.search(
        f"{member.get('class', '')} {member.get('id', '')}") is not None)


def _record(member: lxml.html.HtmlElement, params: ArticlePartsParams = ARTICLE_PARTS) -> bool:
    """A row of a data table (a schedule, a changelog: date, time, place, title), every cell
    a short field; a post's row holds its message in one cell."""
    cells = [cell for cell in member if cell.tag in ("td", "th")] if member.tag == "tr" else []
    return bool(cells) and all(len(text_of(cell).strip()) <= params.max_field_chars
                               for cell in cells)


def find_posts(markup: Markup, now: datetime, groups: list[list],
               params: ThreadParams = THREADS) -> list[lxml.html.HtmlElement]:
    """The posts of a forum thread: repeated dated blocks holding most of the page's text,
    not the titled entries of a list or digest (a blog's home read as an article).

    `groups` are the page's `repeated_groups(markup)`.
    """
    wanted = params.min_thread_share * len(markup.text())
    candidates = _big_enough(markup, groups, wanted)
    # When every candidate is tried, those that cannot be posts push none out of the top:
    # they go unmeasured (often the article's paragraphs).
    if len(candidates) <= params.max_post_groups:
        candidates = [members for members in candidates if _may_be_posts(members[0])]
    sized = sorted(((sum(len(text_of(m)) for m in g), g) for g in candidates),
                   key=lambda pair: -pair[0])
    for chars, members in sized[:params.max_post_groups]:
        if not _may_be_posts(members[0]):
            continue
        posts = _without_trailer(members, params=params)
        thread = chars >= wanted or _follows_headline(markup, posts[0], params=params)
        if thread and all(_post_like(m, now, params=params) for m in posts) \
                and not list_entries(posts):
            return posts
    return []


def _without_trailer(members: list[lxml.html.HtmlElement],
                     params: ThreadParams = THREADS) -> list[lxml.html.HtmlElement]:
    """The members without the one after the last post when it holds less text than any
    post: the pager of Discourse's no-JS view, an empty reply box, sharing the posts'
    shape (a page's footer beside its header and content columns is no such trailer)."""
    if len(members) > params.min_posts \
            and len(text_of(members[-1]).strip()) < params.min_post_chars:
        return members[:-1]
    return members


def _follows_headline(markup: Markup, first: lxml.html.HtmlElement,
                      params: ThreadParams = THREADS) -> bool:
    """Whether `first` stands right after the page's <h1>, only a stats or byline line
    between: a short thread's opening post (one reply holds too little of a page with
    menus and footers for the share test), where a news page has its article text."""
    return any(element is first for element in _after_headline(markup, params=params))


def _after_headline(markup: Markup,
                    params: ThreadParams = THREADS) -> Iterator[lxml.html.HtmlElement]:
    """The elements that start after the page's <h1> in document order, up to the first
    long text: what may open the thread, a stats or byline line before it."""
    headline, end = markup.headline() or (None, None)
    if headline is None:
        return
    chars = _visible_chars(headline.tail)
    for row in islice(markup.rows, end + 1, None):
        element = row[0]
        yield element
        chars += _visible_chars(element.text) + _visible_chars(element.tail)
        if chars > params.max_headline_gap_chars:
            return


def lone_post(markup: Markup, now: datetime,
              params: ThreadParams = THREADS) -> lxml.html.HtmlElement | None:
    """The opening post of a thread without replies, on a page typed forum: no repeated
    group then, so the post is the first dated post-shaped block right after the <h1>,
    that names its poster (an author the markup names) and says more than its header."""
    for element in _after_headline(markup, params=params):
        if _may_be_posts(element) and _post_like(element, now, params=params):
            opening = opening_post(element, now, markup)
            said = render.to_text([element], opening.chrome)
            return element if opening.author and len(said) >= params.min_post_chars else None
    return None


def _visible_chars(text: str | None) -> int:
    """The characters a browser shows of `text`: a run of whitespace is one space (a stats
    line written over three indented source lines is no longer than on one)."""
    return len(" ".join((text or "").split()))


def _big_enough(markup: Markup, groups: list[list], wanted: float) -> list[list]:
    """The groups whose parent holds at least `wanted` characters: the others can neither be
    the thread nor outrank it, and measuring one parent is cheaper than all its members.

    Parents are measured deepest first (backwards in document order): an element holds all
    the text of its descendants, so once one parent is big enough its ancestors are too,
    unmeasured; the big ancestors (the page's wrappers) were the dearest to serialise.
    <body> holds its own text, twice `wanted`.
    """
    parents = {members[0].getparent() for members in groups}
    big = {markup.body}
    for parent in sorted(parents - big, key=markup.position, reverse=True):
        if parent not in big and len(text_of(parent)) >= wanted:
            big.add(parent)
            big.update(parent.iterancestors())
    return [members for members in groups if members[0].getparent() in big]
