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

# Elements that start a new paragraph in rendered text.
BLOCK_TAGS = frozenset({
    "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "h1", "h2",
    "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr", "td", "th",
    "blockquote", "pre", "figure", "figcaption", "br", "hr", "address", "center", "form",
    "fieldset", "tbody", "thead", "tfoot", "caption", "details", "summary",
})
# Attributes worth keeping in content_html; everything else (on*, style, class…) is dropped.
_SAFE_ATTRIBUTES = ("href", "src", "alt", "title", "colspan", "rowspan", "datetime", "lang")
_BREAK = object()


def _kept_tag(child: etree._Element, drop: Collection[lxml.html.HtmlElement]) -> str | None:
    """The tag of a child that is rendered, None for dropped and invisible children (and
    comments), which only lend their tail. Returned so that the walk asks lxml for each tag
    once: lxml builds a new string on every read."""
    tag = child.tag
    return tag if isinstance(tag, str) and tag not in NOT_PAGE_TEXT and child not in drop \
        else None


def _pieces(
    element: lxml.html.HtmlElement, drop: Collection[lxml.html.HtmlElement], out: list
) -> None:
    """Append the text pieces and paragraph breaks of one subtree to `out`, in reading order.

    An iterative walk that appends to one list: a generator per subtree (and per child
    list) cost more than the text it moved.
    """
    stack: list[object] = [(element, element.tag)]  # (element, tag), text pieces and breaks
    while stack:
        item = stack.pop()
        if item.__class__ is not tuple:
            out.append(item)
            continue
        node, tag = item
        block = tag in BLOCK_TAGS
        if block:
            out.append(_BREAK)
        text = node.text  # read once: lxml copies it on every read
        if text:
            out.append(text)
        after: list[object] = []  # children with their tails, then the block's closing break
        for child in node:
            tag = _kept_tag(child, drop)
            if tag is not None:
                after.append((child, tag))
            if child.tail:
                after.append(child.tail)
        if block:
            after.append(_BREAK)
        stack.extend(reversed(after))


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
    """A clean copy of one subtree: safe attributes only, dropped children left out."""
    root = lxml.html.Element(element.tag)
    stack = [(element, root)]
    while stack:
        source, target = stack.pop()
        present = source.keys()  # most elements have no attribute: one call tells
        for name in _SAFE_ATTRIBUTES if present else ():
            value = source.get(name) if name in present else None
            if value is not None and not value.lower().startswith("javascript:"):
                target.set(name, value)
        target.text = source.text
        last = None
        for child in source:
            tag = _kept_tag(child, drop)
            if tag is not None:
                last = etree.SubElement(target, tag)
                last.tail = child.tail
                stack.append((child, last))
            elif child.tail:
                _append_text(target, last, child.tail)
    return root


def _append_text(parent: etree._Element, last: etree._Element | None, text: str) -> None:
    if last is None:
        parent.text = (parent.text or "") + text
    else:
        last.tail = (last.tail or "") + text


def to_html(
    elements: Iterable[lxml.html.HtmlElement], drop: Collection[lxml.html.HtmlElement] = ()
) -> str:
    """Kept subtrees serialised one after another, structure preserved, no scripts or handlers."""
    parts = []
    for element in elements:
        copy = _copy(element, drop)
        copy.tail = None
        parts.append(lxml.html.tostring(copy, encoding="unicode"))
    return "\n".join(parts)
