"""Record mining: choose the page's main record set among the candidates.

The method chooses "by position and size". Size is the text the records hold; what
separates the main list from menus, 'most read' boxes, tag clouds and pagination is
how the records read: each record carries a link with a real title (not a menu word
or a page number), is one item rather than a container of items, and does not sit
in a navigation, footer or sidebar block.
"""

from __future__ import annotations

import re
from statistics import median

from lxml.html import HtmlElement

from pipelines.lexicon import NOISE_BLOCK_WORDS
from pipelines.params import RECORD_MINING, RecordMiningParams
from pipelines.records.regions import Record, Region
from pipelines.records.tree_stats import TreeStats

_NOISE_TAGS = {"nav", "header", "footer", "aside"}
_WORD_SPLIT = re.compile(r"[^a-z]+")


def _noisy(element: HtmlElement) -> bool:
    words = f"{element.get('class', '')} {element.get('id', '')}".lower()
    return element.tag in _NOISE_TAGS or any(
        word in NOISE_BLOCK_WORDS for word in _WORD_SPLIT.split(words) if word
    )


def in_noise_block(record: Record) -> bool:
    """Whether the record set sits inside navigation, footer, sidebar or ranking markup."""
    parent = record[0].getparent()
    return any(_noisy(el) for el in ([parent] + list(parent.iterancestors())) if el is not None)


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


def choose_region(
    regions: list[Region], stats: TreeStats, params: RecordMiningParams = RECORD_MINING
) -> Region | None:
    """The best-scoring record set, or None when nothing on the page reads like a list."""
    scored = [(region_score(region, stats, params), region) for region in regions]
    best = max(scored, key=lambda pair: pair[0], default=None)
    return best[1] if best and best[0] >= params.min_region_score else None
