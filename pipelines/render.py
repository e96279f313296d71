"""Turn kept content subtrees into paragraph text and into clean, structure-preserving HTML.

Both renderings walk the original tree without changing it: what the extractor
dropped (boilerplate inside the content, excluded template blocks) is skipped
by identity, so the shared tree stays intact for other stages.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator

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
_SPACE = re.compile(r"\s+")
_BREAK = object()


def _kept_children(
    element: lxml.html.HtmlElement, drop: Collection[lxml.html.HtmlElement]
) -> Iterator[tuple[lxml.html.HtmlElement, bool]]:
    """(child, kept) for every child: dropped and invisible children only lend their tail."""
    for child in element:
        kept = isinstance(child.tag, str) and child.tag not in NOT_PAGE_TEXT and child not in drop
        yield child, kept


def _pieces(
    element: lxml.html.HtmlElement, drop: Collection[lxml.html.HtmlElement]
) -> Iterator[object]:
    """Text pieces and paragraph breaks of one subtree, in reading order (iterative walk)."""
    stack: list[object] = [element]
    while stack:
        item = stack.pop()
        if not isinstance(item, etree._Element):
            yield item
            continue
        block = item.tag in BLOCK_TAGS
        if block:
            yield _BREAK
        yield item.text or ""
        tail_stack: list[object] = [_BREAK] if block else []
        for child, kept in _kept_children(item, drop):
            if kept:
                tail_stack.append(child)
            tail_stack.append(child.tail or "")
        stack.extend(reversed(tail_stack))


def paragraphs(
    elements: Iterable[lxml.html.HtmlElement], drop: Collection[lxml.html.HtmlElement] = ()
) -> list[str]:
    """Whitespace-normalised paragraphs of the given subtrees."""
    found: list[str] = []
    current: list[str] = []
    for element in elements:
        for piece in [*_pieces(element, drop), _BREAK]:
            if piece is _BREAK:
                text = _SPACE.sub(" ", "".join(current)).strip()
                if text:
                    found.append(text)
                current = []
            else:
                current.append(piece)  # type: ignore[arg-type]
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
        for name in _SAFE_ATTRIBUTES:
            if source.get(name) is not None and not source.get(name).lower().startswith(
                "javascript:"
            ):
                target.set(name, source.get(name))
        target.text = source.text
        last = None
        for child, kept in _kept_children(source, drop):
            if kept:
                last = etree.SubElement(target, child.tag)
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
