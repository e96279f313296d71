"""Template diff: feature trees, the page reduced to what template matching compares.

A feature node keeps tag, id, class and depth, plus renderer-free stand-ins for the
method's layout box: `position` (index among siblings, for left/top), `breadth` (child
count, for width) and `mass` (log2 of text length, for height). A *content* node is a
text-bearing leaf at block level — it has text of its own or only inline children —
and carries a digest of its normalised HTML; the tree does not descend into it. Every
other element is a *structure* node. Nodes are stored in level order, so the list is
the level-order sequence the alignment reads.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from lxml import etree
from lxml.html import HtmlElement

from pipelines.document import element_children

# Children that keep their parent a text leaf; any other child makes the parent a structure node.
INLINE_TAGS = frozenset({
    "a", "abbr", "b", "bdi", "bdo", "big", "br", "button", "cite", "code", "data", "del", "dfn",
    "em", "font", "i", "img", "input", "ins", "kbd", "label", "mark", "nobr", "picture", "q", "s",
    "samp", "select", "small", "source", "span", "strike", "strong", "sub", "sup", "textarea",
    "time", "tt", "u", "var", "wbr",
})


@dataclass(slots=True, eq=False)
class FeatureNode:
    """One element of the feature tree; `parent` and `children` are indices into the tree."""

    element: HtmlElement
    tag: str
    id: str
    cls: str
    depth: int
    position: int
    content: bool
    parent: int
    breadth: int = 0
    mass: int = 0
    digest: int = 0
    chars: int = 0
    children: list[int] = field(default_factory=list)

    def features(self) -> tuple[str, str, int, int, int, int]:
        """The features compared between two structure nodes (rule 7)."""
        return (self.id, self.cls, self.depth, self.position, self.breadth, self.mass)


def own_text(element: HtmlElement) -> str:
    """Text written directly in the element (its text and its children's tails), stripped."""
    parts = [element.text or ""]
    parts.extend(child.tail or "" for child in element)
    return "".join(parts).strip()


def _is_content(element: HtmlElement, children: list[HtmlElement]) -> bool:
    return bool(own_text(element)) or all(child.tag in INLINE_TAGS for child in children)


def _digest(element: HtmlElement) -> int:
    """Hash of whitespace-normalised outer HTML: an image's src counts as its content."""
    html = etree.tostring(element, encoding="unicode", method="html", with_tail=False)
    return hash(" ".join(html.split()))


def _new_node(element: HtmlElement, parent: int, depth: int, position: int) -> FeatureNode:
    return FeatureNode(
        element=element,
        tag=element.tag,
        id=element.get("id") or "",
        cls=" ".join(sorted((element.get("class") or "").split())),
        depth=depth,
        position=position,
        content=False,
        parent=parent,
    )


def build_feature_tree(body: HtmlElement) -> list[FeatureNode]:
    """Level-order feature nodes of the subtree rooted at `body` (index 0 is the root)."""
    nodes: list[FeatureNode] = []
    queue: deque[tuple[HtmlElement, int, int, int]] = deque([(body, -1, 0, 0)])
    while queue:
        element, parent, depth, position = queue.popleft()
        node = _new_node(element, parent, depth, position)
        index = len(nodes)
        nodes.append(node)
        if parent >= 0:
            nodes[parent].children.append(index)
        children = element_children(element)
        node.breadth = len(children)
        node.content = parent >= 0 and _is_content(element, children)
        if node.content:
            node.digest = _digest(element)
            node.chars = len("".join(element.text_content().split()))
        else:
            queue.extend((child, index, depth + 1, i) for i, child in enumerate(children))
    for node in reversed(nodes):  # children come after their parent: sum text bottom-up
        if not node.content:
            node.chars = sum(nodes[i].chars for i in node.children)
        node.mass = node.chars.bit_length()
    return nodes
