"""The page index: every element under <body> read once, in document order, with what its
markup names (tag, class and id words, role, itemprop), and the position tests built on it.

Boilerplate, comments, metadata and density all read the page through this one table
instead of each walking the tree and reading attributes again.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import count, repeat
from operator import attrgetter, itemgetter

import lxml.html
from lxml import etree

from pipelines.page_text import text_of

_CAMEL = re.compile(r"([a-z])(?=[A-Z])")  # not a lookbehind: that is tried at every position


def hint_words(element: lxml.html.HtmlElement) -> str:
    """Class and id of `element` as one space-separated, camelCase-split string."""
    classes, ident = element.get("class"), element.get("id")
    if not classes and not ident:
        return ""
    return _split_hint(f"{classes or ''} {ident or ''}")


@lru_cache(maxsize=8192)
def _split_hint(raw: str) -> str:
    """Cached: a site repeats the same few class strings on every page and element (one
    string argument: the cache's fast path, without a key object per call)."""
    if raw == " ":  # neither class nor id (read_markup asks for every element)
        return ""
    return raw if raw.islower() else _CAMEL.sub(_spaced, raw)


def _spaced(match: re.Match) -> str:
    """The letter before a capital, and a space. A function, not the template r"\\1 ": on
    Python 3.11 a template costs a helper call per sub() and a template expansion in
    Python per match."""
    return match[1] + " "


@dataclass
class Markup:
    """Every element under <body> read once, in document order, with what its markup names.

    The stages that go by markup (furniture, comment sections, repeated shapes) share
    it instead of each walking the tree and reading attributes again.
    """

    body: lxml.html.HtmlElement
    # (element, parent, tag, class attribute or "", hint_words, role or None) per element
    rows: list[tuple[lxml.html.HtmlElement, lxml.html.HtmlElement, str, str, str, str | None]]
    # elements declared as the article body (itemprop=articleBody), read in the same walk
    article_bodies: list[lxml.html.HtmlElement] = field(default_factory=list)
    # rows of same-tag siblings by (parent, tag), in document order: the raw material of
    # repeated shapes (comment lists, forum posts), gathered in the same walk
    siblings: dict[tuple, list[tuple]] = field(default_factory=dict)
    # rows by their (non-empty) hint words, and the role of each element that has one: a
    # page repeats a few class strings on most of its elements, so searches by name ask
    # once per string instead of once per row
    named: dict[str, list[tuple]] = field(default_factory=dict)
    roles: dict[lxml.html.HtmlElement, str] = field(default_factory=dict)
    # elements declared itemprop=author (comment authors), read in the same walk
    authors: set[lxml.html.HtmlElement] = field(default_factory=set)
    _holders: dict[tuple[str, ...], set] = field(default_factory=dict, repr=False)
    # the document-order index of an element under <body>, None for any other element: the
    # index's own dict.get, so that each of the page's thousand-odd asks is a call in C
    # (a method that built the index on first use cost more)
    position: Callable[[lxml.html.HtmlElement], int | None] = field(init=False, repr=False)
    _names: tuple[list[str], list[str], str] | None = field(default=None, repr=False)
    _text: str | None = field(default=None, repr=False)
    _holds: dict[tuple[str, ...], bool] = field(default_factory=dict, repr=False)
    _headline: tuple[lxml.html.HtmlElement, int] | None | bool = field(default=False,
                                                                        repr=False)

    def __post_init__(self) -> None:
        # built in C: a comprehension cost a tenth of the table
        self.position = dict(zip(map(itemgetter(0), self.rows), count())).get

    def words(self, element: lxml.html.HtmlElement) -> str:
        """hint_words of an element, read off the table when it is under <body>."""
        at = self.position(element)
        return self.rows[at][4] if at is not None else hint_words(element)

    def span(self, element: lxml.html.HtmlElement) -> tuple[int, int] | None:
        """First and last document-order index of an element's subtree under <body>.

        The subtree ends before the next element after it: the next sibling of the element
        or of its nearest ancestor that has one (most have: one step), where walking down
        to its last descendant took a step per level."""
        first = self.position(element)
        if first is None:
            return None
        node = element
        while node is not self.body:
            after = node.getnext()
            while after is not None and not isinstance(after.tag, str):  # a comment, a PI
                after = after.getnext()
            if after is not None:
                return first, self.position(after) - 1
            node = node.getparent()
        return first, len(self.rows) - 1

    def rows_below(self, element: lxml.html.HtmlElement,
                   skipped: Collection[lxml.html.HtmlElement] = ()) -> list[tuple] | None:
        """The rows of an element's descendants in document order, the subtrees of `skipped`
        elements left out: slices of the table instead of a walk (None for an element not
        under <body>)."""
        span = self.span(element)
        if span is None:
            return None
        first, last = span
        starts = sorted(at for at in map(self.position, skipped)
                        if at is not None and first < at <= last)
        rows, at = [], first + 1
        for start in starts:
            if start >= at:  # not inside a subtree left out already: find where it ends
                rows += self.rows[at:start]
                at = self.span(self.rows[start][0])[1] + 1
        return rows + self.rows[at:last + 1]

    def holds_any(self, words: tuple[str, ...]) -> bool:
        """Whether the page's text holds any of `words`: asked once a page (a test on the
        whole text for every comment of a long thread cost more than the comments)."""
        if words not in self._holds:
            self._holds[words] = any(word in self.text() for word in words)
        return self._holds[words]

    def text(self) -> str:
        """The whole text under <body>, built once: the forum test and the Chinese-label test
        both read it."""
        if self._text is None:
            self._text = text_of(self.body)
        return self._text

    def headline(self) -> tuple[lxml.html.HtmlElement, int] | None:
        """The page's first <h1> and the last row of its subtree, found once (the forum
        test asks for each group it weighs)."""
        if self._headline is False:
            h1 = self.body.find(".//h1")
            span = self.span(h1) if h1 is not None else None
            self._headline = (h1, span[1]) if span else None
        return self._headline

    def names(self) -> tuple[list[str], list[str], str]:
        """The keys of `named`, the same lowercased, and those joined into one text: " "
        before each and " \\0 " between them (no attribute value holds a NUL: libxml2's
        strings end at one). Built once a page for the searches by name (names_where)."""
        if self._names is None:
            names = list(self.named)
            lowered = list(map(str.lower, names))
            self._names = names, lowered, " " + " \0 ".join(lowered)
        return self._names

    def names_where(self, pattern: re.Pattern) -> list[str]:
        """The keys of `named` in whose lowercased words, after a space, `pattern` finds a
        match. `pattern` must start with a separator and match only word characters after
        it, so that no match runs from one name into the next.

        One search over all the page's names joined: a page brings a few hundred class
        strings that no cache has seen, and a cached call and a search per string cost more.
        """
        names, _, text = self.names()
        found = []
        index = last = 0
        match = pattern.search(text)
        while match is not None:
            at = match.start()
            index += text.count("\0", last, at)
            found.append(names[index])
            last = text.find("\0", at)  # this name is found: go on with the next
            match = pattern.search(text, last) if last >= 0 else None
        return found

    def names_holding(self, parts: Iterable[str]) -> list[tuple[str, str]]:
        """(key, lowercased words) of the keys of `named` whose lowercased words hold one of
        `parts` (strings without spaces or NULs), in page order: str.find over all the
        page's names joined, in C, instead of a test per name (some 160 a page)."""
        names, lowered, text = self.names()
        found = set()
        for part in parts:
            index = last = 0
            at = text.find(part)
            while at >= 0:
                index += text.count("\0", last, at)
                found.add(index)
                last = text.find("\0", at)  # this name holds it: go on with the next
                at = text.find(part, last) if last >= 0 else -1
        return [(names[index], lowered[index]) for index in sorted(found)]

    def holders(self, *tags: str) -> set[lxml.html.HtmlElement]:
        """The elements that have, somewhere below them, an element of one of `tags` or a
        declared article body.

        Asking "does this block hold the headline?" of every candidate block searched its
        whole subtree each time; one upward walk from each of the few marks answers all.
        (An XPath scan for the itemprop attribute cost as much as the walk itself, so the
        declared bodies are collected by read_markup.)
        """
        found = self._holders.get(tags)
        if found is None:
            found = set()
            for mark in [*self.body.iter(*tags), *self.article_bodies]:
                for ancestor in mark.iterancestors():
                    if ancestor in found:
                        break
                    found.add(ancestor)
            self._holders[tags] = found
        return found


# The sparse attributes (few elements have a role or itemprop), collected by libxml2: a get
# per element and attribute (lxml copies the name and the value each time) cost about twice
# as much. The id is read per element with the class, in C (see read_markup).
_SPARSE = etree.XPath("descendant::*/@role | descendant::*/@itemprop")
# Element methods and attributes, for map() over all of a page's elements in C.
_PARENT, _GET, _TAG = etree.ElementBase.getparent, etree.ElementBase.get, attrgetter("tag")


def read_markup(body: lxml.html.HtmlElement) -> Markup:
    """One walk under `body` filling a Markup.

    Each column of the table (parents, tags, class and id attributes, hint words, roles) is
    read for all elements at once by map() in C and the rows zipped from the columns; only
    the grouping into `siblings` and `named` is a Python loop (reading element by element in
    that loop costs more: see docs/DECISIONS.md, 'Article route speed').
    """
    roles, article_bodies, authors = {}, [], set()
    for value in _SPARSE(body):  # in document order
        if value.attrname == "role":
            roles[value.getparent()] = str(value)
        elif value == "articleBody":
            article_bodies.append(value.getparent())
        elif value == "author":
            authors.add(value.getparent())
    elements = list(body.iterdescendants(etree.Element))
    # bytes names: lxml encodes a str name on every call (a sixth of the get)
    classes = list(map(_GET, elements, repeat(b"class"), repeat("")))
    idents = map(_GET, elements, repeat(b"id"), repeat(""))
    raw = map(" ".join, zip(classes, idents, strict=True))
    # most pages have no role at all
    page_roles = map(roles.get, elements) if roles else repeat(None, len(elements))
    rows = list(zip(elements, map(_PARENT, elements), map(_TAG, elements), classes,
                    map(_split_hint, raw), page_roles, strict=True))
    siblings: dict[tuple, list] = {}
    named: dict[str, list] = {}
    for row in rows:
        # most (parent, tag) keys are new: a get and a store hashed the key tuple twice
        siblings.setdefault((row[1], row[2]), []).append(row)
        if words := row[4]:
            alike = named.get(words)
            if alike is None:
                named[words] = [row]
            else:
                alike.append(row)
    return Markup(body, rows, article_bodies, siblings, named=named, roles=roles,
                  authors=authors)


def named_rows(markup: Markup, names: Iterable[str],
               tags: Collection[str] = ()) -> list[tuple]:
    """Rows named by one of `names` (keys of `markup.named`), except rows of `tags`, in
    document order."""
    found = [row for words in names for row in markup.named[words] if row[2] not in tags]
    return sorted(found, key=lambda row: markup.position(row[0]))


class Coverage:
    """Blocks of a page as intervals of document positions.

    "Is this element inside one of those blocks?" becomes a binary search instead of a
    walk up the element's ancestors, asked for hundreds of elements per page.
    """

    def __init__(self, markup: Markup, blocks: Iterable[lxml.html.HtmlElement] = ()) -> None:
        self.markup = markup
        self._starts: list[int] = []
        self._ends: list[int] = []
        for block in blocks:
            self.add(block)

    def add(self, block: lxml.html.HtmlElement) -> None:
        """Cover a block's subtree; elements outside <body> are ignored."""
        span = self.markup.span(block)
        if span is None:
            return
        start, end = span
        at = bisect_right(self._starts, start)
        if at and self._ends[at - 1] >= end:
            return  # inside a covered block already
        upto = at  # subtrees are nested or disjoint: covered blocks inside this one merge into it
        while upto < len(self._starts) and self._starts[upto] <= end:
            upto += 1
        self._starts[at:upto] = [start]
        self._ends[at:upto] = [end]

    def covers(self, element: lxml.html.HtmlElement) -> bool:
        """True when the element or one of its ancestors is a covered block."""
        position = self.markup.position(element)
        if position is None:
            return False
        at = bisect_right(self._starts, position)
        return at > 0 and self._ends[at - 1] >= position


def outermost(
    markup: Markup,
    candidates: Iterable[lxml.html.HtmlElement],
    wanted: Callable[[lxml.html.HtmlElement], bool],
    skip: Collection[lxml.html.HtmlElement] = (),
) -> list[lxml.html.HtmlElement]:
    """The `candidates` (document order) for which `wanted` holds, none inside another found
    one or inside `skip`; `wanted` is never asked inside either.

    In document order, a candidate inside a found block is inside the last one found: a
    position test, where the candidates are mostly inside one (every comment of a list is
    named as the list is)."""
    found: list[lxml.html.HtmlElement] = []
    closed = Coverage(markup, skip)
    end = -1  # the last position of the last found block
    for element in candidates:
        at = markup.position(element)
        if at is not None and at <= end or closed.covers(element) or not wanted(element):
            continue
        found.append(element)
        span = markup.span(element)
        end = span[1] if span else end
    return found
