"""Find the list's next-page link: rel=next, a "next" label, or the page-number sequence.

Explicit signals are trusted first (rel=next, then link text such as 下一页 / Next / »),
because page-number bars are the most varied; the number after the current page is the
fallback.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

from lxml.html import HtmlElement

from pipelines.document import join_url
from pipelines.lexicon import CURRENT_PAGE_CLASSES, NEXT_PAGE_CLASS, NEXT_PAGE_LABEL
from pipelines.params import RECORD_MINING, RecordMiningParams

_NEXT_TEXT = re.compile(f"^(?:{NEXT_PAGE_LABEL})$", re.I)
_NEXT_CLASS = re.compile(NEXT_PAGE_CLASS, re.I)
_CURRENT_CLASS = re.compile(
    r"(?:^|[\s_-])(?:" + "|".join(CURRENT_PAGE_CLASSES) + r")(?:$|[\s_-])", re.I)


def _usable(href: str | None, page_url: str | None) -> str | None:
    """Absolute link target, or None for script links, anchors and the page itself."""
    href = (href or "").strip()
    if not href or href.startswith(("javascript:", "#", "mailto:")):
        return None
    absolute = join_url(page_url or "", href)
    if absolute is None:  # a link no URL parser reads
        return None
    if page_url and urldefrag(absolute)[0] == urldefrag(page_url)[0]:
        return None
    return absolute


def _label(anchor: HtmlElement) -> str:
    text = " ".join(anchor.text_content().split())
    return text or (anchor.get("title") or anchor.get("aria-label") or "").strip()


def _by_rel(root: HtmlElement, page_url: str | None) -> str | None:
    for element in root.iter("link", "a"):
        if "next" in (element.get("rel") or "").lower().split():
            url = _usable(element.get("href"), page_url)
            if url:
                return url
    return None


def _by_label(root: HtmlElement, page_url: str | None,
              params: RecordMiningParams) -> str | None:
    for anchor in root.iter("a"):
        label = _label(anchor)
        classes = f"{anchor.get('class', '')} {anchor.getparent().get('class', '')}"
        short = len(label) < params.max_next_label_chars
        if _NEXT_TEXT.match(label) or (_NEXT_CLASS.search(classes) and short):
            url = _usable(anchor.get("href"), page_url)
            if url:
                return url
    return None


def _current_number(element: HtmlElement) -> int | None:
    """The page number an element shows as current: a bold/unlinked or 'current' number."""
    text = " ".join(element.text_content().split()).strip("[]")
    if not text.isdigit():
        return None
    marked = _CURRENT_CLASS.search(f"{element.get('class', '')} {element.get('id', '')}")
    unlinked = element.tag != "a" or not element.get("href")
    return int(text) if marked or (unlinked and element.find(".//a") is None) else None


def _pager_blocks(root: HtmlElement) -> list[HtmlElement]:
    """Elements holding numbered links (a <li> wrapper counts as its list), in page order."""
    blocks: list[HtmlElement] = []
    for anchor in root.iter("a"):
        block = anchor.getparent()
        if block is not None and block.tag == "li":
            block = block.getparent()
        if block is not None and block not in blocks and _label(anchor).isdigit():
            blocks.append(block)
    return blocks


def _by_number(root: HtmlElement, page_url: str | None) -> str | None:
    """The link numbered one more than the current page, in the same pager block."""
    for block in _pager_blocks(root):
        numbers = {n for n in map(_current_number, block.iter()) if n is not None}
        for number in sorted(numbers):
            for other in block.iter("a"):
                if _label(other) == str(number + 1):
                    url = _usable(other.get("href"), page_url)
                    if url:
                        return url
    return None


def find_next_page(root: HtmlElement, page_url: str | None,
                   params: RecordMiningParams = RECORD_MINING) -> str | None:
    """The absolute URL of the next page of this list, or None."""
    return (_by_rel(root, page_url) or _by_label(root, page_url, params)
            or _by_number(root, page_url))
