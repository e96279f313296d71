"""Reader comments and forum replies: find their sections and split them into single comments.

A comment section is a block that markup names as one (comment, reply, respond,
discuss, 评论, 回复…). Inside it, comments are the most repeated element shape
(tag + class words, digits ignored) that carries text; each yields author, time
and text. Forum threads are the same shape at page scale: repeated post blocks,
each with a date and little link text; the first post is the body, the others
are replies. Nothing here changes the tree.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import datetime

import lxml.html

from pipelines import render
from pipelines.boilerplate import hint_words, outermost
from pipelines.dates import find_date
from pipelines.results import CommentData

_SECTION = re.compile(
    r"(?:^|[\s_\-])(?:comments?|commentlist|comment\w*list|respond|replies|discussion|disqus|"
    r"pinglun|huifu|talk|feedback|reactions)(?=$|[\s_\-\d])|评论|回复|留言", re.I)
_AUTHOR = re.compile(r"author|user|name|nick|poster|commenter|(?:^|\s)fn(?:\s|$)|作者|用户", re.I)
_TIME = re.compile(r"date|time|when|posted|meta|published|info", re.I)
_CHROME = re.compile(r"reply|meta|actions?|vote|like|report|share|avatar|footer|toolbar|"
                     r"quote-?btn|signature|sign", re.I)
_NEVER_SECTION = frozenset({"html", "body", "article", "main"})
_HOLDS_ARTICLE = ".//h1|.//*[@itemprop='articleBody']"
_DIGITS = re.compile(r"\d+")
MIN_COMMENT_CHARS = 2
MIN_POST_CHARS = 20
MAX_POST_LINK_SHARE = 0.3
MIN_THREAD_SHARE = 0.5  # the posts hold at least this share of the page's text
MAX_POST_GROUPS = 5
_NOT_POSTS = frozenset({"p", "br", "a", "span", "img", "li", "option", "td", "strong", "em"})
MAX_NAME_CHARS = 60


def is_section(element: lxml.html.HtmlElement) -> bool:
    """Named as a comment section, and not a block that holds the article itself."""
    return (element.tag not in _NEVER_SECTION and bool(_SECTION.search(hint_words(element)))
            and not element.xpath(_HOLDS_ARTICLE))


def find_sections(body: lxml.html.HtmlElement, removed: set) -> list[lxml.html.HtmlElement]:
    """Outermost comment sections outside the `removed` blocks."""
    return outermost(body, is_section, removed)


def signature(element: lxml.html.HtmlElement) -> tuple[str, str]:
    """Shape of an element: its tag and class words with numbers removed (ids differ per item)."""
    classes = " ".join(sorted(_DIGITS.sub("", element.get("class") or "").split()))
    return element.tag, classes


def repeated_groups(root: lxml.html.HtmlElement) -> list[list[lxml.html.HtmlElement]]:
    """Groups of same-shape siblings under `root`, two members or more, in document order."""
    groups: dict[tuple, list] = defaultdict(list)
    for element in root.iter():
        parent = element.getparent()
        if isinstance(element.tag, str) and parent is not None and element is not root:
            groups[(parent, signature(element))].append(element)
    return [members for members in groups.values() if len(members) >= 2]


def _items(section: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """The comment items of a section: the repeated shape that carries the most text."""
    best, best_chars = [], 0
    for members in repeated_groups(section):
        chars = sum(len(m.text_content().strip()) for m in members)
        if chars > best_chars and members[0].tag not in ("p", "br", "a", "span", "img"):
            best, best_chars = members, chars
    if not best:
        return []
    shape = signature(best[0])
    return [e for e in section.iter() if isinstance(e.tag, str) and signature(e) == shape]


def _first(item: lxml.html.HtmlElement, pattern: re.Pattern, nested: set):
    for element in item.iterdescendants():
        if not isinstance(element.tag, str) or element in nested:
            continue
        if any(a in nested for a in element.iterancestors()):
            continue
        if pattern.search(hint_words(element)) or element.get("itemprop") == "author":
            return element
    return None


def _author(item: lxml.html.HtmlElement, nested: set) -> lxml.html.HtmlElement | None:
    found = _first(item, _AUTHOR, nested)
    if found is None:
        found = next(iter(item.iter("cite")), None)
    if found is not None and len(found.text_content().strip()) <= MAX_NAME_CHARS:
        return found
    return None


def _time(item: lxml.html.HtmlElement, nested: set, now: datetime):
    """(element, datetime, raw): a <time> element first, then any element named as a date."""
    for element in [*item.iter("time"), _first(item, _TIME, nested)]:
        if element is None:
            continue
        for text in (element.get("datetime"), element.get("title"), element.text_content()):
            found = find_date(text or "", now)
            if found:
                return element, found[0], found[1]
    found = find_date(item.text_content()[:200], now)  # an unnamed date line near the top
    return (None, found[0], found[1]) if found else (None, None, None)


def parse_item(item: lxml.html.HtmlElement, nested: set, now: datetime) -> CommentData | None:
    """One comment: author, time, and the remaining text without the chrome around it."""
    author = _author(item, nested)
    stamp, when, raw = _time(item, nested, now)
    drop = set(nested) | {e for e in (author, stamp) if e is not None}
    drop |= {e for e in item.iterdescendants() if isinstance(e.tag, str)
             and _CHROME.search(hint_words(e)) and e.tag not in ("p", "blockquote")}
    text = render.to_text([item], drop)
    if len(text) < MIN_COMMENT_CHARS:
        return None
    name = " ".join(author.text_content().split()) if author is not None else None
    return CommentData(text=text, author=name or None, published_at=when, published_raw=raw)


def parse_section(section: lxml.html.HtmlElement, now: datetime) -> list[CommentData]:
    """All comments of one section, nested replies as comments of their own."""
    items = _items(section)
    found = []
    for item in items:
        nested = {e for e in items if e is not item and item in e.iterancestors()}
        comment = parse_item(item, nested, now)
        if comment:
            found.append(comment)
    return found


def _post_like(member: lxml.html.HtmlElement, now: datetime) -> bool:
    """A forum post: enough text, mostly not links, and a date near its start."""
    text = member.text_content()
    if len(text.strip()) < MIN_POST_CHARS:
        return False
    links = sum(len(a.text_content()) for a in member.iter("a"))
    return links < MAX_POST_LINK_SHARE * len(text) and find_date(text[:300], now) is not None


def find_posts(body: lxml.html.HtmlElement, now: datetime) -> list[lxml.html.HtmlElement]:
    """The posts of a forum thread: repeated dated blocks holding most of the page's text."""
    total = len(body.text_content())
    groups = sorted(repeated_groups(body),
                    key=lambda g: -sum(len(m.text_content()) for m in g))
    for members in groups[:MAX_POST_GROUPS]:
        if members[0].tag in _NOT_POSTS:
            continue
        chars = sum(len(m.text_content()) for m in members)
        if chars >= MIN_THREAD_SHARE * total and all(_post_like(m, now) for m in members):
            return members
    return []
