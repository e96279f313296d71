"""The blocks near the headline where bylines and dates live, read once for both: the
byline reader and the publish-date chooser take the same list."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType

import lxml.html

from pipelines.article.body.density import NodeStats
from pipelines.article.markup import Markup
from pipelines.lexicon import (
    BYLINE_CLASS,
    BYLINE_CLASS_LOWER,
    BYLINE_CLASS_WORDS,
    COMMENT_CLASS,
    DATE_CLASS,
)
from pipelines.page_text import clean, hint_test, is_inside, text_of
from pipelines.params import PAGE_BLOCKS, PageBlockParams

_BYLINE_TAGS = frozenset({"span", "div", "p", "a", "time", "li", "em", "strong", "address",
                          "small", "font", "td", "b", "i", "cite"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_ROW_TAGS = _BYLINE_TAGS | _HEADINGS
_NOTHING_COUNTED: Mapping = MappingProxyType({})


class Block:
    """One element near the headline where bylines and dates live.

    Its text is read on first use: most pages declare their author and date, and then few
    blocks are ever read (reading text was the costliest step of metadata). `counted`, the
    density pass's counters, tells the long blocks (see _read).
    """

    __slots__ = ("element", "since_title", "hint", "shut", "named", "_counted", "_params",
                 "_marked",
                 "_text", "_head")

    def __init__(self, element: lxml.html.HtmlElement, since_title: int, hint: str,
                 shut: bool, named: bool = False,
                 counted: Mapping[lxml.html.HtmlElement, NodeStats] = _NOTHING_COUNTED,
                 params: PageBlockParams = PAGE_BLOCKS) -> None:
        self.element = element
        self.since_title = since_title  # 1 = the first block after the headline, < 0 above it
        self.hint = hint  # class and id words
        self.shut = shut  # inside a removed block: read only as a marked byline, never a date
        self.named = named  # the class and id words name a byline
        self._counted = counted
        self._params = params
        self._marked: bool | None = None
        self._head: str | None | bool = False  # False until the text is read

    @property
    def text(self) -> str | None:
        """The cleaned text; None when empty or longer than `max_byline_chars`."""
        if self._head is False:
            self._read()
        return self._text

    @property
    def head(self) -> str | None:
        """The start of a longer text, where a byline or dateline runs on."""
        if self._head is False:
            self._read()
        return self._head

    @property
    def marked(self) -> bool:
        """Named as a byline by class/id, rel=author or microdata (itemprop=author: the page's
        own byline, when the declared author is only the publisher)."""
        if self._marked is None:
            element = self.element
            # bytes names: lxml encodes a str name on every get
            self._marked = (self.named or element.get(b"rel") == "author"
                            or "author" in (element.get(b"itemprop") or "").split())
        return self._marked

    def _read(self) -> None:
        """Text and head. An element with more counted characters than `max_raw_chars` is not
        read: long blocks (the article's containers) are few of the blocks read and most of
        the characters."""
        counted, params = self._counted.get(self.element), self._params
        if counted is not None and counted.chars > params.max_raw_chars:
            self._text = self._head = None
            return
        raw = text_of(self.element)  # a long text is not cleaned: that is costly
        text = clean(raw) if len(raw) <= params.max_raw_chars else None
        self._text = text if text and len(text) <= params.max_byline_chars else None
        self._head = None if self._text or not text else text[:params.max_byline_chars]


_names_byline = hint_test(BYLINE_CLASS)
names_date = hint_test(DATE_CLASS)
_names_comment = hint_test(COMMENT_CLASS)


def _rows(markup: Markup, removed: Collection, named: set[str]) -> tuple[list[tuple], set]:
    """(rows, shut): the markup table's rows of byline-tag elements and headings outside
    `removed` subtrees and forms, and of marked bylines inside removed blocks other than
    comment sections (an article footer's "Posted by"), in document order; `shut` holds the
    latter's elements; `named` holds the class strings that name a byline. A form that holds
    the <h1> wraps the whole page (ASP.NET) and stays open."""
    rows, found, shut, start = markup.rows, [], set(), 0
    for first, end, root in _closed(markup, removed):  # the open stretch, then the block
        found += [row for row in rows[start:first] if row[2] in _ROW_TAGS]
        marked = [row for row in rows[first:end] if named and row[4] in named
                  and row[2] in _BYLINE_TAGS and not _in_comment(row[0], root, markup)]
        found += marked
        shut.update(row[0] for row in marked)
        start = end
    return found + [row for row in rows[start:] if row[2] in _ROW_TAGS], shut


def _byline_hints(hints: set[str]) -> set[str]:
    """The class strings among `hints` that name a byline. A page's strings are mostly new to
    the cache, so they are searched together: joined with NUL (which no attribute holds) and,
    where ASCII (on which lower() and re.I agree), lower-cased, so that plain substring tests
    can first tell that none does (most pages)."""
    order = list(hints)
    joined = "\0".join(order)
    if joined.isascii():
        pattern, text = BYLINE_CLASS_LOWER, joined.lower()
        if not any(word in text for word in BYLINE_CLASS_WORDS):
            return set()
    else:
        pattern, text = BYLINE_CLASS, joined
    return {order[text.count("\0", 0, match.start())] for match in pattern.finditer(text)}


def _closed(markup: Markup, removed: Collection) -> list[tuple[int, int, lxml.html.HtmlElement]]:
    """(first row, row after the subtree, block) of the outermost removed blocks and forms
    under <body>, in document order: the rows between them are open, taken whole instead of
    asking of every row whether an ancestor is closed."""
    forms = [form for form in markup.body.iter("form") if form.find(".//h1") is None]
    starts = sorted(((at, block) for block in (*removed, *forms)
                     if (at := markup.position(block)) is not None), key=lambda item: item[0])
    closed: list[tuple[int, int, lxml.html.HtmlElement]] = []
    for first, block in starts:
        if not closed or first >= closed[-1][1]:  # not inside the previous block
            closed.append((first, markup.span(block)[1] + 1, block))
    return closed


def _in_comment(element: lxml.html.HtmlElement, root: lxml.html.HtmlElement,
                markup: Markup) -> bool:
    """Whether `element` lies in a comment section within the removed block `root` (class
    words read off the table: reading attributes again cost more than the rest of _rows)."""
    node = element
    while node is not None:
        if _names_comment(markup.words(node)):
            return True
        if node is root:
            return False
        node = node.getparent()
    return False


def _headline_at(rows: list[tuple], title: str | None) -> int | None:
    """Index of the first heading that holds the title, else of the first <h1> (a page may
    put "Quicklinks" in an <h1> and the headline in an <h2>)."""
    headings = [i for i, row in enumerate(rows) if row[2] in _HEADINGS]
    held = (i for i in headings if title and is_inside(title, text_of(rows[i][0])))
    return next(held, next((i for i in headings if rows[i][2] == "h1"), None))


def _named_heading(tag: str, hint: str) -> bool:
    """A heading below <h1> named as a byline or date (<h5 class="field--name-author">): a
    block, as byline-tag elements are."""
    return tag != "h1" and (_names_byline(hint) or names_date(hint))


def page_blocks(markup: Markup, removed: Collection, title: str | None = None,
                counted: Mapping[lxml.html.HtmlElement, NodeStats] | None = None,
                params: PageBlockParams = PAGE_BLOCKS) -> list[Block]:
    """Byline-tag blocks in windows around the headline, read once for byline and date:
    `blocks_before_title` before it and `blocks_after_title` after it, else the first
    `blocks_after_title` of the page (a block above the headline, or any without one, has
    a negative `since_title`). Menus and teaser lists far from the headline carry other
    articles' names and dates. `counted`: the density pass's counters, which tell the long
    blocks that need no reading."""
    named = _byline_hints(set(markup.named))  # every row's non-empty class/id words
    rows, shut = _rows(markup, removed, named)
    at = _headline_at(rows, title)
    start = 0 if at is None else max(0, at - params.blocks_before_title)
    stop = (0 if at is None else at + 1) + params.blocks_after_title
    counted = counted or _NOTHING_COUNTED
    no_headline = -(params.blocks_before_title + 1)  # then every block counts as above it
    return [Block(row[0], no_headline if at is None else index - at, row[4], row[0] in shut,
                  row[4] in named, counted, params)
            for index, row in enumerate(rows[start:stop], start)
            if row[2] not in _HEADINGS or _named_heading(row[2], row[4])]
