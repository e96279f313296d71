"""Text helpers shared by the metadata readers (titles, bylines, dates): the same few
strings are folded and tested again and again on a page, so the helpers are cached."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

import lxml.html
from lxml import etree

_DASHES = str.maketrans("–—‐‑", "----")
_NOT_KEY = re.compile(r"[\W_]+")


def text_of(element: lxml.html.HtmlElement) -> str:
    """The element's text, as text_content() gives it but without an XPath evaluation per
    call, which cost more than the reading itself on the short elements bylines live in.
    An element without children (half of those asked) is its text: serialising cost more."""
    if not len(element):
        return element.text or ""
    return etree.tostring(element, method="text", encoding=str, with_tail=False)


def by_first_letter(words: Iterable[str]) -> str:
    """A regex alternation of `words` (each starting with a literal letter) grouped by that
    letter, their order kept within a group: the regex engine then tries one branch per
    letter at each position instead of every word (with re.I, every word in full)."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[0], []).append(word[1:])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


def clean(text: str | None) -> str | None:
    text = " ".join((text or "").split())
    return text or None


# Cached: the same titles, headings and site names are folded again and again on a page, and
# str.translate is slow.
@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    return " ".join(text.casefold().translate(_DASHES).split())


@lru_cache(maxsize=8192)
def name_key(text: str) -> str:
    """Letters and digits only: "MacTechNews.de" and "mactechnews.de" are one site."""
    return _NOT_KEY.sub("", text.casefold())


@lru_cache(maxsize=1024)
def host_keys(url: str | None) -> frozenset[str]:
    """Cached: every title part and heading of a page is checked against its host."""
    host = host_of(url)
    return frozenset(k for k in (name_key(host), name_key(host.split(".")[0])) if k)


def hint_test(pattern: re.Pattern) -> Callable[[str], bool]:
    """A test of class/id words against `pattern`, cached: a site repeats the same few class
    strings on every page and element."""
    return lru_cache(maxsize=16384)(lambda hint: bool(hint) and bool(pattern.search(hint)))


@lru_cache(maxsize=1024)
def host_of(url: str | None) -> str:
    return re.sub(r"^www\.", "", (url or "").split("/")[2] if (url or "").count("/") >= 2 else "")


def is_inside(inner: str, outer: str) -> bool:
    """`inner` within `outer` as whole words ("Joghurt" is not inside "Joghurts")."""
    inner, outer = fold(inner), fold(outer)
    at = outer.find(inner)
    if not inner or at < 0:
        return False
    before, after = outer[at - 1: at], outer[at + len(inner): at + len(inner) + 1]
    return not any(c.isalnum() and c < "\u3000" for c in before + after)


def opening_text(item: lxml.html.HtmlElement, chars: int) -> str:
    """The item's text as far as its first `chars` characters, a space between the texts of
    neighbouring elements: a post header's name, date and time often stand side by side, and
    run together a name ending in digits hides the date ("Rainer55518.10.19"), a date hides
    its time ("August 9th, 20122:13 pm"). Only the last piece is cut; a childless element
    (most named dates) is its text."""
    if not len(item):
        return (item.text or "")[:chars]
    pieces: list[str] = []
    size = 0
    for piece in item.itertext():
        pieces.append(piece)
        size += len(piece)
        if size >= chars:
            pieces[-1] = piece[: len(piece) - (size - chars)]
            break
    return " ".join(pieces)
