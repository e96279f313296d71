"""Repeated shapes: same-tag siblings whose class words agree once numbers and odd/even
alternation are left out, the raw material of comment lists and forum threads."""

from __future__ import annotations

import re
from functools import lru_cache
from operator import itemgetter

import lxml.html

from pipelines.article.markup import Markup
from pipelines.lexicon import ALTERNATING_CLASS_WORDS
from pipelines.params import COMMENTS, CommentParams

_WORD_CHARS = re.compile(r"\w+")
_ELEMENT, _CLASSES = itemgetter(0), itemgetter(3)  # of a Markup row
_DIGITS = re.compile(r"\d+")


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
