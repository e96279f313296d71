"""Template diff: from an alignment to blocks, template blocks and the main content.

Template blocks are the largest target subtrees in which every node matched the
sibling: the parts both pages share. Candidate blocks (deletions and weak
substitutions) are grouped by parent / grandparent and scored per metric, top three
+5/+3/+1 (link ratio −5/−3/−1); the best group(s) are the main content.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from pipelines.params import TEMPLATE_DIFF, TemplateDiffParams
from pipelines.template_diff.align import Alignment
from pipelines.template_diff.feature_tree import FeatureNode

CONTENT_TAGS = frozenset({"p", "br", "img", "pre", "blockquote", "figure", "video"})


def template_blocks(nodes: list[FeatureNode], alignment: Alignment) -> list[int]:
    """Maximal target subtrees free of candidates; none when the pages are the same page."""
    if not alignment.candidates:
        return []
    dirty = {0}
    for index in alignment.candidates:
        while index not in dirty:
            dirty.add(index)
            index = nodes[index].parent
    return [
        index for index in alignment.matches
        if index not in dirty and nodes[index].parent in dirty
    ]


def candidate_groups(nodes: list[FeatureNode], candidates: list[int]) -> list[list[int]]:
    """Group candidates sharing a parent, or whose grandparent is another candidate's parent.

    Candidates never have a candidate ancestor here: alignment does not descend into them.
    """
    root: dict[int, int] = {}

    def find(key: int) -> int:
        while root.setdefault(key, key) != key:
            key = root[key]
        return key

    parents = {nodes[c].parent for c in candidates}
    for c in candidates:
        links = [nodes[c].parent]
        grandparent = nodes[nodes[c].parent].parent
        if grandparent in parents:
            links.append(grandparent)
        for key in links:
            root[find(-1 - c)] = find(key)  # candidates are keyed -1-c, apart from parent keys
    groups: dict[int, list[int]] = {}
    for c in candidates:
        groups.setdefault(find(-1 - c), []).append(c)
    return sorted(groups.values())


@dataclass(frozen=True)
class BlockMetrics:
    """The six measures of a candidate group (area without a renderer)."""

    text_length: int
    area: int
    effective_area: int
    content_tags: int
    link_ratio: float
    text_code_ratio: float


def block_metrics(nodes: list[FeatureNode], group: list[int],
                  params: TemplateDiffParams = TEMPLATE_DIFF) -> BlockMetrics:
    """Measure a group: text, approximate area, content tags, link ratio, text/code ratio."""
    chars = sum(nodes[i].chars for i in group)
    link_chars = images = linked_images = tags = code = 0
    for i in group:
        element = nodes[i].element
        code += len(etree.tostring(element, encoding="unicode", with_tail=False))
        for sub in element.iter("a", "img", *CONTENT_TAGS):
            tags += sub.tag in CONTENT_TAGS
            if sub.tag == "a":
                link_chars += len("".join(sub.text_content().split()))
                linked_images += len(sub.findall(".//img"))
            images += sub.tag == "img"
    return BlockMetrics(
        text_length=chars,
        area=chars + params.image_chars * images,
        effective_area=max(chars - link_chars, 0) + params.image_chars * (images - linked_images),
        content_tags=tags,
        link_ratio=link_chars / chars if chars else 0.0,
        text_code_ratio=chars / code if code else 0.0,
    )


def score_groups(
    metrics: list[BlockMetrics], params: TemplateDiffParams = TEMPLATE_DIFF
) -> list[int]:
    """Points per group: per metric, the top three non-zero values earn points."""
    scores = [0] * len(metrics)
    for name in BlockMetrics.__dataclass_fields__:
        points = params.link_ratio_points if name == "link_ratio" else params.rank_points
        ranked = sorted(
            (i for i, m in enumerate(metrics) if getattr(m, name) > 0),
            key=lambda i, name=name: -getattr(metrics[i], name),
        )
        for i, point in zip(ranked, points, strict=False):
            scores[i] += point
    return scores


def main_groups(scores: list[int], params: TemplateDiffParams = TEMPLATE_DIFF) -> list[int]:
    """Indices of the best-scoring groups and those within the close-score margin of it."""
    if not scores:
        return []
    best = max(scores)
    return [i for i, score in enumerate(scores) if score >= best - params.close_score_margin]
