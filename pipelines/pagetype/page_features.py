"""Page features of SPEC S3, read off the parsed, cleaned tree with a few C-level lxml calls.

A Python loop over every element costs about the whole budget, so the scan asks
libxml2 for what it needs in bulk: the body text serialised once, the non-blank
text pieces inside links (one XPath; they also count the links), the hrefs only
for the profile-link features, and tag-filtered iters for the tags the model
counts and for the few form-like elements whose text SPEC S3 ignores. Regexes
over the page text start with a literal (":", "#") where they can, so the regex
engine skips between candidates in C. Only the features the model names are
computed (by family; post features one by one). Lengths are UTF-8 bytes without
whitespace, which weighs a Chinese character about like a short English word, so
thresholds do not depend on language. Counts enter as log(1 + n) so one huge page
does not dominate scaling. Feature names start with their family (txt, head, tag,
lst, post): SVM-RFE selects per family first.

Dropped by grouped-CV ablation (docs/BENCHMARKS.md, page type): the seed's
visible-text type words and punctuation/sentence statistics (one regex pass over
the lower-cased text, most of the former cost, no macro-F1 gain) and the href
keyword shares (macro-F1 equal or better without them).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection
from functools import cached_property
from math import log1p

from lxml import etree, html

from pipelines.pagetype.vocab import (
    ACTION_WORDS,
    COMMON_TAGS,
    HEAD_WORDS,
    IGNORED_TAGS,
    PAGER_WORDS,
    TYPE_CLASSES,
    USER_HREF_WORDS,
)

HEADLINE_BYTES = 24  # link text this heavy reads as a headline (8 CJK chars, ~4 English words)
RUN_CANDIDATES = 5  # longest raw gaps re-weighed without whitespace to find the longest run
# Whitespace characters with their UTF-8 sizes (no-break and ideographic spaces are wider).
WHITESPACE = tuple((c, len(c.encode("utf-8"))) for c in (" ", "\n", "\t", "\r", "\xa0", "\u3000"))
_TEXT_DATE = re.compile(r"(?:19|20)\d\d[-/.年][01]?\d[-/.月][0-3]?\d(?!\d)")
_CLOCK = re.compile(r":[0-5]\d(?!\d)")  # the minutes of a clock time: post and reply stamps
_POST_NUMBER = re.compile(r"#\d{1,5}(?!\d)")  # "#12": a post's number in a thread
# A link text that is a page number ("2"); the text is joined "\n" + pieces + "\n".
_PAGE_NUMBER = re.compile(r"\n[^\S\n]*\d{1,3}(?=[^\S\n]*\n)")

_LINK_TEXT = etree.XPath("descendant::a/descendant::text()[normalize-space()]",
                         smart_strings=False)
_HEAD_TEXT = etree.XPath("title/text() | meta/@content", smart_strings=False)
_HREFS = etree.XPath("descendant::a/@href", smart_strings=False)
_ELEMENTS = etree.XPath("count(descendant-or-self::*)")
# Ignored tags that can hold text of their own: void tags (input…) hold none, and option,
# optgroup and legend sit inside select or fieldset, whose text already includes theirs.
_TEXT_HOLDERS = tuple(sorted(IGNORED_TAGS - {"input", "isindex", "param", "option", "optgroup",
                                            "legend"}))


def weight(text: str) -> int:
    """UTF-8 bytes of `text` without whitespace: a language-neutral amount of text.

    Counting the few whitespace characters is cheaper than splitting a long text.
    """
    return len(text.encode("utf-8")) - sum(text.count(c) * size for c, size in WHITESPACE)


class PageScan:
    """What the features read from one tree, each fetched once and only when first needed."""

    def __init__(self, root: html.HtmlElement) -> None:
        found = root.find("body")
        self.root = root
        self.body = found if found is not None else root

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
            for el in self.body.iter(*_TEXT_HOLDERS)
            if next(el.iterancestors(*_TEXT_HOLDERS), None) is None)

    @cached_property
    def text_weight(self) -> int:
        return max(weight(self.full_text) - weight(self.hidden_text), 1)

    def visible_count(self, pattern: re.Pattern[str]) -> int:
        """Matches of `pattern` in the body text, less those in ignored (form) text."""
        found = len(pattern.findall(self.full_text))
        return found - len(pattern.findall(self.hidden_text)) if found else 0

    @cached_property
    def link_pieces(self) -> list[str]:
        """Text nodes inside links, whitespace-only ones left out by libxml2."""
        return _LINK_TEXT(self.body)

    @cached_property
    def link_text(self) -> str:
        """All link text, lower-cased, one piece a line, with a newline before and after."""
        return "\n" + "\n".join(self.link_pieces).lower() + "\n"

    @cached_property
    def refs(self) -> list[str]:
        return _HREFS(self.body)

    @cached_property
    def user_links(self) -> int:
        """Links to a member's profile page: a thread has one per post."""
        return _count_words("\n".join(self.refs).lower(), USER_HREF_WORDS)

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


def _count_words(text: str, words: Collection[str]) -> int:
    return sum(map(text.count, words))


def _list_features(scan: PageScan) -> dict[str, float]:
    """Language-neutral list signals: link-cut text, headline links, pagers, dates."""
    links = max(len(scan.link_pieces), 1)  # link texts: image-only links do not dilute
    headlines = sum(len(p.strip().encode("utf-8")) >= HEADLINE_BYTES for p in scan.link_pieces)
    run = _longest_run(scan)
    dates = scan.visible_count(_TEXT_DATE)
    link_weight = weight(scan.link_text)
    pager = _count_words(scan.link_text, PAGER_WORDS) + scan.head_pager
    return {
        "lst_run": log1p(run),
        "lst_run_share": min(run / scan.text_weight, 1.0),
        "lst_link_share": min(link_weight / scan.text_weight, 1.0),
        "lst_headlines": log1p(headlines),
        "lst_headline_share": headlines / links,
        "lst_mean_link": link_weight / links,
        "lst_page_numbers": log1p(len(_PAGE_NUMBER.findall(scan.link_text))),
        "lst_pager_words": log1p(pager),
        "lst_dates": log1p(dates),
        "lst_dates_per_headline": dates / max(headlines, 1),
    }


def _post_numbers(scan: PageScan) -> int:
    """Post numbers: "#12" and "楼" (floor, as in "3楼"), form text left out."""
    floors = scan.full_text.count("楼") - scan.hidden_text.count("楼")
    return scan.visible_count(_POST_NUMBER) + floors


# Forum-thread signals: repeated posts each carry a clock time, a number ("#12", "3楼"), an
# author link and reply/quote buttons; an article has one time and one author, a list no
# buttons. Each is computed only when asked for: the profile links need every href.
_POST: dict[str, Callable[[PageScan], float]] = {
    "post_clock_times": lambda scan: log1p(scan.visible_count(_CLOCK)),
    "post_numbers": lambda scan: log1p(_post_numbers(scan)),
    "post_user_links": lambda scan: log1p(scan.user_links),
    "post_user_link_share": lambda scan: scan.user_links / max(len(scan.refs), 1),
    "post_actions": lambda scan: log1p(_count_words(scan.link_text, ACTION_WORDS)),
}


def _tag_features(scan: PageScan, tags: Collection[str]) -> dict[str, float]:
    counts = scan.tag_counts({*tags, "h1", "h2", "h3"})
    features = {f"tag_{t}": counts[t] / scan.element_count for t in tags}
    features.update({f"head_{h}": log1p(counts[h]) for h in ("h1", "h2", "h3")})
    return features


def _head_features(scan: PageScan) -> dict[str, float]:
    """Type words in <title> and <meta content>, and the amount of visible text."""
    head = scan.head_text
    features = {f"head_kw_{kind}": log1p(_count_words(head, HEAD_WORDS[kind]))
                for kind in TYPE_CLASSES}
    features["txt_chars"] = log1p(scan.text_weight)
    return features


_FAMILIES: tuple[tuple[frozenset[str], Callable[[PageScan], dict[str, float]]], ...] = (
    (frozenset(("head", "txt")), _head_features),
    (frozenset(("lst",)), _list_features),
)


def page_features(root: html.HtmlElement,
                  names: Collection[str] | None = None) -> dict[str, float]:
    """Page features of one cleaned tree: all of them, or at least those in `names`."""
    def want(name: str) -> bool:
        return names is None or name in names

    wanted = None if names is None else {n.split("_", 1)[0] for n in names}
    scan = PageScan(root)
    features: dict[str, float] = {}
    for families, compute in _FAMILIES:
        if wanted is None or wanted & families:
            features.update(compute(scan))
    features.update({name: compute(scan) for name, compute in _POST.items() if want(name)})
    if wanted is None or wanted & {"tag", "head"}:
        features.update(_tag_features(scan, [t for t in COMMON_TAGS if want(f"tag_{t}")]))
    return features
