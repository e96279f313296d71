"""The text a story copy is confirmed on: a body's sentences as the index reads them, each
keyed with its site.

A site repeats whole sentences on many of its pages (a forum's moved-topic notice, a blog's
code skeleton, a comment policy, a licence, a weekly report's "we closed 24 issues"), and
two of its pages sharing them are not one story; keyed with the site, a sentence's pages
can be counted and the site's template set aside. Numbers change where the words stay (a
list renumbered when an item is added, a report's figures, a link's id), so a sentence's
key leaves its digits out ("3、Fixed X" and "4、Fixed X" are one sentence).
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass
from hashlib import blake2b
from urllib.parse import urlsplit

# A sentence ends at a line's end, at 。, ! and ? (NFKC reads ！？ so), and at a full stop
# before a space; the marks are no letters, so they can become the line ends.
_SENTENCE_END = re.compile(r"[!?]|\.\s")
_NOT_LETTERS_OR_ENDS = re.compile(r"[^\w\n]+")  # and "_", replaced apart: a third faster
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class StoryText:
    """A body's distinct sentences (letters and digits only, in reading order) and each
    one's key: its site and its letters without digits."""

    sentences: tuple[str, ...]
    keys: tuple[int, ...]

    def without(self, template: Set[int]) -> str:
        """The letters of the sentences that are not the site's template."""
        return "".join(sentence for sentence, key in zip(self.sentences, self.keys, strict=True)
                       if key not in template)


def site_of(url: str) -> str:
    """The site a page belongs to: its host, without a leading www."""
    return (urlsplit(url).hostname or "").removeprefix("www.")


def sentence_letters(normalised: str) -> str:
    """The letters and digits of a body (as `normalise` gives it), a line break at each
    sentence's end: its shingles' text (without the breaks) and its sentences'. Three
    substitutions over the whole text, not some a sentence: a body has dozens."""
    marked = _SENTENCE_END.sub("\n", normalised.replace("。", "\n"))
    return _NOT_LETTERS_OR_ENDS.sub("", marked).replace("_", "")


def story_text(letters: str, url: str) -> StoryText:
    """The sentences of a body's `sentence_letters` keyed with the site of `url` (see the
    module's docstring)."""
    site = site_of(url)
    found: dict[str, int] = {}
    for sentence, keyed in zip(letters.split("\n"), _DIGITS.sub("", letters).split("\n"),
                               strict=True):
        if sentence and sentence not in found:
            found[sentence] = _key(site, keyed)
    return StoryText(tuple(found), tuple(found.values()))


def _key(site: str, letters: str) -> int:
    """A signed 64-bit key of a site's sentence (a BIGINT column's range)."""
    digest = blake2b(f"{site}\n{letters}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)
