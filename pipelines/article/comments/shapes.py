"""Repeated shapes: same-tag siblings whose class words agree once numbers and odd/even
alternation are left out, the raw material of comment lists and forum threads."""

from __future__ import annotations

import re
from functools import lru_cache
from operator import itemgetter

import lxml.html

from pipelines.article.markup import Markup, hint_words
from pipelines.lexicon import (
    ALTERNATING_CLASS_WORDS,
    COMMENT_AUTHOR_CLASS,
    PROFILE_LINK,
    REPLY_SUBJECT,
)
from pipelines.page_text import text_of
from pipelines.params import ARTICLE_PARTS, COMMENTS, ArticlePartsParams, CommentParams

_WORD_CHARS = re.compile(r"\w+")
_ELEMENT, _CLASSES = itemgetter(0), itemgetter(3)  # of a Markup row
_DIGITS = re.compile(r"\d+")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def signature(element: lxml.html.HtmlElement) -> tuple[str, str]:
    """Shape of an element: tag and class words, numbers and odd/even alternation removed."""
    classes = element.get("class")
    return element.tag, _shape_words(classes) if classes else ""


@lru_cache(maxsize=8192)
def _shape_words(classes: str) -> str:
    """Cached: every element of a list repeats the same class string. Still, a page brings
    some 60 new ones, so the usual string (no alternation word in it, told by three tests
    on the whole string) skips the test per word, and ASCII digits go by bytes.translate
    (the regex took twice as long)."""
    if classes.isascii():
        classes = classes.encode().translate(None, b"0123456789").decode()
    else:
        classes = _DIGITS.sub("", classes)
    words = classes.split()
    lowered = classes.lower()
    if "author" in lowered or "thread-" in lowered or not ALTERNATING_CLASS_WORDS.isdisjoint(
            lowered.split()):
        words = [w for w in words if not _alternating(w.lower())]
    return " ".join(sorted(words))


def _alternating(word: str) -> bool:
    """odd/even, first/last, thread-N, *author*…: words that differ between items of one list."""
    return word in ALTERNATING_CLASS_WORDS or "author" in word or (
        word.startswith("thread-") and _WORD_CHARS.fullmatch(word, 7) is not None)


def repeated_groups(markup: Markup,
                    params: CommentParams = COMMENTS) -> list[list[lxml.html.HtmlElement]]:
    """Groups of same-shape siblings under <body>, two members or more, in document order.

    Only same-tag siblings can repeat a shape. Their shapes are mapped in C (cached) and
    counted: one shape is one group, all different none, and only the rest are sorted out
    member by member (a class test first and a loop over the members of every group with
    two class strings costs more).
    """
    found = []
    for rows in markup.siblings.values():
        if len(rows) < params.min_repeats:
            continue
        shapes = list(map(_shape_words, map(_CLASSES, rows)))
        distinct = len(set(shapes))
        if distinct == 1:
            found.append(list(map(_ELEMENT, rows)))
        elif distinct < len(shapes):
            alike: dict[str, list] = {}
            for row, shape in zip(rows, shapes, strict=True):
                alike.setdefault(shape, []).append(row[0])
            found += [members for members in alike.values() if len(members) >= params.min_repeats]
    found.sort(key=lambda members: markup.position(members[0]))
    return found


def list_entries(members: list[lxml.html.HtmlElement],
                 params: ArticlePartsParams = ARTICLE_PARTS) -> bool:
    """Whether a group is the entries of a list or digest (a blog's home, a tag page), not a
    thread's posts or comments: (nearly) every member heads itself with a headline that links
    to another page. A forum's posts are untitled or titled as replies ("Re: …"), a heading
    that names the poster (class words of an author or user) is no title, and comments carry
    no headline."""
    entries = sum(_titled(member) for member in members)
    return entries >= max(params.min_repeats, params.min_entry_share * len(members))


def _titled(member: lxml.html.HtmlElement) -> bool:
    """The member's first headline that links to another page is a title, not a poster's
    name (named so, or a link to the poster's profile) nor a reply's subject."""
    for heading in member.iter(*_HEADINGS):
        for link in heading.iter("a"):
            href = (link.get("href") or "").partition("#")[0].strip()
            if href:
                named = f"{hint_words(heading)} {hint_words(link)}".lower()
                return (COMMENT_AUTHOR_CLASS.search(named) is None
                        and PROFILE_LINK.search(href) is None
                        and REPLY_SUBJECT.match(text_of(link)) is None)
    return False
