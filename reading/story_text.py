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
from collections import Counter
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache
from hashlib import blake2b
from itertools import chain
from urllib.parse import urlsplit

import numpy as np

# A sentence ends at a line's end, at 。, ! and ? (NFKC reads ！？ so), and at a full stop
# before a space (which goes with it); the marks are no letters, so they become line ends.
# Each code point's class, as Python's `re` reads it, learnt as texts bring code points:
_UNKNOWN, _LETTER, _DIGIT, _SPACE, _END = 0x80, 1, 2, 4, 8  # `\w` but "_"; `\d`; `\s`
_CLASS_PATTERNS = ((_LETTER, re.compile(r"[^\W_]")), (_DIGIT, re.compile(r"\d")),
                   (_SPACE, re.compile(r"\s")), (_END, re.compile(r"[\n。!?]")))
_classes = np.full(0x110000, _UNKNOWN, dtype=np.uint8)
# A key's bits that name its site (`_keyed`). Two sites with one prefix only share a range
# of the index (the other bits digest the site too); two sentences of a site share a key by
# chance once in 2⁴⁰ pairs (at a million sentences a site, about one pair: a count merged).
SITE_BITS = 24
_SENTENCE_MASK = np.uint64((1 << (64 - SITE_BITS)) - 1)


@dataclass(frozen=True)
class StoryText:
    """A body's distinct sentences (letters and digits only, in reading order), each one's
    key (its site and its letters without digits) and those letters without digits (a
    sentence holds digits when they differ: no pattern searched a sentence)."""

    sentences: tuple[str, ...]
    keys: tuple[int, ...]
    digitless: tuple[str, ...]

    def without(self, template: Set[int]) -> str:
        """The letters of the sentences that are not the site's template."""
        return "".join([sentence for sentence, key in zip(self.sentences, self.keys, strict=True)
                        if key not in template])

    def numbered(self) -> dict[int, str]:
        """The sentences holding digits, by key: two pages of a site holding one sentence
        with other numbers are one form filled twice, not one text."""
        return {key: sentence for sentence, key, digitless
                in zip(self.sentences, self.keys, self.digitless, strict=True)
                if sentence != digitless}


def sentence_pages(texts: Iterable[StoryText]) -> Counter[int]:
    """How many of the texts hold each sentence key: what they add to the sentence counts."""
    return Counter(chain.from_iterable(set(text.keys) for text in texts))


def site_of(url: str) -> str:
    """The site a page belongs to: its host, without a leading www."""
    return (urlsplit(url).hostname or "").removeprefix("www.")


def story_texts(normalised: Sequence[str], urls: Sequence[str]
                ) -> list[tuple[str, StoryText]]:
    """Each body's (as `normalise` gives it) letters, a line break at each sentence's end (its
    shingles' text without the breaks), and its `StoryText` keyed with the
    site of its URL, the letters of all the bodies found in a few array operations (three
    substitutions a body cost more than keying its sentences)."""
    return [(text, _keyed(text, digitless, url)) for text, digitless, url
            in zip(*_letters(normalised), urls, strict=True)]


def _keyed(letters: str, digitless: str, url: str) -> StoryText:
    """A body's distinct sentences, keyed with its site and their `digitless` letters (a
    sentence's letters decide its digitless ones: the first of equal sentences is kept). A
    key is a signed 64-bit integer (a BIGINT column's range): its top SITE_BITS a BLAKE2b
    digest of the site, the rest one of the site, a line break and the letters, so a site's
    keys sit side by side in the counts' index and the pages a crawl of a few sites
    touches stay few (random keys spread each article's counts over the whole index:
    docs/BENCHMARKS.md, where PostgreSQL's time goes). The sentences are encoded at once and
    the digests read as one array (an encoding and an integer a sentence cost as much as the
    digests)."""
    found = dict(zip(letters.split("\n"), digitless.split("\n"), strict=True))
    found.pop("", None)
    site = f"{site_of(url)}\n".encode()
    digests = b"".join([blake2b(site + keyed, digest_size=8).digest()
                        for keyed in "\n".join(found.values()).encode().split(b"\n")]
                       if found else [])
    keys = (np.frombuffer(digests, dtype="<u8") & _SENTENCE_MASK) | _site_prefix(site)
    return StoryText(tuple(found), tuple(keys.view(np.int64).tolist()), tuple(found.values()))


@lru_cache(maxsize=4096)
def _site_prefix(site: bytes) -> np.uint64:
    """A site's key bits (`_keyed`): the top SITE_BITS of its own digest."""
    digest = int.from_bytes(blake2b(site, digest_size=8).digest(), "little")
    return np.uint64(digest >> (64 - SITE_BITS) << (64 - SITE_BITS))


def _letters(normalised: Sequence[str]) -> tuple[list[str], list[str]]:
    """Each text's letters and digits with a line break at each sentence's end, and the same
    without the digits: the texts' code points as one array, classed by a table."""
    lengths = np.fromiter(map(len, normalised), dtype=np.int64, count=len(normalised))
    starts = np.cumsum(lengths) - lengths
    codes = np.frombuffer("".join(normalised).encode("utf-32-le", "surrogatepass"),
                          dtype=np.uint32)
    classes = _classes[codes]
    if (classes & _UNKNOWN).any():
        _learn(codes[(classes & _UNKNOWN) != 0])
        classes = _classes[codes]
    ends = (classes & _END) != 0
    dots = np.flatnonzero(codes[:-1] == ord("."))
    dots = dots[(classes[dots + 1] & _SPACE) != 0]
    dots = dots[np.isin(dots + 1, starts, invert=True)]  # no text's last to the next's first
    ends[dots] = True
    kept = ((classes & _LETTER) != 0) | ends
    kept[dots + 1] = False  # the space after a full stop goes with it
    marked = np.where(ends, np.uint32(ord("\n")), codes)
    texts = []
    for mask in (kept, kept & ((classes & _DIGIT) == 0)):
        counts = np.zeros(len(lengths), dtype=np.int64)
        filled = lengths > 0
        counts[filled] = np.add.reduceat(mask, starts[filled], dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(counts))).tolist()
        whole = marked[mask].tobytes().decode("utf-32-le", "surrogatepass")
        texts.append([whole[start:end] for start, end in zip(offsets[:-1], offsets[1:],
                                                                     strict=True)])
    return texts[0], texts[1]


def _learn(codes: np.ndarray) -> None:
    """Class code points not seen before (`_classes`), by the patterns themselves: each
    pattern marks what it matches in one string of them (as U+0001, which none matches)."""
    seen = np.zeros(len(_classes), dtype=bool)  # np.unique's hash table is slower here
    seen[codes] = True
    new = np.flatnonzero(seen).astype(np.uint32)
    every = new.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
    classes = np.zeros(len(new), dtype=np.uint8)
    for flag, pattern in _CLASS_PATTERNS:
        marked = np.frombuffer(pattern.sub("\x01", every).encode("utf-32-le", "surrogatepass"),
                               dtype=np.uint32)
        classes[(marked == 1) & (new != 1)] |= flag
    _classes[new] = classes
