"""Record mining: candidate record sets, groups of similar sibling subtrees (as MDR).

Each child is compared with the next few siblings only, so a 2,000-item list costs a few
thousand cached comparisons. Similar pairs are merged into groups (groups that share
a subtree merge). A repeating period of several different siblings (dt + dd,
h2 + p + div) becomes one record spanning them, as MDR's generalised nodes. Groups
under similar parents (one list split into several <ul>) are merged into one set.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from lxml.html import HtmlElement

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


def sibling_labels(children: list[HtmlElement], matcher: TreeMatcher, window: int) -> list[int]:
    """Group label per child: children in one similarity group share a label (union–find).

    Siblings with the same tag and the same non-empty class attribute also share one:
    the page's template made them alike even where their content differs in shape
    (a thread with pictures next to one without).
    """
    parent_of = list(range(len(children)))
    first_of_kind: dict[tuple[str, str], int] = {}
    for i, child in enumerate(children):
        for j in range(i + 1, min(i + 1 + window, len(children))):
            if _find(parent_of, i) != _find(parent_of, j) and matcher.similar(child, children[j]):
                parent_of[_find(parent_of, j)] = _find(parent_of, i)
        kind = (child.tag, " ".join((child.get("class") or "").split()))
        if kind[1]:
            parent_of[_find(parent_of, i)] = _find(parent_of, first_of_kind.setdefault(kind, i))
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
    """Record sets among one parent's children: single-node groups and one periodic run."""
    labels = sibling_labels(children, matcher, params.sibling_window)
    regions: list[Region] = []
    taken: set[int] = set()
    run = _periodic_run(labels, [c.tag for c in children], params.max_record_span)
    if run:
        start, stop, period = run
        records = [tuple(children[i:i + period]) for i in range(start, stop - period + 1, period)]
        regions.append(Region(records))
        taken.update(range(start, start + period * len(records)))
    groups: dict[int, list[int]] = defaultdict(list)
    for i, label in enumerate(labels):
        if i not in taken:
            groups[label].append(i)
    for members in groups.values():
        if len(members) >= params.min_records:
            regions.append(Region([(children[i],) for i in members]))
    return regions


def _cousin_key(
    region: Region, owner: dict[HtmlElement, int], params: RecordMiningParams
) -> tuple[int, int, tuple[str, ...]] | None:
    """Which set and depth the region's nearest record-ancestor sits at, if any."""
    ancestor = region.records[0][0].getparent()
    for level in range(params.cousin_levels):
        if ancestor is None:
            return None
        if ancestor in owner:
            return owner[ancestor], level, tuple(el.tag for el in region.records[0])
        ancestor = ancestor.getparent()
    return None


def _merge_cousins(regions: list[Region], params: RecordMiningParams) -> list[Region]:
    """Add the union of sets whose parents sit in records of one set (a split list)."""
    owner = {record[0]: index for index, region in enumerate(regions)
             for record in region.records if len(record) == 1}
    buckets: dict[tuple[int, int, tuple[str, ...]], list[Region]] = defaultdict(list)
    for region in regions:
        key = _cousin_key(region, owner, params)
        if key is not None:
            buckets[key].append(region)
    joined = [Region([record for region in bucket for record in region.records])
              for bucket in buckets.values() if len(bucket) > 1]
    return regions + joined


def find_regions(
    root: HtmlElement, stats: TreeStats, params: RecordMiningParams = RECORD_MINING
) -> list[Region]:
    """Every candidate record set under `root`, split lists also joined into one set."""
    matcher = TreeMatcher(stats, params)
    regions: list[Region] = []
    for parent in root.iter():
        if not isinstance(parent.tag, str):
            continue
        children = element_children(parent)
        if len(children) >= params.min_records:
            regions.extend(sibling_regions(children, matcher, params))
    return _merge_cousins(regions, params)
