"""Record mining: choose the page's main record set among the candidates.

The method chooses "by position and size". Size is the text the records hold; what
separates the main list from menus, 'most read' boxes, tag clouds and pagination is
how the records read: each record carries a link with a real title (not a menu word
or a page number), is one item rather than a container of items, and does not sit
in a navigation, footer or sidebar block. A set in such a block is taken only when the
page has no other: a tag page's sidebar (categories, months, recent posts) is often
longer than its own list. A page whose list is too short to mine (one or two posts) has
its entries read from its linked headings (`heading_entries`).
"""

from __future__ import annotations

import re
from statistics import median

from lxml.html import HtmlElement

from pipelines.lexicon import MAIN_BLOCK_WORDS, NOISE_BLOCK_WORDS, STRONG_NOISE_BLOCK_WORDS
from pipelines.params import RECORD_MINING, RecordMiningParams
from pipelines.records.regions import Record, Region, heading_entries
from pipelines.records.tree_stats import TreeStats

_NOISE_TAGS = {"nav", "header", "footer", "aside"}
_PAGE_TAGS = {"html", "body", "main"}  # their classes name the page's kind, not a block
_ENTRY_PARTS = {"header", "footer"}
_WORD_SPLIT = re.compile(r"[^a-z]+")


def _noisy(element: HtmlElement, strong: bool = False) -> bool:
    """Navigation, footer, sidebar or ranking markup. Never the page itself (<body>'s class
    names the page's kind: `type-tags`), a block that calls itself main, an <article> (one
    entry, whatever its tag classes say), an entry's own header or footer, nor a
    header that holds articles (an unclosed page header swallows the page). `strong`: only
    the sure marks, a sidebar, widget, menu or footer (a weak word such as `side` or a
    wrapper id `header-wrapper` may hold a page's list)."""
    if element.tag in _PAGE_TAGS or element.tag == "article" or element.get("role") == "main":
        return False
    words = set(_WORD_SPLIT.split(f"{element.get('class', '')} {element.get('id', '')}".lower()))
    marks = STRONG_NOISE_BLOCK_WORDS if strong else NOISE_BLOCK_WORDS
    if words & MAIN_BLOCK_WORDS or not (element.tag in _NOISE_TAGS or words & marks):
        return False
    if (element.tag in _ENTRY_PARTS or words & _ENTRY_PARTS) and any(
            el.tag == "article" for el in element.iterancestors()):
        return False
    return element.find(".//article") is None


def in_noise_block(record: Record, strong: bool = False) -> bool:
    """Whether the record set sits inside navigation, footer, sidebar or ranking markup."""
    parent = record[0].getparent()
    return any(_noisy(el, strong) for el in ([parent] + list(parent.iterancestors()))
               if el is not None)


def _link_lengths(record: Record, stats: TreeStats) -> list[int]:
    return [stats.text[a] for top in record for a in top.iter("a") if a.get("href")]


def _title_count(lengths: list[int], params: RecordMiningParams) -> int:
    """Links as long as a title and at least half as long as the record's longest link."""
    longest = max(lengths, default=0)
    return sum(1 for n in lengths if n >= max(params.min_title_chars, longest / 2))


def region_score(region: Region, stats: TreeStats, params: RecordMiningParams) -> float:
    """Text the records hold, discounted for menu-like, container-like or noise-block sets."""
    links = [_link_lengths(record, stats) for record in region.records]
    linked = sum(1 for lengths in links if lengths) / len(links)
    if linked < params.min_linked_share:
        return 0.0
    title = median(max(lengths, default=0) for lengths in links)
    titles = median(_title_count(lengths, params) for lengths in links)
    total = sum(stats.text[el] for record in region.records for el in record)
    score = total * linked * min(1.0, title / params.min_title_chars)
    score /= max(1.0, titles / params.titles_per_record)
    if in_noise_block(region.records[0]):
        score *= params.noise_hint_factor
    return score


def _inside(region: Region, blocks: set[HtmlElement]) -> bool:
    return any(el in blocks for el in region.records[0][0].iterancestors())


def choose_region(
    regions: list[Region], stats: TreeStats, params: RecordMiningParams = RECORD_MINING,
    root: HtmlElement | None = None,
) -> Region | None:
    """The best-scoring set among those outside sure noise blocks (a set in a weaker one
    keeps `noise_hint_factor` of its score) and outside the page's entries
    (links in an excerpt are not the list) and the entries of the page's linked headings
    under `root` when they are one list (siblings: headings spread over a portal's boxes are
    not); else those entries, however short; else the best set in a noise block; None when
    nothing on the page reads like a list."""
    entries = heading_entries(root, _noisy) if root is not None else None
    blocks = {record[0] for record in entries.records} if entries else set()
    scored = [(region_score(region, stats, params), region) for region in regions]
    if entries is not None and len({record[0].getparent() for record in entries.records}) == 1:
        scored.append((region_score(entries, stats, params), entries))
    kept = [pair for pair in scored if pair[0] >= params.min_region_score]
    clean = [pair for pair in kept if pair[1] is entries or (
        not in_noise_block(pair[1].records[0], strong=True) and not _inside(pair[1], blocks))]
    if clean:
        return max(clean, key=lambda pair: pair[0])[1]
    if entries is not None:
        return entries
    return max(kept, key=lambda pair: pair[0])[1] if kept else None
