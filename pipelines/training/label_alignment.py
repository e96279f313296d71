"""Training labels for a block sequence, by aligning ground-truth texts to the blocks.

Body and comment blocks are those whose text lies in the ground-truth body or
comments. Title, author and date come from the ground truth when the data set
has them, else from what the page declares in <head> (og:title, meta author,
article:published_time): distant supervision, so every training page carries
all six labels.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import lxml.html

from pipelines.labelling.days import find_day
from pipelines.labelling.features import page_titles, squash, weighted_length
from pipelines.labelling.linearise import Block
from pipelines.lexicon import AUTHOR_META_NAMES, DATE_META_NAMES, NAME_JOINERS

LABELS = ("title", "author", "time", "content", "comment", "other")
CHUNK = 16  # a long block matches when most of its 16-character chunks are in the reference
MIN_COVERAGE = 0.6
MIN_CHARS = 8  # squashed characters: shorter blocks match by chance
LONG_CHARS = 25  # a block shorter than this is body/comment only next to a long one
NEIGHBOURHOOD = 2
SPAN_MAX_LINK_SHARE = 0.3
MAX_META_CHARS = 120  # squashed characters of a title, author or date block
TITLE_SIMILARITY = 0.8
MIN_NAME_CHARS = 4
MAX_BYLINES = 2  # author (or time) blocks per page: the byline and maybe a repeat at the end
BYLINE_AFTER_BODY = 3
HEADER_WINDOW = 3  # blocks either side of the body's start searched for an undeclared dateline
_TITLE_SPLIT = re.compile(r"\s+[|\-–—:·»_]+\s+|\s*[|·»]\s*")
_NAME_SPLIT = re.compile(r"[,;/&|]|\s+(?:" + "|".join(NAME_JOINERS) + r")\s+", re.I)
_HEADINGS = frozenset({"h1", "h2", "h3"})


@dataclass
class Truth:
    """What a data set says about one page; empty fields are unknown."""

    body: str = ""
    comments: str = ""
    titles: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    day: date | None = None
    snippets: list[str] = field(default_factory=list)  # body excerpts, when no full body


def _meta(tree: lxml.html.HtmlElement, names: Sequence[str]) -> list[str]:
    values = []
    for meta in tree.iter("meta"):
        key = (meta.get("name") or meta.get("property") or meta.get("itemprop") or "").lower()
        content = (meta.get("content") or "").strip()
        if key in names and content:
            values.append(content)
    return values


def declared_truth(tree: lxml.html.HtmlElement) -> Truth:
    """Title, author and day declared in <head>: labels for pages whose data set lacks them."""
    authors = [a.removeprefix("By ").removeprefix("by ") for a in _meta(tree, AUTHOR_META_NAMES)
               if "://" not in a]
    days = [found[0] for found in (find_day(text) for text in _meta(tree, DATE_META_NAMES))
            if found]
    return Truth(titles=page_titles(tree), authors=authors, day=days[0] if days else None)


def title_candidates(titles: Sequence[str]) -> list[str]:
    """Squashed titles and, for 'Headline | Site' forms, their parts."""
    found = []
    for title in titles:
        found.append(squash(title))
        found.extend(squash(part) for part in _TITLE_SPLIT.split(title))
    return [t for t in dict.fromkeys(found) if len(t) >= MIN_NAME_CHARS]


def coverage(text: str, reference: str) -> float:
    """Share of the squashed text found in the squashed reference (chunkwise for long text)."""
    if len(text) < MIN_CHARS or not reference:
        return 0.0
    if text in reference:
        return 1.0
    chunks = [text[i:i + CHUNK] for i in range(0, len(text) - CHUNK + 1, CHUNK)]
    return sum(chunk in reference for chunk in chunks) / len(chunks) if chunks else 0.0


def _snippet_labels(blocks: Sequence[Block], squashed: list[str], truth: Truth) -> list[str]:
    """Body known only by excerpts: blocks holding one, and long text blocks between them."""
    snippets = [s for s in (squash(x) for x in truth.snippets) if s]
    hits = [i for i, text in enumerate(squashed) if any(s in text for s in snippets)]
    labels = ["other"] * len(blocks)
    for i in range(hits[0], hits[-1] + 1) if hits else ():
        block = blocks[i]
        linked = block.link_chars > SPAN_MAX_LINK_SHARE * block.chars
        if i in hits or (len(squashed[i]) >= LONG_CHARS and not linked):
            labels[i] = "content"
    return labels


def _text_labels(squashed: list[str], truth: Truth) -> list[str]:
    body, comments = squash(truth.body), squash(truth.comments)
    labels = []
    for text in squashed:
        in_body, in_comments = coverage(text, body), coverage(text, comments)
        best = max(in_body, in_comments)
        labels.append("other" if best < MIN_COVERAGE else
                      "content" if in_body >= in_comments else "comment")
    return _drop_stray_short(squashed, labels)


def _drop_stray_short(squashed: list[str], labels: list[str]) -> list[str]:
    """A short match counts only near a long block of the same label."""
    result = list(labels)
    for i, label in enumerate(labels):
        if label == "other" or len(squashed[i]) >= LONG_CHARS:
            continue
        window = range(max(0, i - NEIGHBOURHOOD), min(len(labels), i + NEIGHBOURHOOD + 1))
        if not any(labels[j] == label and len(squashed[j]) >= LONG_CHARS for j in window):
            result[i] = "other"
    return result


def _title_index(blocks: Sequence[Block], squashed: list[str], titles: list[str]) -> int | None:
    """The one block that shows the headline: the first in a heading, else the first match."""
    matches = []
    for i, text in enumerate(squashed):
        if not text or len(text) > MAX_META_CHARS:
            continue
        for title in titles:
            short, long_ = sorted((text, title), key=len)
            if short in long_ and len(short) >= TITLE_SIMILARITY * len(long_):
                matches.append(i)
                break
    in_heading = [i for i in matches if blocks[i].element.tag in _HEADINGS]
    return (in_heading or matches or [None])[0]


def _names(authors: Sequence[str]) -> list[str]:
    parts = (squash(part) for author in authors for part in _NAME_SPLIT.split(author))
    return [part for part in parts if weighted_length(part) >= MIN_NAME_CHARS]  # 张三 counts


def _header_day(blocks: Sequence[Block], squashed: list[str], first: int) -> date | None:
    """The day on a short block next to where the body starts: the dateline of a page whose
    data set gives no date (otherwise a body that includes its dateline teaches "content")."""
    for i in range(max(0, first - HEADER_WINDOW), min(len(blocks), first + HEADER_WINDOW + 1)):
        if 0 < len(squashed[i]) <= MAX_META_CHARS:
            found = find_day(blocks[i].text)
            if found and any(ch.isdigit() for ch in found[1]):
                return found[0]
    return None


def _byline_labels(blocks: Sequence[Block], squashed: list[str], labels: list[str],
                   truth: Truth) -> None:
    """Author and time on the first short blocks naming the author or the day, in place.

    Only up to the end of the body: later matches are comment or list timestamps.
    """
    names = _names(truth.authors)
    content = [i for i, label in enumerate(labels) if label == "content"]
    end = (content[-1] if content else len(blocks)) + BYLINE_AFTER_BODY
    day = truth.day or (_header_day(blocks, squashed, content[0]) if content else None)
    used = {"author": 0, "time": 0}
    for i, (block, text) in enumerate(zip(blocks[:end], squashed, strict=False)):
        if labels[i] == "comment" or not text or len(text) > MAX_META_CHARS:
            continue
        label = None
        if any(name in text for name in names):
            label = "author"
        elif day is not None:
            found = find_day(block.text)
            label = "time" if found and found[0] == day else None
        if label and used[label] < MAX_BYLINES:
            labels[i] = label
            used[label] += 1


def align(blocks: Sequence[Block], truth: Truth) -> list[str]:
    """One label from LABELS per block."""
    squashed = [squash(b.text) for b in blocks]
    if truth.snippets and not truth.body:
        labels = _snippet_labels(blocks, squashed, truth)
    else:
        labels = _text_labels(squashed, truth)
    _byline_labels(blocks, squashed, labels, truth)
    title = _title_index(blocks, squashed, title_candidates(truth.titles))
    if title is not None:
        labels[title] = "title"
    return labels
