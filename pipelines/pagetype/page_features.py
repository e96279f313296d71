"""Page features of page-type classification, read off the cleaned tree in a few lxml calls.

A Python loop over every element costs about the whole budget, so the scan asks
libxml2 for what it needs in bulk: the body text serialised once (as UTF-8 bytes,
libxml2's own form), the non-blank text pieces inside links (one XPath; they also
count the links), the hrefs only for the profile-link features, XPath counts for
the two most common tags and one tag-filtered iter for the other counted tags and
the few form-like elements whose text is not visible page text. Regexes over the page text
start with a literal (":", "#", "19"/"20") so the regex engine skips between
candidates in C. Only the features the model names are computed (by family; post
features one by one). Lengths are UTF-8 bytes without whitespace, which weighs a
Chinese character about like a short English word, so thresholds do not depend on
language. Counts enter as log(1 + n) and shares as their square root (a variance-
stabilising transform: tag shares are heavy-tailed, most pages near 0, and min-max
scaling otherwise squeezes them together), so one huge page does not dominate scaling.
Feature names start with their family (txt, head, meta, tag, lst, post, blk, site): SVM-RFE
(`train-pagetype --rfe`) selects per family first.

Not computed, for no gain in their cost (docs/DECISIONS.md, "Page features"):
visible-text type words, punctuation and sentence statistics, href keyword shares.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Callable, Collection
from functools import cached_property, lru_cache
from itertools import compress
from math import log1p, sqrt
from operator import attrgetter
from typing import NamedTuple
from urllib.parse import urldefrag, urljoin

from lxml import etree, html

from pipelines.lexicon import (
    ACTION_WORDS,
    COMMON_TAGS,
    FLOOR_WORD,
    HEAD_WORDS,
    IGNORED_TAGS,
    META_NAME_WORDS,
    MONTHS,
    OG_TYPES,
    PAGER_WORDS,
    TYPE_CLASSES,
    USER_HREF_WORDS,
)
from pipelines.params import PAGE_FEATURES, PageFeatureParams

_ASCII_SPACE = b" \n\t\r"  # deleted in one C pass; the wider spaces are counted
# No-break and ideographic spaces, with their UTF-8 sizes.
_WIDE_SPACES = tuple((c, len(c.encode("utf-8"))) for c in ("\xa0", "\u3000"))
# A date string; one regex per century so each starts with a literal, which the regex engine
# skips to in C (a "(?:19|20)" alternation tests every character: 3x slower, same matches).
_DATE_REST = r"\d\d(?:[-/.]|年)[01]?\d(?:[-/.]|月)[0-3]?\d(?!\d)"
_TEXT_DATES = tuple(re.compile((century + _DATE_REST).encode()) for century in ("19", "20"))
_CLOCK = re.compile(rb":[0-5]\d(?!\d)")  # the minutes of a clock time: post and reply stamps
_POST_NUMBER = re.compile(rb"#\d{1,5}(?!\d)")  # "#12": a post's number in a thread
_FLOOR = FLOOR_WORD.encode()
# A year in the text, one regex per century (see _TEXT_DATES), and what makes it a date: a
# month written before it (a name, "December 2013", "Oct 25, 2023", "19 December 2013") or
# after it ("2011 年 4 月", "2011-04"). The windows are read only around each year. A name
# is not asked to start a word: the serialised text glues a headline to the date after it.
_YEARS = tuple(re.compile(rb"(?<!\d)" + century + rb"\d\d(?!\d)") for century in (b"19", b"20"))
_MONTH_BEFORE = re.compile(
    rb"(?i)(?:" + b"|".join(sorted((m.encode() for m in MONTHS), key=len, reverse=True))
    + rb")\.?,?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?$")
_MONTH_AFTER = re.compile(rb"\s*(?:[-/.]|\xe5\xb9\xb4)\s*[01]?\d(?!\d)")  # - / . 年
# A link text that is a month of a year alone ("2022年7月", "July 2013", "2013-07", with
# a post count "(4)" after it): an entry of a blog's archive widget. Read per line of the
# link text (one text piece a line).
_ARCHIVE_MONTH = re.compile(
    r"^[^\S\n]*(?:(?:" + "|".join(sorted(MONTHS, key=len, reverse=True))
    + r")\.?,?[^\S\n]+(?:19|20)\d\d"
    r"|(?:19|20)\d\d(?:[^\S\n]*年[^\S\n]*[01]?\d[^\S\n]*月|[-/.][01]?\d))"
    r"[^\S\n]*(?:\(\d+\))?[^\S\n]*$", re.M)
# Headings that hold a link: the titles of a list's items (an article's headline links to
# nothing, or once to itself); <time> elements, one a dated item. (<article> elements are no
# sign: themes wrap each comment or forum post in one as often as each listed post.)
_HEADLINE_LINKS = etree.XPath("count(descendant::*[self::h1 or self::h2 or self::h3 or self::h4]"
                              "[descendant::a[@href]])")
_TIMES = etree.XPath("count(descendant::time)")
_FREE_TIMES = etree.XPath("count(descendant::time[not(ancestor::a)])")  # outside links
# A link text that is a page number ("2"); the text is joined "\n" + pieces + "\n".
_PAGE_NUMBER = re.compile(r"\n[^\S\n]*\d{1,3}(?=[^\S\n]*\n)")

# Non-blank text nodes inside links, in document order. One `descendant::a/descendant::text()`
# step makes libxml2 check every link's texts against all found before (quadratic); child
# steps skip that check, so only text under elements nested in links pays it.
_LINK_TEXT = etree.XPath("descendant::a/text()[normalize-space()]"
                         " | descendant::a/*/descendant::text()[normalize-space()]",
                         smart_strings=False)
# The two most common tags (about 190 div and 110 li a page) are counted by libxml2, with
# no Python object per element, cheaper than in the tag iter.
_BULK_TAGS = {tag: etree.XPath(f"count(descendant::{tag})") for tag in ("div", "li")}
_HREFS = etree.XPath("descendant::a/@href", smart_strings=False)
# Elements below the root (the root is added): descendant-or-self costs libxml2 far more.
_ELEMENTS = etree.XPath("count(descendant::*)")


@lru_cache(maxsize=4)
def _prose_text(min_chars: int) -> etree.XPath:
    """Text nodes of at least `min_chars` characters (spaces collapsed): pieces of prose;
    shorter ones are menu items, separators, labels and dates (see dominant_prose). The
    cheap non-blank test drops the indentation between tags before the length test."""
    return etree.XPath("descendant::text()[normalize-space()]"
                       f"[string-length(normalize-space()) >= {min_chars}]")


# Paragraphs and the inline tags inside them: their text belongs to the block that holds them.
_PHRASING = frozenset(("p", "span", "font", "strong", "b", "em", "i", "u", "blockquote", "pre",
                       "br", "sup", "sub", "small", "code", "abbr", "cite", "q"))
# Ignored tags that can hold text of their own: void tags (input…) hold none, and option,
# optgroup and legend sit inside select or fieldset, whose text already includes theirs.
_TEXT_HOLDERS = tuple(sorted(IGNORED_TAGS - {"input", "isindex", "param", "option", "optgroup",
                                            "legend"}))
_HOLDER_SET = frozenset(_TEXT_HOLDERS)
_NOT_PROSE = IGNORED_TAGS | {"a"}
_TAG = attrgetter("tag")
# A holder inside another holder is already in its text; one in <head> is not body text.
_HOLDER_SCOPE = frozenset((*_TEXT_HOLDERS, "head"))


def weight(data: bytes, text: str | None = None) -> int:
    """UTF-8 bytes without whitespace: a language-neutral amount of text.

    Deleting ASCII whitespace is one C pass (cheaper than splitting the text or
    counting each space character in it). `text` is `data` decoded, when the caller
    has it: the link text is, which saves decoding it again.
    """
    kept = len(data.translate(None, _ASCII_SPACE))
    if data.isascii():  # no wide spaces possible
        return kept
    # Decoding and counting characters is faster than searching the two-byte and
    # three-byte sequences, whose bytes are common inside CJK text.
    text = data.decode("utf-8") if text is None else text
    return kept - sum(text.count(space) * size for space, size in _WIDE_SPACES)


def _text_bytes(element: html.HtmlElement) -> bytes:
    return etree.tostring(element, method="text", encoding="utf-8", with_tail=False)


class _Head(NamedTuple):
    """What the features read in <head>, lower-cased."""

    text: str  # <title> and meta contents: what the page says it is about
    meta_names: str  # meta property, name and itemprop values
    og_type: str
    pagers: int  # <link rel="next"/"prev">: the page is one of a paged series


def _read_head(head: html.HtmlElement | None) -> _Head:
    """One pass over the few dozen children of <head> (cheaper than four XPath queries).
    Each tag and attribute is read once: lxml builds a new string per read."""
    texts, names, og_type, pagers = [], [], "", 0
    for child in head if head is not None else ():
        tag = child.tag
        if tag == "meta":
            get = child.get
            content, kind = get("content") or "", get("property") or ""
            texts.append(content)
            names += (kind, get("name") or "", get("itemprop") or "")
            if kind == "og:type":
                og_type += " " + content
        elif tag == "title":
            texts.append(child.text or "")
        elif tag == "link" and child.get("rel") in ("next", "prev"):
            pagers += 1
    return _Head(" ".join(texts).lower(), " ".join(names).lower(), og_type.lower(), pagers)


class _Walk(NamedTuple):
    counts: Counter[str]
    holders: list[html.HtmlElement]  # outermost text holders in <body>


class PageScan:
    """What the features read from one tree, each fetched once and only when first needed.

    `tags` are the tags whose elements will be counted: they are collected in the same
    walk that finds the text holders.
    """

    def __init__(self, root: html.HtmlElement, tags: Collection[str] = (),
                 params: PageFeatureParams = PAGE_FEATURES) -> None:
        found = root.find("body")
        self.params = params
        self.root = root
        self.body = found if found is not None else root
        self.tags = frozenset(tags)

    @cached_property
    def _walk(self) -> _Walk:
        """One tag-filtered walk for the counted tags (but div and li, counted by libxml2)
        and the text holders; tags are read once and tallied in C."""
        elements = list(self.root.iter(*self.tags.difference(_BULK_TAGS), *_HOLDER_SCOPE))
        tags = list(map(_TAG, elements))
        # Holders and heads are a few of the elements: picked in C, not in a Python loop over
        # all. A holder is outermost when none of them is its ancestor: a set test on its
        # ancestors (iterancestors filtered by the scope's tags is dear to set up per call).
        scope = list(compress(elements, map(_HOLDER_SCOPE.__contains__, tags)))
        inside = set(scope)
        holders = [el for el in scope
                   if el.tag in _HOLDER_SET and inside.isdisjoint(el.iterancestors())]
        return _Walk(Counter(tags), holders)

    @cached_property
    def tag_counts(self) -> Counter[str]:
        """Elements per tag (the tags asked for, text holders, head) in the whole document."""
        counts = self._walk.counts
        counts.update({t: int(_BULK_TAGS[t](self.root)) for t in self.tags & _BULK_TAGS.keys()})
        return counts

    @cached_property
    def element_count(self) -> int:
        return int(_ELEMENTS(self.root)) + 1

    @cached_property
    def text_dates(self) -> int:
        """Dates in the visible text (any common form, see _dates), <head> left out: read
        once for both visible_dates and own_dates."""
        window = self.params.month_window
        return _dates(self.full_text, window) - _dates(self.hidden_text, window)

    @cached_property
    def full_text(self) -> bytes:
        """All body text in document order, hidden-tag text included, as UTF-8.

        One C serialisation; libxml2 holds text as UTF-8, so bytes skip a decode, and
        weights and the regexes below read them without an encode.
        """
        return _text_bytes(self.body)

    @cached_property
    def hidden_text(self) -> bytes:
        """Text under the ignored tags (forms, buttons…): subtracted from every text figure."""
        return b"\n".join(map(_text_bytes, self._walk.holders))

    @cached_property
    def text_weight(self) -> int:
        return max(weight(self.full_text) - weight(self.hidden_text), 1)

    def visible_count(self, *patterns: re.Pattern[bytes]) -> int:
        """Matches of `patterns` in the body text, less those in ignored (form) text."""
        found = sum(len(p.findall(self.full_text)) for p in patterns)
        return found - sum(len(p.findall(self.hidden_text)) for p in patterns) if found else 0

    @cached_property
    def link_pieces(self) -> list[str]:
        """Text nodes inside links, whitespace-only ones left out by libxml2.

        Still the dearest single call (see _LINK_TEXT), yet a Python loop over the links
        (itertext per link) is slower.
        """
        return _LINK_TEXT(self.body)

    @cached_property
    def link_bytes(self) -> list[bytes]:
        """The link pieces as UTF-8, encoded once for the run search and the headline count."""
        return list(map(str.encode, self.link_pieces))

    @cached_property
    def link_text(self) -> str:
        """All link text, lower-cased, one piece a line, with a newline before and after."""
        return "\n" + "\n".join(self.link_pieces).lower() + "\n"

    @cached_property
    def link_weight(self) -> int:
        return weight(self.link_text.encode(), self.link_text)

    @cached_property
    def refs(self) -> list[str]:
        return _HREFS(self.body)

    @cached_property
    def user_links(self) -> int:
        """Links to a member's profile page: a thread has one per post."""
        return _count_words("\n".join(self.refs).lower(), USER_HREF_WORDS)

    @cached_property
    def head(self) -> _Head:
        return _read_head(self.root.find("head"))

    @cached_property
    def prose_blocks(self) -> tuple[Counter[html.HtmlElement],
                                    dict[html.HtmlElement, html.HtmlElement]]:
        """Each block's (the element around paragraphs and inline text) weight of prose
        outside links and the ignored tags, and the element holding its first piece of
        prose: walked once for dominant_prose and prose_headline."""
        blocks: Counter[html.HtmlElement] = Counter()
        first: dict[html.HtmlElement, html.HtmlElement] = {}
        for piece in _prose_text(self.params.prose_min_chars)(self.body):
            holder = block = piece.getparent()
            if piece.is_tail:
                block = block.getparent()
            while block is not None and block.tag in _PHRASING:
                block = block.getparent()
            if block is not None and block.tag not in _NOT_PROSE:
                blocks[block] += weight(piece.encode(), piece)
                first.setdefault(block, holder)
        return blocks, first


def _longest_run(scan: PageScan) -> int:
    """Weight of the longest stretch of body text with no link in it.

    Articles have one long stretch (the body); lists are cut into short pieces by
    their links. Link pieces are found in the serialised text in document order: each is
    a text node of the body, so it is found, at its own place or before it (one that is
    not, which no evaluation page has, is skipped rather than read as a gap).
    """
    text, pos = scan.full_text, 0
    find = text.find
    # The longest gaps between pieces so far, a min-heap of (size, start) filled in the
    # search loop: one comparison a piece instead of a list of gaps and nlargest's Python
    # loop over them. A later gap as long as the
    # shortest kept one ranks above it: it starts later.
    gaps = [(-1, -1)] * scan.params.run_candidates
    for piece in scan.link_bytes:
        start = find(piece, pos)
        if start < 0:  # not expected (every piece is a body text node): never move back
            continue
        if start - pos >= gaps[0][0]:
            heapq.heapreplace(gaps, (start - pos, pos))
        pos = start + len(piece)
    heapq.heappushpop(gaps, (len(text) - pos, pos))
    longest = 0
    for size, start in sorted(gaps, reverse=True):
        if size <= longest:  # a gap weighs at most its bytes: no smaller gap can win
            break
        longest = max(longest, weight(text[start:start + size]))
    return longest


def _headlines(scan: PageScan) -> int:
    """Link texts of at least `headline_bytes` once stripped (of Unicode whitespace).

    Stripping only shortens a text, so only pieces that long unstripped are stripped
    and re-encoded: most link pieces are shorter.
    """
    heavy = scan.params.headline_bytes.__le__
    long_enough = compress(scan.link_pieces, map(heavy, map(len, scan.link_bytes)))
    return sum(map(heavy, map(len, map(str.encode, map(str.strip, long_enough)))))


def _count_words(text: str, words: Collection[str]) -> int:
    return sum(map(text.count, words))


def _list_features(scan: PageScan) -> dict[str, float]:
    """Language-neutral list signals: link-cut text, headline links, pagers, dates."""
    links = max(len(scan.link_pieces), 1)  # link texts: image-only links do not dilute
    headlines = _headlines(scan)
    run = _longest_run(scan)
    dates = scan.visible_count(*_TEXT_DATES)
    link_weight = scan.link_weight
    pager = _count_words(scan.link_text, PAGER_WORDS) + scan.head.pagers
    return {
        "lst_run": log1p(run),
        "lst_run_share": sqrt(min(run / scan.text_weight, 1.0)),
        "lst_link_share": sqrt(min(link_weight / scan.text_weight, 1.0)),
        "lst_headlines": log1p(headlines),
        "lst_headline_share": sqrt(headlines / links),
        "lst_mean_link": link_weight / links,
        "lst_page_numbers": log1p(len(_PAGE_NUMBER.findall(scan.link_text))),
        "lst_pager_words": log1p(pager),
        "lst_dates": log1p(dates),
        "lst_dates_per_headline": dates / max(headlines, 1),
    }


class Prose(NamedTuple):
    """The block holding the most prose: its weight and its share of the page's link-free text."""

    weight: int
    share: float


def dominant_prose(scan: PageScan) -> Prose:
    """The block (the element around paragraphs and inline text) with the most prose outside links.

    An article keeps its text in one block, however much navigation surrounds it; a list
    spreads its snippets over repeated records, one block each (a blog front page: one per
    post). It costs about what the features cost (libxml2 reads every text node, then a
    Python step per prose piece), so classify_page asks only on pages the classifier calls
    list. Text under links and the ignored tags is not prose. The share's denominator is
    the page's link-free text, or the prose found when that is smaller (a page inside one
    <form>, whose text is ignored).
    """
    blocks, _ = scan.prose_blocks
    if not blocks:
        return Prose(0, 0.0)
    largest = max(blocks.values())
    link_free = max(scan.text_weight - scan.link_weight, blocks.total())
    return Prose(largest, largest / link_free)


_BEFORE_HEADING = etree.XPath("preceding::*[self::h1 or self::h2 or self::h3]")


def prose_headline(scan: PageScan, url: str | None) -> bool | None:
    """Whether any h1-h3 before the dominant prose block's first piece of prose (see
    dominant_prose) links away (True: a listed record's title), none does (False: the
    page's main text comes before any listed record; its headline links nowhere), or no
    heading comes before it (None)."""
    blocks, first = scan.prose_blocks
    if not blocks:
        return None
    block = max(blocks, key=blocks.__getitem__)
    found = _BEFORE_HEADING(first[block])
    if not found:
        return None
    return any(heading.find(".//a[@href]") is not None and _links_away(heading, url)
               for heading in found)


def _dates(text: bytes, window: int) -> int:
    """Dates in the text in any common form (see _YEARS): a year with its month (a name
    within `window` bytes before it)."""
    found = 0
    for years in _YEARS:
        for match in years.finditer(text):
            start, end = match.span()
            found += bool(_MONTH_AFTER.match(text, end)
                          or _MONTH_BEFORE.search(text[max(start - window, 0):start]))
    return found


def visible_dates(scan: PageScan) -> int:
    """Dates in the page's visible text (any common form, see _dates), or its <time>
    elements when they are more: what the reader sees dated, <head> left out."""
    return max(scan.text_dates, int(_TIMES(scan.body)), 0)


# A numeric date that puts the day or month first ("05/10/2018", "5.10.2018", "05-10-2018"):
# the common form in Europe, Latin America and India, which _dates (a year first, or a month's
# name) does not read.
_DAY_FIRST = re.compile(rb"(?<![\d/.-])[0-3]?\d[-/.][01]?\d[-/.](?:19|20)\d\d(?![\d/.-])")


def _day_first(text: bytes) -> int:
    return len(_DAY_FIRST.findall(text))


def own_dates(scan: PageScan, day_first: bool = False) -> int:
    """Dates the page shows outside its links (see visible_dates), or its <time> elements
    outside links when they are more: the page's own dates. A date in a link's text dates
    another page (an archive widget's "November 2012", a "previous post" or related-stories
    link, a sidebar of recent posts), so a short post beside a dated archive shows one date of
    its own, where a list dates each of its records beside the record's link."""
    links = b"\n".join(scan.link_bytes)
    dates = scan.text_dates - _dates(links, scan.params.month_window)
    if day_first and dates <= 0:  # no date in the other forms: read the day-first ones
        dates = (_day_first(scan.full_text) - _day_first(scan.hidden_text)
                 - _day_first(links))
    return max(dates, int(_FREE_TIMES(scan.body)), 0)


# The headings that delimit a listed post: h1 and h2 may title one (see linked_headings).
_HEADINGS = ("h1", "h2", "h3")


def _same_page(href: str, url: str | None) -> bool:
    """Whether `href` (resolved against `url`) leads to the page itself: empty, a fragment,
    a script, or the page's own address (fragment and trailing "/" aside)."""
    href = href.strip()
    if not href or href.startswith("#") or href.lower().startswith("javascript:"):
        return True
    if not url:
        return False
    resolved = urldefrag(urljoin(url, href))[0].rstrip("/")
    return resolved == urldefrag(url)[0].rstrip("/")


def _links_away(heading: html.HtmlElement, url: str | None) -> bool:
    """The heading's text is a link to another page: a link that holds at least half the
    heading's text and leads off the page (see _same_page)."""
    text = weight(_text_bytes(heading))
    return any(2 * weight(_text_bytes(link)) >= max(text, 1)
               for link in heading.iter("a")
               if link.get("href") is not None and not _same_page(link.get("href"), url))


def linked_headings(root: html.HtmlElement, url: str | None, min_text: int = 0,
                    titles: Collection[str] = ("h1", "h2")) -> int:
    """h1/h2 headings (`titles`) whose text is a link to another page (see _links_away),
    followed by at least `min_text` bytes of text outside links before the next h1–h3 heading:
    a listed post's title over its excerpt or its whole text. An article's headline links
    nowhere, or to itself; a box of related links stacks linked headings with no text between
    them. h3 delimits them; with `titles` holding "h3" it titles a record too (a blog index that
    titles its first post h1 and the rest h3)."""
    found, current, text = 0, None, 0
    skip: set[html.HtmlElement] = set()
    for element in root.iter():
        tag = element.tag
        if tag in _HEADINGS:
            if current is not None and text >= min_text:
                found += 1
            linked = tag in titles and element.find(".//a[@href]") is not None
            current = element if linked and _links_away(element, url) else None
            skip, text = set(element.iterdescendants()), 0
            text += weight((element.tail or "").encode()) if current is not None else 0
            continue
        if current is None or element in skip:
            continue
        if tag == "a":  # link text is no text of the heading's own: a menu, a "read more"
            skip.update(element.iterdescendants())
        elif isinstance(tag, str):
            text += weight((element.text or "").encode())
        text += weight((element.tail or "").encode())
    if current is not None and text >= min_text:
        found += 1
    return found


def _block_features(scan: PageScan) -> dict[str, float]:
    """How many items the page stacks: dated items (dates in any form, <time> elements) and
    headlines that link away (each a list item's title). An article has one dated headline;
    a list, an archive or a digest of whole posts has one per item."""
    window = scan.params.month_window
    dates = _dates(scan.full_text, window) - _dates(scan.hidden_text, window)
    links = _HEADLINE_LINKS(scan.body)
    times = _TIMES(scan.body)
    return {
        "blk_dates": log1p(max(dates, 0)),
        "blk_undated": float(dates <= 0 and not times),
        "blk_times": log1p(times),
        "blk_headline_links": log1p(links),
    }


# A readers' comment section (WordPress, Disqus and the themes that copy their names): its
# container or its form. An article with a thread below it keeps it; a list has none, though
# its items repeat dates and author links as the thread's comments do. Ids and classes are
# fetched as strings and tested in Python: an XPath predicate testing them on every element
# costs 3x more (1.18 against 0.36 ms a labelled page).
_IDS = etree.XPath("descendant::*/@id", smart_strings=False)
_CLASSES = etree.XPath("descendant::*/@class", smart_strings=False)
_COMMENT_IDS = frozenset(("comments", "respond", "disqus_thread"))
_COMMENT_CLASS = re.compile("comment-list|commentlist|comments-area|comment-respond")


def _comment_area(scan: PageScan) -> float:
    """1.0 when the page holds a comment section (see _COMMENT_IDS, _COMMENT_CLASS)."""
    return float(not _COMMENT_IDS.isdisjoint(_IDS(scan.body))
                 or _COMMENT_CLASS.search(" ".join(_CLASSES(scan.body))) is not None)


def _post_numbers(scan: PageScan) -> int:
    """Post numbers: "#12" and "楼" (floor, as in "3楼"), form text left out."""
    floors = scan.full_text.count(_FLOOR) - scan.hidden_text.count(_FLOOR)
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
    "post_comment_area": _comment_area,
}


def _tag_features(scan: PageScan, tags: Collection[str]) -> dict[str, float]:
    counts = scan.tag_counts
    features = {f"tag_{t}": sqrt(counts[t] / scan.element_count) for t in tags}
    features.update({f"head_{h}": log1p(counts[h]) for h in ("h1", "h2", "h3")})
    return features


def _head_features(scan: PageScan) -> dict[str, float]:
    """Type words in <title> and <meta content>, and the amount of visible text."""
    head = scan.head.text
    features = {f"head_kw_{kind}": log1p(_count_words(head, HEAD_WORDS[kind]))
                for kind in TYPE_CLASSES}
    features["txt_chars"] = log1p(scan.text_weight)
    return features


def _meta_features(scan: PageScan) -> dict[str, float]:
    """What the page says it is in <head> meta tags: publishing dates, author, og:type.

    A page without og:type gets no og features (absent: the training mean, no evidence),
    not "neither article nor website": a 0 taught "no og:type, no blog", which sent old
    blog pages of other sites to `other` (docs/DECISIONS.md, "Page features").
    """
    names = scan.head.meta_names
    features = {f"meta_{key}": float(any(w in names for w in words))
                for key, words in META_NAME_WORDS.items()}
    if scan.head.og_type:
        features.update({f"meta_og_{kind}": float(kind in scan.head.og_type)
                         for kind in OG_TYPES})
    return features


def _site_features(scan: PageScan) -> dict[str, float]:
    """A site's furniture that says what kind of site it is: a blog's archive widget (one link
    per month that has posts), which news sites do not carry."""
    return {"site_archive_links": log1p(len(_ARCHIVE_MONTH.findall(scan.link_text)))}


_FAMILIES: tuple[tuple[frozenset[str], Callable[[PageScan], dict[str, float]]], ...] = (
    (frozenset(("head", "txt")), _head_features),
    (frozenset(("site",)), _site_features),
    (frozenset(("lst",)), _list_features),
    (frozenset(("meta",)), _meta_features),
    (frozenset(("blk",)), _block_features),
)


class _Plan(NamedTuple):
    """What page_features computes for one set of feature names."""

    families: tuple[Callable[[PageScan], dict[str, float]], ...]
    post: tuple[tuple[str, Callable[[PageScan], float]], ...]
    tags: tuple[str, ...] | None  # tags with a share feature; None: no tag or head family


@lru_cache(maxsize=8)
def _plan(names: frozenset[str] | None) -> _Plan:
    """The families, post features and tags `names` asks for (all for None).

    Cached per name set: deciding it again for every page is measurable work.
    """
    def want(name: str) -> bool:
        return names is None or name in names

    wanted = None if names is None else {n.split("_", 1)[0] for n in names}
    return _Plan(
        tuple(compute for families, compute in _FAMILIES if wanted is None or wanted & families),
        tuple((name, compute) for name, compute in _POST.items() if want(name)),
        tuple(t for t in COMMON_TAGS if want(f"tag_{t}"))
        if wanted is None or wanted & {"tag", "head"} else None,
    )


def page_scan(root: html.HtmlElement, names: Collection[str] | None = None,
              params: PageFeatureParams = PAGE_FEATURES) -> PageScan:
    """The scan page_features reads for `names` (classify_page may read it again)."""
    plan = _plan(None if names is None else frozenset(names))
    return PageScan(root, () if plan.tags is None else (*plan.tags, "h1", "h2", "h3"), params)


def page_features(root: html.HtmlElement, names: Collection[str] | None = None,
                  scan: PageScan | None = None,
                  params: PageFeatureParams = PAGE_FEATURES) -> dict[str, float]:
    """Page features of one cleaned tree: all of them, or at least those in `names`
    (read off `scan` when given: it must be `page_scan(root, names, params)`)."""
    plan = _plan(None if names is None else frozenset(names))
    scan = scan if scan is not None else page_scan(root, names, params)
    features: dict[str, float] = {}
    for compute in plan.families:
        features.update(compute(scan))
    features.update({name: compute(scan) for name, compute in plan.post})
    if plan.tags is not None:
        features.update(_tag_features(scan, plan.tags))
    return features
