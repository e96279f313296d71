"""Record mining: candidate record sets, groups of similar sibling subtrees (as MDR).

Each child is compared with the next few siblings only, so a 2,000-item list costs a few
thousand cached comparisons. Similar pairs are merged into groups (groups that share
a subtree merge). A repeating period of several different siblings (dt + dd,
h2 + p + div) becomes one record spanning them, as MDR's generalised nodes. Groups
under similar parents (one list split into several <ul>) are merged into one set, also
across levels (months inside years). Sibling <article> elements, and siblings of one tag
whose first class word is the same, are one group whatever their size: the page's
template made them alike (posts shown whole or with long excerpts differ in shape).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from lxml.html import HtmlElement

from pipelines.deadline import NO_DEADLINE, Deadline
from pipelines.document import element_children
from pipelines.params import RECORD_MINING, RecordMiningParams
from pipelines.records.tree_match import TreeMatcher
from pipelines.records.tree_stats import TreeStats

Record = tuple[HtmlElement, ...]  # one record: one or more adjacent sibling elements


@dataclass
class Region:
    """One candidate record set: records in document order."""

    records: list[Record]


def _find(parent_of: list[int], i: int) -> int:
    while parent_of[i] != i:
        parent_of[i] = parent_of[parent_of[i]]
        i = parent_of[i]
    return i


def kind(element: HtmlElement) -> str | None:
    """The template's mark on an element: an <article> (HTML's one entry of a list), or the
    tag with its first class word (WordPress adds per-post classes after it)."""
    if element.tag == "article":
        return "article"
    classes = (element.get("class") or "").split()
    return f"{element.tag}.{classes[0]}" if classes else None


def sibling_labels(children: list[HtmlElement], matcher: TreeMatcher, window: int) -> list[int]:
    """Group label per child: children in one similarity group share a label (union–find).

    Siblings of one kind (see `kind`) also share one: the page's template made them alike
    even where their content differs in shape (a thread with pictures next to one without,
    a post shown whole next to a short one).
    """
    parent_of = list(range(len(children)))
    first_of_kind: dict[str, int] = {}
    for i, child in enumerate(children):
        for j in range(i + 1, min(i + 1 + window, len(children))):
            if _find(parent_of, i) != _find(parent_of, j) and matcher.similar(child, children[j]):
                parent_of[_find(parent_of, j)] = _find(parent_of, i)
        mark = kind(child)
        if mark:
            parent_of[_find(parent_of, i)] = _find(parent_of, first_of_kind.setdefault(mark, i))
    return [_find(parent_of, i) for i in range(len(children))]


def _periodic_run(labels: list[int], tags: list[str], span: int) -> tuple[int, int, int] | None:
    """The widest run (start, stop, period ≥ 2) whose period holds different tags."""
    best: tuple[int, int, int] | None = None
    for period in range(2, span + 1):
        start = 0
        while start + period < len(labels):
            stop = start
            while stop + period < len(labels) and labels[stop] == labels[stop + period]:
                stop += 1
            covered = stop + period - start
            head = tags[start:start + period]
            if (stop > start and covered >= 2 * period and len(set(head)) > 1
                    and (best is None or covered > best[1] - best[0])):
                best = (start, stop + period, period)
            start = stop + 1
    return best


def sibling_regions(
    children: list[HtmlElement], matcher: TreeMatcher, params: RecordMiningParams
) -> list[Region]:
    """Record sets among one parent's children: single-node groups and one periodic run.
    A group may share members with the run (posts between date headings): scoring picks."""
    labels = sibling_labels(children, matcher, params.sibling_window)
    regions: list[Region] = []
    run = _periodic_run(labels, [c.tag for c in children], params.max_record_span)
    if run:
        start, stop, period = run
        records = [tuple(children[i:i + period]) for i in range(start, stop - period + 1, period)]
        regions.append(Region(records))
    groups: dict[int, list[int]] = defaultdict(list)
    for i, label in enumerate(labels):
        groups[label].append(i)
    for members in groups.values():
        if len(members) >= params.min_records:
            regions.append(Region([(children[i],) for i in members]))
    return regions


def _cousin_key(
    region: Region, owner: dict[HtmlElement, str], params: RecordMiningParams
) -> tuple[str, int, tuple[str, ...]] | None:
    """Which kind of record and depth the region's nearest record-ancestor is, if any."""
    ancestor = region.records[0][0].getparent()
    for level in range(params.cousin_levels):
        if ancestor is None:
            return None
        if ancestor in owner:
            return owner[ancestor], level, tuple(kind(el) or el.tag for el in region.records[0])
        ancestor = ancestor.getparent()
    return None


def _merge_cousins(regions: list[Region], params: RecordMiningParams) -> list[Region]:
    """Add the union of sets whose parents sit in records of one set, or of one kind of
    record at any level (a list split by month, the months by year)."""
    owner = {el: kind(el) or f"set {index}" for index, region in enumerate(regions)
             for record in region.records for el in record}
    buckets: dict[tuple[str, int, tuple[str, ...]], list[Region]] = defaultdict(list)
    for region in regions:
        key = _cousin_key(region, owner, params)
        if key is not None:
            buckets[key].append(region)
    joined = [Region([record for region in bucket for record in region.records])
              for bucket in buckets.values() if len(bucket) > 1]
    return regions + joined


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_WALL_TAGS = {"body", "main", "html"}


def _heading_link(heading: HtmlElement) -> HtmlElement | None:
    """The link a heading is (its text inside <a>, or <a> around it), if any."""
    inner = next((a for a in heading.iter("a") if a.get("href")), None)
    if inner is not None:
        return heading
    outer = heading.getparent()
    if outer is not None and outer.tag == "a" and outer.get("href"):
        return outer
    return None


def _level(heading: HtmlElement) -> int:
    return int(heading.tag[1])


def _two_headings(element: HtmlElement, level: int) -> bool:
    """Whether the element holds two headings of this level or higher (stops at two)."""
    found = 0
    for heading in element.iter(*_HEADINGS):
        found += _level(heading) <= level
        if found > 1:
            return True
    return False


def heading_entries(
    root: HtmlElement, noisy: Callable[[HtmlElement], bool]
) -> Region | None:
    """Entries of a list too short to mine: each linked heading outside noise blocks (of
    the most frequent level, the higher on a tie), widened to the largest block holding no
    other entry and no higher heading. Why: a tag or month page with one or two posts still
    lists them as teasers."""
    levels: dict[int, list[HtmlElement]] = defaultdict(list)
    for heading in root.iter(*_HEADINGS):
        entry = _heading_link(heading)
        if entry is None:
            continue
        href = next((a.get("href", "") for a in entry.iter("a") if a.get("href")), "").strip()
        if href.startswith(("#", "javascript:")) or any(noisy(el) for el in entry.iterancestors()):
            continue
        levels[_level(heading)].append(entry)
    if not levels:
        return None
    level, entries = max(levels.items(), key=lambda pair: (len(pair[1]), -pair[0]))
    records: list[Record] = []
    for entry in entries:
        top, parent = entry, entry.getparent()
        while parent is not None and parent.tag not in _WALL_TAGS and not _two_headings(
                parent, level):
            top, parent = parent, parent.getparent()
        records.append((top,))
    return Region(records)


def find_regions(
    root: HtmlElement, stats: TreeStats, params: RecordMiningParams = RECORD_MINING,
    deadline: Deadline = NO_DEADLINE, max_records: int | None = None,
) -> list[Region]:
    """Every candidate record set under `root`, split lists also joined into one set; raises
    OutOfTimeError when the deadline passes (checked at every parent of several children).
    With `max_records`, a parent's children past the first `max_records` records of
    `max_record_span` siblings each are not compared: records past the cap are dropped
    anyway, and a hostile list's comparisons stay bounded."""
    matcher = TreeMatcher(stats, params)
    regions: list[Region] = []
    most = None if max_records is None else max_records * params.max_record_span
    for parent in root.iter():
        if not isinstance(parent.tag, str):
            continue
        children = element_children(parent)[:most]
        if len(children) >= params.min_records:
            deadline.check("record regions")
            regions.extend(sibling_regions(children, matcher, params))
    return _merge_cousins(regions, params)
