"""Turn kept content subtrees into paragraph text and into clean, structure-preserving HTML.

Both renderings walk the original tree without changing it: what the extractor
dropped (boilerplate inside the content, excluded template blocks) is skipped
by identity, so the shared tree stays intact for other stages.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import lxml.html
from lxml import etree

from pipelines.clean import NOT_PAGE_TEXT
from pipelines.safe_html import sanitise

# Elements that start a new paragraph in rendered text.
BLOCK_TAGS = frozenset({
    "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "h1", "h2",
    "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr", "td", "th",
    "blockquote", "pre", "figure", "figcaption", "br", "hr", "address", "center", "form",
    "fieldset", "tbody", "thead", "tfoot", "caption", "details", "summary",
})
_BREAK = object()


def _pieces(
    element: lxml.html.HtmlElement, drop: Collection[lxml.html.HtmlElement], out: list
) -> None:
    """Append the text pieces and paragraph breaks of one subtree to `out`, in reading order.

    An iterative walk that appends to one list: a generator per subtree (and per child
    list) cost more than the text it moved, and recursion would fail on the deepest trees
    (huge_tree parses nest 2000 levels). Each open element keeps its child iterator, whether
    it is a block and its tail, which follows its subtree.
    """
    block = element.tag in BLOCK_TAGS
    if block:
        out.append(_BREAK)
    text = element.text  # read once: lxml copies it on every read
    if text:
        out.append(text)
    stack = [(iter(element), block, None)]
    while stack:
        children, block, tail = stack[-1]
        for child in children:
            # Rendered children with their tags (read once: lxml builds a new string on every
            # read); dropped and invisible children and comments only lend their tails.
            tag = child.tag
            if isinstance(tag, str) and tag not in NOT_PAGE_TEXT and child not in drop:
                inner = tag in BLOCK_TAGS
                if inner:
                    out.append(_BREAK)
                text = child.text
                if text:
                    out.append(text)
                if len(child):
                    stack.append((iter(child), inner, child.tail))
                    break
                # A childless element (most are) is closed at once, its tail read below,
                # without an iterator and a frame of its own.
                if inner:
                    out.append(_BREAK)
            text = child.tail
            if text:
                out.append(text)
        else:
            stack.pop()
            if block:
                out.append(_BREAK)
            if tail:
                out.append(tail)


def paragraphs(
    elements: Iterable[lxml.html.HtmlElement], drop: Collection[lxml.html.HtmlElement] = ()
) -> list[str]:
    """Whitespace-normalised paragraphs of the given subtrees."""
    pieces: list = []
    for element in elements:
        _pieces(element, drop, pieces)
        pieces.append(_BREAK)
    found: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if piece is not _BREAK:
            current.append(piece)
        elif current:  # split/join: runs of whitespace to one space, ends stripped, no regex
            text = " ".join("".join(current).split())
            if text:
                found.append(text)
            current = []
    return found


def to_text(
    elements: Iterable[lxml.html.HtmlElement], drop: Collection[lxml.html.HtmlElement] = ()
) -> str:
    """Paragraphs separated by blank lines."""
    return "\n\n".join(paragraphs(elements, drop))


def _copy(
    element: lxml.html.HtmlElement, drop: Collection[lxml.html.HtmlElement]
) -> lxml.html.HtmlElement:
    """A copy of one subtree without its dropped children, comments and invisible elements.

    libxml2 copies the whole subtree and strips what is not kept; Python touches only the
    dropped elements; building the copy element by element (SubElement, text and tail moved
    one by one) costs more (see docs/DECISIONS.md, 'Article route speed').
    """
    copy = element.__copy__()  # deep, as lxml copies; copy.deepcopy's memo cost more than it
    for twin in reversed(_dropped_copies(element, copy, drop)):  # the last first
        twin.drop_tree()  # its tail joins the text before it, as rendering reads it
    # Comments and invisible elements go too; with_tail=False leaves their tails in place.
    etree.strip_elements(copy, etree.Comment, etree.ProcessingInstruction, etree.Entity,
                         *NOT_PAGE_TEXT, with_tail=False)
    # A browser's parser (the sanitiser's) drops the newline that opens a <pre>, which
    # libxml2 keeps as text: one more keeps the block's first line break as the page has it.
    for block in copy.iter("pre"):
        if block.text and block.text.startswith("\n"):
            block.text = "\n" + block.text
    return copy


def _dropped_copies(
    element: lxml.html.HtmlElement, copy: lxml.html.HtmlElement,
    drop: Collection[lxml.html.HtmlElement],
) -> list[lxml.html.HtmlElement]:
    """The copies of the dropped elements below `element`, in document order: the copy has
    the same shape, so an element's child-index path finds its copy. Each parent's children
    are listed once (lxml finds the n-th child by walking to it, and a parent's index() of
    a child by walking too: quadratic in a parent of thousands of dropped children)."""
    positions: dict[lxml.html.HtmlElement, dict[lxml.html.HtmlElement, int]] = {}
    children: dict[lxml.html.HtmlElement, list[lxml.html.HtmlElement]] = {}
    twins = []
    for node in element.iterdescendants() if drop else ():
        if node in drop:
            path = []
            while node is not element:
                parent = node.getparent()
                if parent not in positions:
                    positions[parent] = {child: i for i, child in enumerate(parent)}
                path.append(positions[parent][node])
                node = parent
            twin = copy
            for index in reversed(path):
                if twin not in children:
                    children[twin] = list(twin)
                twin = children[twin][index]
            twins.append(twin)
    return twins


def to_html(
    elements: Iterable[lxml.html.HtmlElement], drop: Collection[lxml.html.HtmlElement] = ()
) -> str:
    """Kept subtrees serialised one after another, structure preserved, sanitised
    (pipelines/safe_html.py): safe to show."""
    parts = []
    for element in elements:
        copy = _copy(element, drop)
        copy.tail = None
        # etree's own: lxml.html.tostring also searches the output for a <meta http-equiv>
        # to cut, which the copy never holds (meta is not page text and text is escaped)
        parts.append(etree.tostring(copy, method="html", encoding="unicode"))
    return sanitise("\n".join(parts))
