"""Record mining: the field template of a record set, by pairwise alignment.

A record becomes a sequence of text leaves keyed by their tag path. Records are aligned
in pairs and each pair keeps what both share (the path, and the text when it is the
same: a fixed marker such as "回复:"), until one sequence — the template — remains.
Each record is then aligned to the template to read its fields by slot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.html import HtmlElement

from pipelines.records.regions import Record

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Leaf:
    """One piece of visible text in a record, with the link it sits in."""

    key: str
    text: str
    anchor: HtmlElement | None  # the enclosing <a href>, if any


@dataclass(frozen=True)
class Slot:
    """One template position; `fixed` holds the text every record has there, if any."""

    key: str
    fixed: str | None


def _step(element: HtmlElement) -> str:
    """A path step: tag, first class word without digits, and the column of a table cell."""
    classes = (element.get("class") or "").split()
    step = element.tag + ("." + _DIGITS.sub("", classes[0]) if classes else "")
    if element.tag in ("td", "th"):
        parent = element.getparent()
        cells = [c for c in parent if c.tag in ("td", "th")] if parent is not None else []
        step += f"[{cells.index(element)}]" if element in cells else ""
    return step


def _anchor(element: HtmlElement, stop: HtmlElement) -> HtmlElement | None:
    while element is not None:
        if element.tag == "a" and element.get("href"):
            return element
        if element is stop:
            return None
        element = element.getparent()
    return None


def _clean(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def record_leaves(record: Record) -> list[Leaf]:
    """The record's text leaves in reading order; element texts and tails both count."""
    leaves: list[Leaf] = []
    for top in record:
        paths = {top: _step(top)}
        for element in top.iter():
            if not isinstance(element.tag, str):
                continue
            if element is not top:
                paths[element] = paths[element.getparent()] + "/" + _step(element)
            text = _clean(element.text)
            if text:
                leaves.append(Leaf(paths[element], text, _anchor(element, top)))
            parent = element.getparent()
            tail = _clean(element.tail) if element is not top else ""
            if tail and parent in paths:
                leaves.append(Leaf(paths[parent], tail, _anchor(parent, top)))
    return leaves


def _lcs_pairs(left: list[str], right: list[str]) -> list[tuple[int, int]]:
    """Index pairs of a longest common subsequence of two key sequences."""
    table = [[0] * (len(right) + 1) for _ in range(len(left) + 1)]
    for i in range(len(left) - 1, -1, -1):
        for j in range(len(right) - 1, -1, -1):
            table[i][j] = (table[i + 1][j + 1] + 1 if left[i] == right[j]
                           else max(table[i + 1][j], table[i][j + 1]))
    pairs, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if left[i] == right[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def _shared(left: list[Slot], right: list[Slot]) -> list[Slot]:
    """What two records (or partial templates) share: common slots, equal text kept fixed."""
    pairs = _lcs_pairs([s.key for s in left], [s.key for s in right])
    return [Slot(left[i].key, left[i].fixed if left[i].fixed == right[j].fixed else None)
            for i, j in pairs]


def build_template(records: list[list[Leaf]], sample: int) -> list[Slot]:
    """Fold records pairwise (queue A → queue B) until one template remains."""
    step = max(1, len(records) // sample)
    queue = [[Slot(leaf.key, leaf.text) for leaf in leaves] for leaves in records[::step]]
    while len(queue) > 1:
        paired = [_shared(queue[i], queue[i + 1]) for i in range(0, len(queue) - 1, 2)]
        queue = paired + (queue[-1:] if len(queue) % 2 else [])
    return queue[0] if queue else []


def align(template: list[Slot], leaves: list[Leaf]) -> dict[int, Leaf]:
    """Slot index → the record's leaf that fills it."""
    pairs = _lcs_pairs([s.key for s in template], [leaf.key for leaf in leaves])
    return {i: leaves[j] for i, j in pairs}
