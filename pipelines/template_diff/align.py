"""Template diff: maximum-similarity alignment of two feature trees.

The method runs one LCS-style programme over the level-order sequences, scoring cells
with a node similarity that is 0 whenever the two parents are not similar (rule 4).
Within a level, non-zero cells therefore only occur between children of parent pairs
matched one level up, and those pairs are in order: the level's programme splits
exactly into one small programme per matched parent pair. We run those, level by
level, so a 10,000-node page never builds an n·m table. Long child lists are trimmed
of identical ends first, and a global cell budget falls back to positional pairing
(always safe: a wrong pair only adds candidates, never hides one).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipelines.params import TEMPLATE_DIFF, TemplateDiffParams
from pipelines.template_diff.feature_tree import FeatureNode

DIAGONAL, UP, LEFT = 0, 1, 2


def node_similarity(a: FeatureNode, b: FeatureNode) -> float:
    """CompareTwoCNode, rules 1–3 and 5–7; rule 4 (parents) is enforced by align_trees."""
    if a.tag != b.tag:  # rule 1; it also settles rule 3 (only one of them is body)
        return 0.0
    if a.tag == "body":  # rule 2: the roots always match
        return 1.0
    if a.content and b.content:  # rule 5: content must be identical
        return 1.0 if a.digest == b.digest else 0.0
    if a.content or b.content:  # rule 6: content never matches structure
        return 0.0
    fa, fb = a.features(), b.features()  # rule 7: share of equal features
    return sum(x == y for x, y in zip(fa, fb, strict=True)) / len(fa)


def choose_direction(diagonal: float, up: float, left: float) -> int:
    """getDirection: the largest sum; ties go to the diagonal, then up, then left."""
    if diagonal >= up and diagonal >= left:
        return DIAGONAL
    return UP if up >= left else LEFT


def lcs_align(targets: Sequence[FeatureNode], siblings: Sequence[FeatureNode]) -> list[int | None]:
    """For each target node, the index of its diagonal partner in `siblings`, or None.

    Columns are the target, rows the sibling, as in the method: a left step is a
    target-only node (deletion), an up step a sibling-only node (ignored).
    """
    n, m = len(targets), len(siblings)
    score = [[0.0] * (n + 1) for _ in range(m + 1)]
    move = [[LEFT] * (n + 1)] + [[UP] + [LEFT] * n for _ in range(m)]
    for row in range(1, m + 1):
        sibling, above, current, moves = siblings[row - 1], score[row - 1], score[row], move[row]
        for col in range(1, n + 1):
            diagonal = above[col - 1] + node_similarity(targets[col - 1], sibling)
            direction = choose_direction(diagonal, above[col], current[col - 1])
            moves[col] = direction
            current[col] = (diagonal, above[col], current[col - 1])[direction]
    partner: list[int | None] = [None] * n
    row, col = m, n
    while col > 0:
        direction = move[row][col] if row > 0 else LEFT
        if direction == DIAGONAL:
            partner[col - 1] = row - 1
        row -= direction != LEFT
        col -= direction != UP
    return partner


def _identical_ends(
    targets: Sequence[FeatureNode], siblings: Sequence[FeatureNode]
) -> tuple[int, int]:
    """Lengths of the common prefix and suffix of fully similar nodes (optimal to match first)."""
    limit = min(len(targets), len(siblings))
    head = 0
    while head < limit and node_similarity(targets[head], siblings[head]) == 1.0:
        head += 1
    tail = 0
    while tail < limit - head and node_similarity(targets[-1 - tail], siblings[-1 - tail]) == 1.0:
        tail += 1
    return head, tail


@dataclass
class Alignment:
    """Target nodes matched to the sibling (similarity ≥ Ts) and candidate blocks (the rest)."""

    matches: dict[int, tuple[int, float]] = field(default_factory=dict)
    candidates: list[int] = field(default_factory=list)
    cells: int = 0  # DP cells spent, against the budget


def _align_children(
    target: list[FeatureNode], sibling: list[FeatureNode], pair: tuple[int, int],
    alignment: Alignment, params: TemplateDiffParams,
) -> list[tuple[int, int | None]]:
    """(target child, sibling child or None) for every child of the target node in `pair`."""
    t_kids, s_kids = target[pair[0]].children, sibling[pair[1]].children
    t_nodes, s_nodes = [target[i] for i in t_kids], [sibling[j] for j in s_kids]
    head, tail = _identical_ends(t_nodes, s_nodes)
    mid_t, mid_s = t_nodes[head:len(t_nodes) - tail], s_nodes[head:len(s_nodes) - tail]
    cells = len(mid_t) * len(mid_s)
    if alignment.cells + cells <= params.max_dp_cells:
        alignment.cells += cells
        middle = lcs_align(mid_t, mid_s)
    else:
        middle = [k if k < len(mid_s) else None for k in range(len(mid_t))]
    partners = list(range(head)) + [
        None if k is None else head + k for k in middle
    ] + list(range(len(s_kids) - tail, len(s_kids)))
    return [(t, None if k is None else s_kids[k]) for t, k in zip(t_kids, partners, strict=True)]


def align_trees(
    target: list[FeatureNode],
    sibling: list[FeatureNode],
    params: TemplateDiffParams = TEMPLATE_DIFF,
) -> Alignment:
    """Align two feature trees level by level from the roots and collect candidate blocks."""
    alignment = Alignment(matches={0: (0, 1.0)})
    queue = deque([(0, 0)])
    while queue:
        for t, s in _align_children(target, sibling, queue.popleft(), alignment, params):
            similarity = 0.0 if s is None else node_similarity(target[t], sibling[s])
            if s is None or similarity < params.substitution_threshold:
                alignment.candidates.append(t)
                continue
            alignment.matches[t] = (s, similarity)
            if not target[t].content:
                queue.append((t, s))
    return alignment
