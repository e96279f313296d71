"""Page features of SPEC S3, gathered in ONE walk over the already-parsed, cleaned tree.

The walk collects tag counts, visible text pieces, link text and hrefs; every
later figure is computed from those collections with C-speed string counts.
Counts enter as log(1 + n) so one huge page does not dominate min/max scaling.
Feature names start with their family (txt, head, tag, link, gram, lst): SVM-RFE
selects per family first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from math import log1p

from lxml import etree, html

from pipelines.pagetype.vocab import (
    COMMON_TAGS,
    HEAD_WORDS,
    IGNORED_TAGS,
    OTHER_MARKS,
    SENTENCE_MARKS,
    TEXT_WORDS,
    TYPE_CLASSES,
    URL_KEYWORDS,
)

LONG_ANCHOR_CHARS = 12  # anchor text at least this long reads as a headline, not a menu item
PARAGRAPH_CHARS = 50  # a text piece this long outside links reads as running prose
_DATED_HREF = re.compile(r"(?<!\d)(?:19|20)\d{2}[-/_]?[01]\d(?:[-/_]?[0-3]\d)?(?!\d)")
_HIDDEN_ROOTS = IGNORED_TAGS | {"head"}


@dataclass
class _Walk:
    """What the single traversal collects."""

    tags: dict[str, int] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    head: list[str] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    anchor_chars: dict[html.HtmlElement, int] = field(default_factory=dict)
    link_chars: int = 0


def _walk(root: html.HtmlElement) -> _Walk:
    """One pass: tags, visible text (outside SPEC's ignored tags), link text, hrefs, head."""
    walk = _Walk()
    tags = walk.tags
    hidden: set[html.HtmlElement] = set()
    anchor_of: dict[html.HtmlElement, html.HtmlElement] = {}
    for el in root.iter(etree.Element):
        tag = el.tag
        tags[tag] = tags.get(tag, 0) + 1
        parent = el.getparent()
        parent_hidden = parent in hidden
        anchor = el if tag == "a" else anchor_of.get(parent)
        if anchor is not None:
            anchor_of[el] = anchor
        if tag == "a" or tag == "link" or tag == "img":
            _add_ref(walk, el, tag)
        if tag in _HIDDEN_ROOTS or parent_hidden:
            hidden.add(el)
            if tag == "title" or tag == "meta":
                walk.head.append(el.text if tag == "title" else el.get("content"))
        else:
            text = el.text.strip() if el.text else None
            if text:
                _add_text(walk, text, anchor)
        tail = el.tail.strip() if el.tail else None
        if tail and parent is not None and not parent_hidden:
            _add_text(walk, tail, anchor_of.get(parent))
    return walk


def _add_ref(walk: _Walk, el: html.HtmlElement, tag: str) -> None:
    ref = el.get("src" if tag == "img" else "href")
    if ref:
        walk.hrefs.append(ref)
    if tag == "a":
        walk.anchor_chars.setdefault(el, 0)


def _add_text(walk: _Walk, text: str, anchor: html.HtmlElement | None) -> None:
    walk.texts.append(text)
    if anchor is not None:
        walk.link_chars += len(text)
        walk.anchor_chars[anchor] += len(text)


def _word_features(prefix: str, text: str, words: dict[str, tuple[str, ...]]) -> dict[str, float]:
    return {
        f"{prefix}_{kind}": log1p(sum(text.count(w) for w in words[kind]))
        for kind in TYPE_CLASSES
    }


def _grammar_features(text: str) -> dict[str, float]:
    """Punctuation counts (Chinese and Western together) and sentence statistics."""
    marks = {name: sum(text.count(m) for m in forms) for name, forms in SENTENCE_MARKS.items()}
    sentences = sum(marks.values())
    features = {f"gram_share_{name}": n / max(sentences, 1) for name, n in marks.items()}
    others = sum(text.count(mark) for mark in OTHER_MARKS)
    features.update({
        "gram_sentences": log1p(sentences),
        "gram_other_marks": log1p(others),
        "gram_marks_per_char": (sentences + others) / max(len(text), 1),
        "gram_mean_sentence": log1p(len(text) / max(sentences, 1)),
    })
    return features


def _link_features(walk: _Walk, text_chars: int) -> dict[str, float]:
    """Share of links whose href holds each class's URL keywords, dated links, link text."""
    refs = "\n".join(walk.hrefs).lower()
    count = max(len(walk.hrefs), 1)
    features = {
        f"link_kw_{kind}": sum(refs.count(k) for k in URL_KEYWORDS[kind]) / count
        for kind in TYPE_CLASSES
    }
    features["link_dated_share"] = len(_DATED_HREF.findall(refs)) / count
    features["link_count"] = log1p(len(walk.anchor_chars))
    features["link_text_share"] = walk.link_chars / max(text_chars, 1)
    return features


def _common_ancestor(first: html.HtmlElement, last: html.HtmlElement) -> html.HtmlElement:
    ancestors = set(first.iterancestors())
    return next((a for a in last.iterancestors() if a in ancestors), first)


def _list_features(walk: _Walk, text_chars: int) -> dict[str, float]:
    """List signals: repeated sibling blocks of headline links, density of their block."""
    groups: dict[tuple, list[html.HtmlElement]] = {}
    for anchor, chars in walk.anchor_chars.items():
        if chars >= LONG_ANCHOR_CHARS:
            parent = anchor.getparent()
            grand = parent.getparent() if parent is not None else None
            key = tuple((e.tag, e.get("class")) for e in (parent, grand) if e is not None)
            groups.setdefault(key, []).append(anchor)
    headlines = sum(len(g) for g in groups.values())
    biggest = max(groups.values(), key=len, default=[])
    features = {
        "lst_headlines": log1p(headlines),
        "lst_repeated": log1p(len(biggest)),
        "lst_repeated_share": len(biggest) / max(headlines, 1),
        "lst_block_link_density": 0.0,
        "lst_block_text_share": 0.0,
    }
    if len(biggest) >= 2:
        block_chars = len(_common_ancestor(biggest[0], biggest[-1]).text_content())
        group_chars = sum(walk.anchor_chars[a] for a in biggest)
        features["lst_block_link_density"] = min(group_chars / max(block_chars, 1), 1.0)
        features["lst_block_text_share"] = min(block_chars / max(text_chars, 1), 1.0)
    return features


def _prose_features(texts: list[str], text_chars: int) -> dict[str, float]:
    paragraphs = [len(t) for t in texts if len(t) >= PARAGRAPH_CHARS]
    return {
        "txt_paragraphs": log1p(len(paragraphs)),
        "txt_paragraph_share": sum(paragraphs) / max(text_chars, 1),
        "txt_chars": log1p(text_chars),
    }


def page_features(root: html.HtmlElement) -> dict[str, float]:
    """All page features of one cleaned tree (see module docstring for the families)."""
    walk = _walk(root)
    text = "\n".join(walk.texts).lower()
    text_chars = len(text)
    total_tags = max(sum(walk.tags.values()), 1)
    features = {f"tag_{t}": walk.tags.get(t, 0) / total_tags for t in COMMON_TAGS}
    features.update({f"head_{h}": log1p(walk.tags.get(h, 0)) for h in ("h1", "h2", "h3")})
    features.update(_word_features("head_kw", " ".join(filter(None, walk.head)).lower(),
                                   HEAD_WORDS))
    features.update(_word_features("txt_kw", text, TEXT_WORDS))
    features.update(_prose_features(walk.texts, text_chars))
    features.update(_grammar_features(text))
    features.update(_link_features(walk, text_chars))
    features.update(_list_features(walk, text_chars))
    return features
