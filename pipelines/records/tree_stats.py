"""Record mining: per-node subtree statistics, computed in one bottom-up pass.

Every later step (pruning before tree matching, choosing the main list) reads these
numbers instead of re-walking subtrees, which keeps record mining linear in page size.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml.html import HtmlElement

from pipelines.document import element_children


@dataclass
class TreeStats:
    """Node count, height, structure hash and text/link character counts per element."""

    size: dict[HtmlElement, int] = field(default_factory=dict)
    height: dict[HtmlElement, int] = field(default_factory=dict)
    shape: dict[HtmlElement, int] = field(default_factory=dict)
    text: dict[HtmlElement, int] = field(default_factory=dict)
    link_text: dict[HtmlElement, int] = field(default_factory=dict)
    links: dict[HtmlElement, int] = field(default_factory=dict)


def _chars(text: str | None) -> int:
    return len("".join(text.split())) if text else 0


def annotate(root: HtmlElement) -> TreeStats:
    """Annotate every element under `root`; the shape hash is equal for equal tag trees."""
    stats = TreeStats()
    nodes = [el for el in root.iter() if isinstance(el.tag, str)]
    for element in reversed(nodes):  # children before parents
        children = element_children(element)
        is_link = element.tag == "a" and bool(element.get("href"))
        own = _chars(element.text) + sum(_chars(child.tail) for child in children)
        text = own + sum(stats.text[child] for child in children)
        stats.size[element] = 1 + sum(stats.size[child] for child in children)
        stats.height[element] = 1 + max((stats.height[child] for child in children), default=0)
        stats.shape[element] = hash((element.tag, tuple(stats.shape[c] for c in children)))
        stats.text[element] = text
        stats.link_text[element] = (
            text if is_link else sum(stats.link_text[child] for child in children)
        )
        stats.links[element] = int(is_link) + sum(stats.links[child] for child in children)
    return stats
