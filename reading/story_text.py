"""The text a story copy is confirmed on: a body's lines as the index reads them, each keyed
with its site.

A site repeats whole lines on many of its pages (a forum's moved-topic notice, a blog's
code skeleton, a comment policy, a licence), and two of its pages sharing them are not one
story; keyed with the site, a line's pages can be counted and its template lines set aside.
A list's numbers change when an item is added or removed, so a numbered line is read
without its number ("3. Fixed X" and "4. Fixed X" are one line).
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass
from hashlib import blake2b
from urllib.parse import urlsplit

from models.search.terms import normalise

# A list item's number or bullet at the start of a line: "3.", "(3)", "3)", "3、", "-", "•".
_LIST_MARK = re.compile(r"^\s*(?:[(\[]?\d{1,3}[.)\]、:](?!\d)|[-*•·])\s*")
NOT_LETTERS = re.compile(r"[\W_]+")  # what a shingle is made of: letters and digits


@dataclass(frozen=True)
class StoryText:
    """A body's distinct lines (letters and digits only, list marks dropped, in reading
    order) and each line's key: its site and its letters."""

    lines: tuple[str, ...]
    keys: tuple[int, ...]

    def without(self, template: Set[int]) -> str:
        """The letters of the lines that are not the site's template."""
        return "".join(line for line, key in zip(self.lines, self.keys, strict=True)
                       if key not in template)


def site_of(url: str) -> str:
    """The site a page belongs to: its host, without a leading www."""
    return (urlsplit(url).hostname or "").removeprefix("www.")


def story_text(body: str, url: str) -> StoryText:
    """The body's lines keyed with the site of `url` (see the module's docstring)."""
    site = site_of(url)
    found: dict[str, int] = {}
    for line in normalise(body).splitlines():
        letters = NOT_LETTERS.sub("", _LIST_MARK.sub("", line))
        if letters and letters not in found:
            found[letters] = _key(site, letters)
    return StoryText(tuple(found), tuple(found.values()))


def _key(site: str, letters: str) -> int:
    """A signed 64-bit key of a site's line (a BIGINT column's range)."""
    digest = blake2b(f"{site}\n{letters}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)
