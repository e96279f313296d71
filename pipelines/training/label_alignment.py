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
from pipelines.params import LABELLER_TRAINING, LabellerTrainingParams

LABELS = ("title", "author", "time", "content", "comment", "other")
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


def title_candidates(titles: Sequence[str],
                     params: LabellerTrainingParams = LABELLER_TRAINING) -> list[str]:
    """Squashed titles and, for 'Headline | Site' forms, their parts."""
    found = []
    for title in titles:
        found.append(squash(title))
        found.extend(squash(part) for part in _TITLE_SPLIT.split(title))
    return [t for t in dict.fromkeys(found) if len(t) >= params.min_name_chars]


def coverage(text: str, reference: str,
             params: LabellerTrainingParams = LABELLER_TRAINING) -> float:
    """Share of the squashed text found in the squashed reference (chunkwise for long text)."""
    if len(text) < params.min_chars or not reference:
        return 0.0
    if text in reference:
        return 1.0
    size = params.chunk
    chunks = [text[i:i + size] for i in range(0, len(text) - size + 1, size)]
    return sum(chunk in reference for chunk in chunks) / len(chunks) if chunks else 0.0


def _snippet_labels(blocks: Sequence[Block], squashed: list[str], truth: Truth,
                    params: LabellerTrainingParams) -> list[str]:
    """Body known only by excerpts: blocks holding one, and long text blocks between them."""
    snippets = [s for s in (squash(x) for x in truth.snippets) if s]
    hits = [i for i, text in enumerate(squashed) if any(s in text for s in snippets)]
    labels = ["other"] * len(blocks)
    for i in range(hits[0], hits[-1] + 1) if hits else ():
        block = blocks[i]
        linked = block.link_chars > params.span_max_link_share * block.chars
        if i in hits or (len(squashed[i]) >= params.long_chars and not linked):
            labels[i] = "content"
    return labels


def _text_labels(squashed: list[str], truth: Truth,
                 params: LabellerTrainingParams) -> list[str]:
    body, comments = squash(truth.body), squash(truth.comments)
    labels = []
    for text in squashed:
        in_body, in_comments = coverage(text, body, params), coverage(text, comments, params)
        best = max(in_body, in_comments)
        labels.append("other" if best < params.min_coverage else
                      "content" if in_body >= in_comments else "comment")
    return _drop_stray_short(squashed, labels, params)


def _drop_stray_short(squashed: list[str], labels: list[str],
                      params: LabellerTrainingParams) -> list[str]:
    """A short match counts only near a long block of the same label."""
    result = list(labels)
    for i, label in enumerate(labels):
        if label == "other" or len(squashed[i]) >= params.long_chars:
            continue
        reach = params.neighbourhood
        window = range(max(0, i - reach), min(len(labels), i + reach + 1))
        if not any(labels[j] == label and len(squashed[j]) >= params.long_chars for j in window):
            result[i] = "other"
    return result


def _title_index(blocks: Sequence[Block], squashed: list[str], titles: list[str],
                 params: LabellerTrainingParams) -> int | None:
    """The one block that shows the headline: the first in a heading, else the first match."""
    matches = []
    for i, text in enumerate(squashed):
        if not text or len(text) > params.max_meta_chars:
            continue
        for title in titles:
            short, long_ = sorted((text, title), key=len)
            if short in long_ and len(short) >= params.title_similarity * len(long_):
                matches.append(i)
                break
    in_heading = [i for i in matches if blocks[i].element.tag in _HEADINGS]
    return (in_heading or matches or [None])[0]


def _names(authors: Sequence[str], params: LabellerTrainingParams) -> list[str]:
    parts = (squash(part) for author in authors for part in _NAME_SPLIT.split(author))
    return [part for part in parts if weighted_length(part) >= params.min_name_chars]  # 张三 counts


def _header_day(blocks: Sequence[Block], squashed: list[str], first: int,
                params: LabellerTrainingParams) -> date | None:
    """The day on a short block next to where the body starts: the dateline of a page whose
    data set gives no date (otherwise a body that includes its dateline teaches "content")."""
    reach = params.header_window
    for i in range(max(0, first - reach), min(len(blocks), first + reach + 1)):
        if 0 < len(squashed[i]) <= params.max_meta_chars:
            found = find_day(blocks[i].text)
            if found and any(ch.isdigit() for ch in found[1]):
                return found[0]
    return None


def _byline_labels(blocks: Sequence[Block], squashed: list[str], labels: list[str],
                   truth: Truth, params: LabellerTrainingParams) -> None:
    """Author and time on the first short blocks naming the author or the day, in place.

    Only up to the end of the body: later matches are comment or list timestamps.
    """
    names = _names(truth.authors, params)
    content = [i for i, label in enumerate(labels) if label == "content"]
    end = (content[-1] if content else len(blocks)) + params.byline_after_body
    day = truth.day or (_header_day(blocks, squashed, content[0], params) if content else None)
    used = {"author": 0, "time": 0}
    for i, (block, text) in enumerate(zip(blocks[:end], squashed, strict=False)):
        if labels[i] == "comment" or not text or len(text) > params.max_meta_chars:
            continue
        label = None
        if any(name in text for name in names):
            label = "author"
        elif day is not None:
            found = find_day(block.text)
            label = "time" if found and found[0] == day else None
        if label and used[label] < params.max_bylines:
            labels[i] = label
            used[label] += 1


def align(blocks: Sequence[Block], truth: Truth,
          params: LabellerTrainingParams = LABELLER_TRAINING) -> list[str]:
    """One label from LABELS per block."""
    squashed = [squash(b.text) for b in blocks]
    if truth.snippets and not truth.body:
        labels = _snippet_labels(blocks, squashed, truth, params)
    else:
        labels = _text_labels(squashed, truth, params)
    _byline_labels(blocks, squashed, labels, truth, params)
    title = _title_index(blocks, squashed, title_candidates(truth.titles, params), params)
    if title is not None:
        labels[title] = "title"
    return labels
