"""Page features of SPEC S3, read off the parsed, cleaned tree with a few C-level lxml calls.

A Python loop over every element costs about the whole 1 ms budget, so the scan
asks libxml2 for what it needs in bulk: the body text serialised once, the text
pieces inside links and the hrefs (one XPath each), tag-filtered iters for the
tags the model counts and for the few form-like elements whose text SPEC S3
ignores. All words and marks the model counts are found in one regex pass over
the text (one `str.count` per word cost up to 2 ms). Only the features the model
names are computed. Lengths are UTF-8 bytes without whitespace, which weighs a
Chinese character about like a short English word, so thresholds do not depend
on language. Counts enter as log(1 + n) so one huge page does not dominate
scaling. Feature names start with their family (txt, head, tag, link, gram, lst):
SVM-RFE selects per family first.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from functools import cached_property, lru_cache
from math import log1p

from lxml import etree, html

from pipelines.pagetype.vocab import (
    COMMON_TAGS,
    HEAD_WORDS,
    IGNORED_TAGS,
    OTHER_MARKS,
    PAGER_WORDS,
    SENTENCE_MARKS,
    TEXT_WORDS,
    TYPE_CLASSES,
    URL_KEYWORDS,
)

HEADLINE_BYTES = 24  # link text this heavy reads as a headline (8 CJK chars, ~4 English words)
RUN_CANDIDATES = 5  # longest raw gaps re-weighed without whitespace to find the longest run
_DATED_HREF = re.compile(r"(?<!\d)(?:19|20)\d{2}[-/_]?[01]\d(?:[-/_]?[0-3]\d)?(?!\d)")
_TEXT_DATE = re.compile(r"(?<!\d)(?:19|20)\d\d(?:[-/.]|年)[01]?\d(?:[-/.]|月)[0-3]?\d(?!\d)")

_LINK_TEXT = etree.XPath("descendant::a/descendant::text()", smart_strings=False)
_HEAD_TEXT = etree.XPath("title/text() | meta/@content", smart_strings=False)
_HREFS = etree.XPath("descendant::a/@href", smart_strings=False)
_ELEMENTS = etree.XPath("count(descendant-or-self::*)")
_PAGE_NUMBER = re.compile(r"^\s*\d{1,3}\s*$", re.M)


@lru_cache(maxsize=8)
def _alternation(words: frozenset[str]) -> re.Pattern[str]:
    """One regex for all `words`, longest first, so a pass finds each occurrence once."""
    return re.compile("|".join(map(re.escape, sorted(words, key=lambda w: (-len(w), w)))))


def weight(text: str) -> int:
    """UTF-8 bytes of `text` without whitespace: a language-neutral amount of text."""
    return len("".join(text.split()).encode("utf-8"))


class PageScan:
    """What the features read from one tree, each fetched once and only when first needed."""

    def __init__(self, root: html.HtmlElement, words: Iterable[str] = ()) -> None:
        found = root.find("body")
        self.root = root
        self.body = found if found is not None else root
        self.words = frozenset(words)  # the words and marks `count` may be asked for

    def tag_counts(self, tags: Collection[str]) -> Counter[str]:
        """Elements per tag; a tag-filtered iter only wraps the elements asked for."""
        return Counter(el.tag for el in self.root.iter(*tags)) if tags else Counter()

    @cached_property
    def element_count(self) -> int:
        return max(int(_ELEMENTS(self.root)), 1)

    @cached_property
    def full_text(self) -> str:
        """All body text in document order, hidden-tag text included (one C serialisation)."""
        return etree.tostring(self.body, method="text", encoding=str, with_tail=False)

    @cached_property
    def hidden_text(self) -> str:
        """Text under SPEC's ignored tags (forms, buttons…): subtracted from every text figure."""
        return "\n".join(
            etree.tostring(el, method="text", encoding=str, with_tail=False)
            for el in self.body.iter(*IGNORED_TAGS)
            if next(el.iterancestors(*IGNORED_TAGS), None) is None)

    @cached_property
    def text(self) -> str:
        return self.full_text.lower()

    @cached_property
    def text_weight(self) -> int:
        return max(weight(self.full_text) - weight(self.hidden_text), 1)

    @cached_property
    def word_counts(self) -> Counter[str]:
        """Each scanned word in the visible text: one pass, hidden text taken off."""
        if not self.words:
            return Counter()
        pattern = _alternation(self.words)
        counts = Counter(pattern.findall(self.text))
        if self.hidden_text:
            counts.subtract(pattern.findall(self.hidden_text.lower()))
        return counts

    def count(self, words: Collection[str]) -> int:
        """Occurrences of `words` (all among the scanned ones) in the visible, lower-cased text."""
        return sum(self.word_counts[w] for w in words)

    @cached_property
    def link_pieces(self) -> list[str]:
        return _LINK_TEXT(self.body)

    @cached_property
    def refs(self) -> list[str]:
        return _HREFS(self.body)

    @cached_property
    def head_pager(self) -> int:
        """<link rel="next"/"prev"> in the head: the page is one of a paged series."""
        head = self.root.find("head")
        return 0 if head is None else len(head.xpath("link[@rel='next' or @rel='prev']"))

    @cached_property
    def head_text(self) -> str:
        head = self.root.find("head")
        return " ".join(_HEAD_TEXT(head)).lower() if head is not None else ""


def _longest_run(scan: PageScan) -> int:
    """Weight of the longest stretch of body text with no link in it.

    Articles have one long stretch (the body); lists are cut into short pieces by
    their links. Link pieces are found in the serialised text in document order.
    """
    text, pos, gaps = scan.full_text, 0, []
    for piece in scan.link_pieces:
        start = text.find(piece, pos)
        if start >= 0:
            gaps.append((start - pos, pos))
            pos = start + len(piece)
    gaps.append((len(text) - pos, pos))
    longest = sorted(gaps, reverse=True)[:RUN_CANDIDATES]
    return max(weight(text[start:start + size]) for size, start in longest)


def _list_features(scan: PageScan) -> dict[str, float]:
    """Language-neutral list signals: link-cut text, headline links, pagers, dates."""
    links = max(len(scan.refs), 1)
    headlines = sum(len(p.strip().encode("utf-8")) >= HEADLINE_BYTES for p in scan.link_pieces)
    run = _longest_run(scan)
    dates = len(_TEXT_DATE.findall(scan.full_text))
    link_text = "\n".join(scan.link_pieces)
    link_weight = weight(link_text)
    link_text = link_text.lower()
    pager = sum(link_text.count(w) for w in PAGER_WORDS) + scan.head_pager
    return {
        "lst_run": log1p(run),
        "lst_run_share": min(run / scan.text_weight, 1.0),
        "lst_link_share": min(link_weight / scan.text_weight, 1.0),
        "lst_headlines": log1p(headlines),
        "lst_headline_share": headlines / links,
        "lst_mean_link": link_weight / links,
        "lst_page_numbers": log1p(len(_PAGE_NUMBER.findall(link_text))),
        "lst_pager_words": log1p(pager),
        "lst_dates": log1p(dates),
        "lst_dates_per_headline": dates / max(headlines, 1),
    }


Wanted = Callable[[str], bool]  # is this feature name asked for?


def _tag_features(scan: PageScan, tags: Collection[str]) -> dict[str, float]:
    counts = scan.tag_counts({*tags, "h1", "h2", "h3"})
    features = {f"tag_{t}": counts[t] / scan.element_count for t in tags}
    features.update({f"head_{h}": log1p(counts[h]) for h in ("h1", "h2", "h3")})
    return features


def _text_kinds(want: Wanted) -> list[str]:
    return [kind for kind in TYPE_CLASSES if want(f"txt_kw_{kind}")]


def _other_marks_wanted(want: Wanted) -> bool:
    return want("gram_other_marks") or want("gram_marks_per_char")


def scanned_words(want: Wanted, grammar: bool) -> set[str]:
    """The words and marks the wanted features count, found together in one pass."""
    words = {w for kind in _text_kinds(want) for w in TEXT_WORDS[kind]}
    if grammar:
        words.update(m for forms in SENTENCE_MARKS.values() for m in forms)
    if _other_marks_wanted(want):
        words.update(OTHER_MARKS)
    return words


def _word_features(scan: PageScan, want: Wanted) -> dict[str, float]:
    head = scan.head_text
    features = {f"head_kw_{kind}": log1p(sum(head.count(w) for w in HEAD_WORDS[kind]))
                for kind in TYPE_CLASSES}
    features.update({f"txt_kw_{kind}": log1p(scan.count(TEXT_WORDS[kind]))
                     for kind in _text_kinds(want)})
    features["txt_chars"] = log1p(scan.text_weight)
    return features


def _grammar_features(scan: PageScan, want: Wanted) -> dict[str, float]:
    """Punctuation counts (Chinese and Western together) and sentence statistics."""
    marks = {name: scan.count(forms) for name, forms in SENTENCE_MARKS.items()}
    sentences = sum(marks.values())
    features = {f"gram_share_{name}": n / max(sentences, 1) for name, n in marks.items()}
    features["gram_sentences"] = log1p(sentences)
    features["gram_mean_sentence"] = log1p(scan.text_weight / max(sentences, 1))
    if _other_marks_wanted(want):
        others = scan.count(OTHER_MARKS)
        features["gram_other_marks"] = log1p(others)
        features["gram_marks_per_char"] = (sentences + others) / scan.text_weight
    return features


def _link_features(scan: PageScan, want: Wanted) -> dict[str, float]:
    """Share of hrefs holding each class's URL keywords, dated hrefs, link-text share."""
    refs = "\n".join(scan.refs).lower()
    count = max(len(scan.refs), 1)
    features = {
        f"link_kw_{kind}": sum(refs.count(k) for k in URL_KEYWORDS[kind]) / count
        for kind in TYPE_CLASSES if want(f"link_kw_{kind}")
    }
    features["link_dated_share"] = len(_DATED_HREF.findall(refs)) / count
    features["link_count"] = log1p(len(scan.refs))
    features["link_text_share"] = min(weight("".join(scan.link_pieces)) / scan.text_weight, 1.0)
    return features


_FAMILIES: tuple[tuple[frozenset[str], Callable[[PageScan, Wanted], dict[str, float]]], ...] = (
    (frozenset(("head", "txt")), _word_features),
    (frozenset(("gram",)), _grammar_features),
    (frozenset(("link",)), _link_features),
    (frozenset(("lst",)), lambda scan, _: _list_features(scan)),
)


def page_features(root: html.HtmlElement,
                  names: Collection[str] | None = None) -> dict[str, float]:
    """Page features of one cleaned tree: all of them, or at least those in `names`."""
    def want(name: str) -> bool:
        return names is None or name in names

    wanted = None if names is None else {n.split("_", 1)[0] for n in names}
    scan = PageScan(root, scanned_words(want, wanted is None or "gram" in wanted))
    features: dict[str, float] = {}
    for families, compute in _FAMILIES:
        if wanted is None or wanted & families:
            features.update(compute(scan, want))
    if wanted is None or wanted & {"tag", "head"}:
        features.update(_tag_features(scan, [t for t in COMMON_TAGS if want(f"tag_{t}")]))
    return features
