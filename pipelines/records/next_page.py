"""Find the list's next-page link: a link marked next or previous, or the page-number bar.

A link marked by its role (rel=next / prev, a label such as 下一页 / Next » / Older posts /
← Past, a next / prev class) is taken when the page numbers it leads to say it goes
forward, whatever its word: on a blog the older page is "previous" in the markup (Pelican's
`class="prev"` "← Past") but next in the list's order. Only where no numbers settle it
does the word decide. Without such a link, the number after the current page in the pager
is the fallback, unless the pager marks it as its last or first page (then the pager has
no next link on purpose). Links inside the list's records (a series box in an excerpt,
with its own rel=next or 下一篇) are never the list's pager.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from urllib.parse import urldefrag, urlsplit

from lxml.html import HtmlElement

from pipelines.document import join_url
from pipelines.lexicon import (
    CURRENT_PAGE_CLASSES,
    NEXT_PAGE_CLASS,
    NEXT_PAGE_LABEL,
    PAGER_END_LABEL,
    PREVIOUS_PAGE_CLASS,
    PREVIOUS_PAGE_LABEL,
)
from pipelines.params import RECORD_MINING, RecordMiningParams

_NEXT_TEXT = re.compile(f"^(?:{NEXT_PAGE_LABEL})$", re.I)
_PREVIOUS_TEXT = re.compile(f"^(?:{PREVIOUS_PAGE_LABEL})$", re.I)
_END_TEXT = re.compile(f"^(?:{PAGER_END_LABEL})$", re.I)
_NEXT_CLASS = re.compile(NEXT_PAGE_CLASS, re.I)
_PREVIOUS_CLASS = re.compile(PREVIOUS_PAGE_CLASS, re.I)
_CURRENT_CLASS = re.compile(
    r"(?:^|[\s_-])(?:" + "|".join(CURRENT_PAGE_CLASSES) + r")(?:$|[\s_-])", re.I)
_NUMBERS = re.compile(r"(\d+)")
FORWARD, BACKWARD = 1, -1


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


def _labels(anchor: HtmlElement) -> list[str]:
    """The visible text and the title / aria-label a pager writes its roles in."""
    return [label for label in (" ".join(anchor.text_content().split()),
                                (anchor.get("title") or "").strip(),
                                (anchor.get("aria-label") or "").strip()) if label]


def page_numbers(page_url: str, target: str) -> tuple[int, int] | None:
    """(this page's number, the target's) when the two URLs differ in one number only, or
    the target adds one number to this page's URL (this page is then page 1: `/` and
    `/page/2/`, `index.html` and `index2.html`), or the reverse."""
    def tokens(url: str) -> list[str]:
        parts = urlsplit(url)
        return _NUMBERS.split(parts.path + ("?" + parts.query if parts.query else ""))
    here, there = tokens(page_url), tokens(target)
    if len(here) == len(there):
        if any(a != b for a, b in zip(here[::2], there[::2], strict=True)):
            return None
        changed = [i for i in range(1, len(here), 2) if int(here[i]) != int(there[i])]
        return (int(here[changed[0]]), int(there[changed[0]])) if len(changed) == 1 else None
    if len(there) == len(here) + 2:
        return 1, int(there[-2])
    if len(here) == len(there) + 2:
        return int(here[-2]), 1
    return None


def _classes(element: HtmlElement) -> str:
    """The link's class and its wrapper's (`<li class="next"><a>`)."""
    parent = element.getparent()
    return f"{element.get('class', '')} {parent.get('class', '') if parent is not None else ''}"


def _word_direction(element: HtmlElement) -> int:
    """What the link's words and marks say: forward, backward, or 0."""
    labels = _labels(element)
    if any(_PREVIOUS_TEXT.match(label) for label in labels):
        return BACKWARD
    if any(_NEXT_TEXT.match(label) for label in labels):
        return FORWARD
    rel = (element.get("rel") or "").lower().split()
    if "next" in rel:
        return FORWARD
    if "prev" in rel or "previous" in rel:
        return BACKWARD
    classes = _classes(element)
    if _PREVIOUS_CLASS.search(classes):
        return BACKWARD
    if _NEXT_CLASS.search(classes):
        return FORWARD
    return 0


def _marked(element: HtmlElement, params: RecordMiningParams) -> bool:
    """A link whose role is written on it (rel, label, class), not a plain content link."""
    if element.tag == "link" or {"next", "prev", "previous"} & set(
            (element.get("rel") or "").lower().split()):
        return True
    if any(_NEXT_TEXT.match(label) or _PREVIOUS_TEXT.match(label)
           for label in _labels(element)):
        return True
    classes = _classes(element)
    return (len(_label(element)) < params.max_next_label_chars
            and bool(_NEXT_CLASS.search(classes) or _PREVIOUS_CLASS.search(classes)))


def _by_role(root: HtmlElement, page_url: str | None, inside: Collection[HtmlElement],
             params: RecordMiningParams) -> str | None:
    """The first role-marked link that goes forward: by the page numbers it leads to where
    they tell, else by its word."""
    worded: str | None = None
    for element in root.iter("link", "a"):
        if element.tag == "link" and "next" not in (element.get("rel") or "").lower().split():
            continue
        if element in inside or not _marked(element, params):
            continue
        url = _usable(element.get("href"), page_url)
        if url is None:
            continue
        numbers = page_numbers(page_url, url) if page_url else None
        if numbers is not None:
            # a page without a number is taken for page 1 only where the word agrees: a
            # comment pager's latest page has none and "« 上一页" leads to page 15
            numberless = not _NUMBERS.search(urlsplit(page_url).path + urlsplit(page_url).query)
            if numbers[1] > numbers[0] and not (
                    numberless and _word_direction(element) == BACKWARD):
                return url
            continue
        if worded is None and _word_direction(element) == FORWARD:
            worded = url
    return worded


def _current_number(element: HtmlElement) -> int | None:
    """The page number an element shows as current: a bold/unlinked or 'current' number."""
    text = " ".join(element.text_content().split()).strip("[]")
    if not text.isdigit():
        return None
    marked = _CURRENT_CLASS.search(f"{element.get('class', '')} {element.get('id', '')}")
    unlinked = element.tag != "a" or not element.get("href")
    return int(text) if marked or (unlinked and element.find(".//a") is None) else None


def _pager_blocks(root: HtmlElement, inside: Collection[HtmlElement]) -> list[HtmlElement]:
    """Elements holding numbered links (a <li> wrapper counts as its list), in page order."""
    blocks: list[HtmlElement] = []
    for anchor in root.iter("a"):
        block = anchor.getparent()
        if block is not None and block.tag == "li":
            block = block.getparent()
        if (block is not None and block not in blocks and anchor not in inside
                and _label(anchor).isdigit()):
            blocks.append(block)
    return blocks


def _by_number(root: HtmlElement, page_url: str | None,
               inside: Collection[HtmlElement]) -> str | None:
    """The link numbered one more than the current page, in the same pager block, unless
    the pager marks it as its first or last page."""
    for block in _pager_blocks(root, inside):
        numbers = {n for n in map(_current_number, block.iter()) if n is not None}
        for number in sorted(numbers):
            for other in block.iter("a"):
                if (_label(other) == str(number + 1)
                        and not any(_END_TEXT.match(label) for label in _labels(other)[1:])):
                    url = _usable(other.get("href"), page_url)
                    if url:
                        return url
    return None


def earlier_pages(root: HtmlElement, page_url: str) -> list[tuple[str, int, int | None]]:
    """(URL, the number in it, its label's number) of each pager link to an earlier page of
    the same sequence (a lower number in the URL, which offset pagers such as `start=10`
    write too): a link labelled with a page number, or marked as the previous page by its
    word or rel. A "previous topic" link leads to a lower number too, but is neither."""
    found = []
    for element in root.iter("a"):
        url = _usable(element.get("href"), page_url)
        numbers = page_numbers(page_url, url) if url else None
        if url is None or numbers is None or numbers[1] >= numbers[0]:
            continue
        label = _label(element)
        rel = set((element.get("rel") or "").lower().split())
        if label.isdigit() or _PREVIOUS_TEXT.match(label) or rel & {"prev", "previous"}:
            found.append((url, numbers[1], int(label) if label.isdigit() else None))
    return found


def find_next_page(root: HtmlElement, page_url: str | None,
                   params: RecordMiningParams = RECORD_MINING,
                   records: Collection[HtmlElement] = ()) -> str | None:
    """The absolute URL of the next page of this list, or None. `records`: the list's
    record elements, whose links are content, never the pager."""
    inside = {el for record in records for el in record.iter()}
    return _by_role(root, page_url, inside, params) or _by_number(root, page_url, inside)
