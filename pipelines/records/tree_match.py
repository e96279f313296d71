"""Record mining: Simple Tree Matching (Yang 1991) with cheap pruning and memoisation.

STM counts the nodes of the largest top-down alignment of two trees in which matched
nodes carry the same tag. It depends only on the trees' tag structure, so results are
cached by structure hash: a list of identical records costs one matching, not n².
"""

from __future__ import annotations

from lxml.html import HtmlElement

from pipelines.document import element_children
from pipelines.params import RECORD_MINING, RecordMiningParams
from pipelines.records.tree_stats import TreeStats


class TreeMatcher:
    """Similarity of sibling subtrees under record mining's three conditions, with a shared
    cache."""

    def __init__(self, stats: TreeStats, params: RecordMiningParams = RECORD_MINING) -> None:
        self.stats = stats
        self.params = params
        self._cache: dict[tuple[int, int], int] = {}

    def stm(self, a: HtmlElement, b: HtmlElement) -> int:
        """Number of matched nodes in the best top-down tag-preserving alignment."""
        if a.tag != b.tag:
            return 0
        shapes = self.stats.shape
        key = (shapes[a], shapes[b]) if shapes[a] <= shapes[b] else (shapes[b], shapes[a])
        if key[0] == key[1]:
            return self.stats.size[a]
        if key not in self._cache:
            self._cache[key] = 1 + self._match_children(element_children(a), element_children(b))
        return self._cache[key]

    def _match_children(self, left: list[HtmlElement], right: list[HtmlElement]) -> int:
        if not left or not right:
            return 0
        previous = [0] * (len(right) + 1)
        for child in left:
            current = [0]
            for j, other in enumerate(right, start=1):
                diagonal = previous[j - 1] + self.stm(child, other)
                current.append(max(previous[j], current[j - 1], diagonal))
            previous = current
        return previous[-1]

    def plausible(self, a: HtmlElement, b: HtmlElement) -> bool:
        """The first test: same tag, close heights, close node counts, size cap."""
        size_a, size_b = self.stats.size[a], self.stats.size[b]
        return (
            a.tag == b.tag
            and max(size_a, size_b) <= self.params.max_record_nodes
            and max(self.stats.height[a], self.stats.height[b]) <= self.params.max_record_height
            and abs(self.stats.height[a] - self.stats.height[b]) < self.params.max_height_diff
            and abs(size_a - size_b) < self.params.max_size_diff_share * (size_a + size_b)
        )

    def similarity(self, a: HtmlElement, b: HtmlElement) -> float:
        """STM normalised by the mean subtree size, in [0, 1]."""
        return 2 * self.stm(a, b) / (self.stats.size[a] + self.stats.size[b])

    def similar(self, a: HtmlElement, b: HtmlElement) -> bool:
        """Both tests: the cheap structural one first, then tree matching."""
        return self.plausible(a, b) and self.similarity(a, b) >= self.params.min_similarity
