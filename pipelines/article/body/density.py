"""Density-based content extraction: CETD (Sun et al., SIGIR 2011) and punctuation density.

One bottom-up pass counts, for every element under <body>, its characters, link
characters, tags, link tags and punctuation marks. From those counts come three
densities (text, composite text, punctuation), each node's DensitySum (sum over
its direct children), the threshold (smallest density on the path from <body>
to the node of largest DensitySum) and the recursive Extract that marks content
nodes. Everything is computed from counters, so the tree is read exactly once
and never changed; `exclude`d subtrees (site template found elsewhere) count as
absent.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from itertools import chain

import lxml.html

from pipelines.article.markup import Markup, read_markup
from pipelines.clean import NOT_PAGE_TEXT
from pipelines.lexicon import BROWSER_NOTICE, REPRINT_NOTICE
from pipelines.page_text import text_of
from pipelines.params import ARTICLE_PARTS, DENSITY, ArticlePartsParams, DensityParams

# Western and CJK sentence punctuation; link lists and menus carry almost none of it.
PUNCTUATION = re.compile(r"[,.;:!?\"'()\[\]…，。；：！？、“”‘’（）《》〈〉【】「」『』—～·]")
# Block elements that the link-share rule may drop from inside the content.
_BLOCKS = ("p", "div", "li", "ul", "ol", "dl", "dd", "dt", "section", "table", "tr", "td",
           "h2", "h3", "h4", "h5", "h6", "blockquote", "aside", "figure", "header")
# Blocks a reprint, copyright or browser notice is written in.
_NOTICE_BLOCKS = ("p", "div", "section", "blockquote", "footer", "h2", "h3", "h4", "h5", "h6")
# Parts of an article that stand between its paragraphs, never the whole article.
_PARTS = frozenset({"p", "ul", "ol", "dl", "table", "tbody", "blockquote", "figure", "pre"})
# The end of a sentence: its mark, then closing quotes or brackets.
_SENTENCE_END = re.compile(r"[.!?。！？…][\s\"'”’)）」』]*$")


@dataclass(slots=True, init=False)
class NodeStats:
    """Counters for one element, its whole subtree included."""

    chars: int = 0  # C: non-space characters
    link_chars: int = 0  # LC: characters inside <a>
    tags: int = 0  # T: descendant elements (the node itself excluded)
    link_tags: int = 0  # LT: descendant <a> elements
    punct: int = 0  # P: punctuation marks
    own_chars: int = 0  # characters of the element's own text chunks (text and child tails)
    own_punct: int = 0
    in_link: bool = False  # the element is an <a> or inside one: its own text is link text
    density: float = 0.0
    density_sum: float = 0.0
    children: list[lxml.html.HtmlElement] = field(default_factory=list)
    best: lxml.html.HtmlElement | None = None  # node of largest DensitySum in the subtree
    best_sum: float = 0.0  # its DensitySum

    def __init__(self, in_link: bool = False) -> None:
        """Zero counters. Written out: the generated __init__, which takes every field as a
        keyword, costs more (it runs for every element)."""
        self.chars = self.link_chars = self.tags = self.link_tags = self.punct = 0
        self.own_chars = self.own_punct = 0
        self.in_link = in_link
        self.density = self.density_sum = self.best_sum = 0.0
        self.children = []
        self.best = None


@dataclass
class DensityResult:
    """The counters of every counted node, the threshold and the marked content nodes."""

    stats: dict[lxml.html.HtmlElement, NodeStats]
    threshold: float
    content: list[lxml.html.HtmlElement]  # marked nodes, outermost only, in document order
    root: lxml.html.HtmlElement | None  # the node of largest DensitySum
    dropped: set[lxml.html.HtmlElement] = field(default_factory=set)  # link blocks inside content


def count_punctuation(text: str | None) -> int:
    return len(PUNCTUATION.findall(text)) if text else 0


def _add_text(node: NodeStats, text: str, punctuation: bool) -> None:
    """Count one visible text chunk (an element's text or a counted child's tail) as `node`'s
    own, and into its subtree sums at once (its children's are added later). Callers skip
    empty and blank chunks (most tails are a line break and indentation), which saves the
    call."""
    chars = len("".join(text.split()))  # what a reader sees, spaces not counted
    node.own_chars += chars
    node.chars += chars
    if punctuation:
        punct = count_punctuation(text)
        node.own_punct += punct
        node.punct += punct


def _preorder(
    markup: Markup, exclude: Collection[lxml.html.HtmlElement], punctuation: bool
) -> tuple[dict[lxml.html.HtmlElement, NodeStats], list[tuple[str, NodeStats, NodeStats]]]:
    """Counters of every counted element in document order, own text counted, and the
    (tag, counters, parent's counters) links the bottom-up pass walks backwards.

    Excluded and invisible subtrees are left out, with their tails: an element whose
    parent was left out is left out too. Parents and tags come from the markup table:
    asking lxml for them again cost a sixth of this pass.
    """
    body = markup.body
    root = NodeStats(body.tag == "a")
    if body.text and not body.text.isspace():
        _add_text(root, body.text, punctuation)
    found = {body: root}
    links = []
    for element, parent, tag, _, _, _ in markup.rows:
        up = found.get(parent)
        if up is None or tag in NOT_PAGE_TEXT or element in exclude:
            continue
        node = NodeStats(up.in_link or tag == "a")
        text, tail = element.text, element.tail
        if text and not text.isspace():
            _add_text(node, text, punctuation)
        if tail and not tail.isspace():
            _add_text(up, tail, punctuation)
        found[element] = node
        up.children.append(element)
        links.append((tag, node, up))
    return found, links


def count(
    body: lxml.html.HtmlElement, exclude: Collection[lxml.html.HtmlElement] = (),
    punctuation: bool = True, markup: Markup | None = None,
) -> dict[lxml.html.HtmlElement, NodeStats]:
    """Subtree counters for every counted element under `body`, in document order: own
    text, then bottom-up sums. `markup` is the route's table of `body` (read when not given).

    Punctuation is counted only when asked: the regex over every text chunk is a tenth of
    the route's time, and only the punctuation density reads it.
    """
    stats, links = _preorder(markup or read_markup(body), set(exclude), punctuation)
    # every child before its parent; <body> last, into a parent nobody reads
    closing = chain(reversed(links), ((body.tag, stats[body], NodeStats()),))
    for tag, node, up in closing:
        if tag == "a":  # a link's text is all link text, and the link a link tag
            node.link_chars = node.chars
            node.link_tags += 1
        up.chars += node.chars
        up.link_chars += node.link_chars
        up.tags += node.tags + 1
        up.link_tags += node.link_tags
        up.punct += node.punct
    return stats


def link_share(body: NodeStats) -> float:
    """The page's share of link characters, which the composite density weighs every node by:
    computed once per page, not once per node."""
    return body.link_chars / (body.chars if body.chars > 1 else 1)


def text_density(node: NodeStats, body_link_share: float) -> float:
    """CETD text density: characters per tag."""
    return node.chars / max(node.tags, 1)


def composite_density(node: NodeStats, body_link_share: float) -> float:
    """CETD composite text density: text density discounted by link characters and link tags.

    Floors are written as conditionals, not max(): this runs for every node and text leaf.
    """
    chars = node.chars
    if chars == 0:
        return 0.0
    link_chars, tags, link_tags = node.link_chars, node.tags, node.link_tags
    tags = tags if tags > 1 else 1
    non_link = chars - link_chars if chars - link_chars > 1 else 1
    ratio = (chars / (link_chars if link_chars > 1 else 1)) * (
        tags / (link_tags if link_tags > 1 else 1))
    # The log base is ln(x + e); x is floored at 1 so that link-free pages keep a base above 1.
    spread = chars / non_link * link_chars + body_link_share * chars
    base = math.log((spread if spread > 1.0 else 1.0) + math.e)
    return chars / tags * math.log(ratio if ratio > 1e-9 else 1e-9) / math.log(base)


def punctuation_density(node: NodeStats, body_link_share: float) -> float:
    """Punctuation density: punctuation marks per node (N = 0 counts as 1)."""
    return node.punct / max(node.tags, 1)


DENSITIES: dict[str, Callable[[NodeStats, float], float]] = {
    "text": text_density,
    "composite": composite_density,
    "punctuation": punctuation_density,
}


def line_numbers(body: lxml.html.HtmlElement,
                 params: ArticlePartsParams = ARTICLE_PARTS) -> set[lxml.html.HtmlElement]:
    """The line-number gutters of code listings: <pre> blocks that hold nothing but the
    numbers n, n+1, n+2 … beside another <pre> (a highlighter's column next to the code, in
    the same table row or wrapper), which is no text of the article."""
    found = set()
    for pre in body.iter("pre"):
        numbers = "".join(pre.itertext()).split()
        if not numbers or not all(n.isdigit() for n in numbers):
            continue
        first = int(numbers[0])
        if [int(n) for n in numbers] != list(range(first, first + len(numbers))):
            continue
        row = pre
        for _ in range(params.gutter_levels):
            row = row.getparent()
            if row is None:
                break
            if any(other is not pre for other in row.iter("pre")):
                found.add(pre)
                break
    return found


def notices(content: list[lxml.html.HtmlElement],
            params: ArticlePartsParams = ARTICLE_PARTS) -> set[lxml.html.HtmlElement]:
    """Short blocks inside the content that are the site's reprint or copyright notice,
    written under every post ("原创文章如转载，请注明…", "All rights reserved"), or its notice
    to readers of an old browser above it: the innermost such block, as a short post's whole
    text block holds its notice too."""
    found = set()
    for top in content:
        for element in top.iter(*_NOTICE_BLOCKS):
            text = text_of(element)
            if len(text) <= params.max_notice_chars and (
                    REPRINT_NOTICE.search(text) or BROWSER_NOTICE.search(text)):
                found.add(element)
    return {element for element in found
            if not any(inner in found for inner in element.iterdescendants(*_NOTICE_BLOCKS))}


def code_blocks(body: lxml.html.HtmlElement) -> set[lxml.html.HtmlElement]:
    """Preformatted blocks (<pre>: code, program output, logs) and everything in them."""
    return {element for pre in body.iter("pre") for element in pre.iter()}


def _score(stats: dict, body: lxml.html.HtmlElement, params: DensityParams,
           code: Collection[lxml.html.HtmlElement] = ()) -> None:
    """Fill density, DensitySum and the best node of every subtree, in one backward pass.

    Walking document order backwards meets every child before its parent, so a parent's
    DensitySum and best descendant are complete when it is reached. Ties go to the node
    itself, then to the earliest child, as a forward search would give.

    A `code` element is never the best node: a highlighted listing (a <span> per line and
    token) sums more density than the paragraphs around it, and the article is the block that
    holds both. It still lends its density to its parent's sum.
    """
    main, tie = DENSITIES[params.density], DENSITIES.get(params.tie_break or "")
    share = link_share(stats[body])
    leaf = NodeStats()  # the DOM's text nodes are children too (text<br>text… bodies)
    # A text leaf's density depends only on these counts, and a page repeats them (half of
    # its leaves): one computation per distinct leaf.
    leaves: dict[tuple[int, int, bool], float] = {}
    # So does a node's, from its counters: half of the nodes with text repeat another's
    # (items of link lists and teasers).
    known: dict[tuple[int, int, int, int, int], float] = {}
    for element, node in reversed(stats.items()):
        if node.chars:  # every density is 0 without text; a third of the nodes need no call
            key = (node.chars, node.link_chars, node.tags, node.link_tags, node.punct)
            density = known.get(key)
            if density is None:
                density = main(node, share)
                if tie is not None:
                    density += params.tie_break_weight * tie(node, share)
                known[key] = density
            node.density = density
        total = 0.0
        best, best_sum = element, -math.inf
        for child in node.children:
            below = stats[child]
            total += below.density
            if below.best_sum > best_sum:
                best, best_sum = below.best, below.best_sum
        if node.own_chars:
            key = (node.own_chars, node.own_punct, node.in_link)
            value = leaves.get(key)
            if value is None:
                leaf.chars, leaf.punct = node.own_chars, node.own_punct
                leaf.link_chars = node.own_chars if node.in_link else 0
                leaf.link_tags = int(node.in_link)
                value = leaves[key] = main(leaf, share)
            total += value
        node.density_sum = total
        if code and element in code:
            node.best, node.best_sum = None, -math.inf
            continue
        if total >= best_sum:
            best, best_sum = element, total
        node.best, node.best_sum = best, best_sum


def _threshold(stats: dict, body: lxml.html.HtmlElement, root: lxml.html.HtmlElement) -> float:
    """Smallest density on the path from <body> to `root`."""
    lowest = stats[root].density
    for ancestor in root.iterancestors():
        if ancestor not in stats:
            break
        lowest = min(lowest, stats[ancestor].density)
        if ancestor is body:
            break
    return lowest


def _between_paragraphs(stats: dict, body: lxml.html.HtmlElement,
                        root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """The block that holds `root` with the paragraphs around it, when `root` is a part of an
    article (a list, table, quote or figure): a long list sums more density than the
    paragraphs beside it, but the article is all of them. Only a paragraph of its own text
    (not a link) beside it makes the parent the article."""
    node = root
    while node is not body and node.tag in _PARTS:
        parent = node.getparent()
        if parent is None or parent not in stats or not any(
                stats[child].chars > stats[child].link_chars
                for child in stats[parent].children
                if child is not node and child.tag == "p"):
            break
        node = parent
    return node


def _region(stats: dict, body, root, params: DensityParams) -> lxml.html.HtmlElement:
    """The root, widened to an ancestor whose other branches hold a comparably dense node.

    Articles split over sibling containers (one per few paragraphs) put only one of
    them at the root; an ancestor qualifies when another of its branches has a best
    node with at least `sibling_share` of the root's DensitySum.
    """
    region, below = root, root
    wanted = params.sibling_share * stats[root].density_sum
    for _ in range(params.max_climb):
        ancestor = below.getparent()
        if ancestor is None or ancestor not in stats:
            break
        others = (stats[c].best_sum for c in stats[ancestor].children if c is not below)
        if max(others, default=0.0) >= wanted:
            region = ancestor
        if ancestor is body:
            break
        below = ancestor
    return region


def _mark(stats: dict, start: lxml.html.HtmlElement, threshold: float) -> set:
    """CETD Extract(R, t), iteratively: a node at least as dense as t marks its best descendant.

    `>=` as in CETD, not a strict `>`: t is a density on the path itself (often <body>'s),
    so a strict test could reject <body> and extract nothing.
    """
    marked: set = set()
    stack = [start]
    while stack:
        element = stack.pop()
        node = stats[element]
        if node.density < threshold:
            continue
        if node.best is not None:  # None inside a code block
            marked.add(node.best)
        stack.extend(node.children)
    return marked


def _outermost(stats: dict, marked: set) -> list[lxml.html.HtmlElement]:
    """Marked nodes without a marked ancestor, in document order (stats keeps that order)."""
    kept, covered = [], set()
    for element in stats:
        if element.getparent() in covered:
            covered.add(element)
        elif element in marked:
            kept.append(element)
            covered.add(element)
    return kept


def _prose_beside(stats: dict, content: list, params: DensityParams) -> list:
    """`content` with the paragraphs beside its paragraphs that the threshold left out, in
    document order. CETD's composite density marks a paragraph by its own density, and a
    short one ("The rest of the rules still apply.") or one that names its sources in links
    falls below the threshold that its siblings pass: a <p> beside a marked <p>, under the
    same parent, that ends a sentence and is no link block (`max_link_share`) is the
    article's too (with what it holds: a marked node inside it is no longer apart)."""
    marked = set(content)
    added = set()
    for parent in {element.getparent() for element in content if element.tag == "p"}:
        for child in stats[parent].children if parent in stats else ():
            node = stats[child]
            if (child.tag == "p" and child not in marked and node.chars
                    and node.link_chars <= params.max_link_share * node.chars
                    and _SENTENCE_END.search(text_of(child))):
                added.add(child)
    return _outermost(stats, marked | added) if added else content


def _link_blocks(stats: dict, content: list, params: DensityParams) -> set:
    """Block elements inside the content that are mostly link text: "read more", related links."""
    dropped = set()
    for top in content:
        for element in top.iterdescendants(*_BLOCKS):
            node = stats.get(element)
            if node and node.link_chars > params.max_link_share * node.chars:
                dropped.add(element)
    return dropped


def extract(
    body: lxml.html.HtmlElement,
    exclude: Collection[lxml.html.HtmlElement] = (),
    params: DensityParams = DENSITY,
    markup: Markup | None = None,
    never_root: Collection[lxml.html.HtmlElement] = (),
) -> DensityResult:
    """Run the density frame on `body` (its shared `markup` table, when the route has one)
    and return the content nodes it marks. `never_root`: blocks counted like any other but
    never, nor anything in them, the content's root (a post's headline header): as a code
    block, they lend their density to the block that holds them."""
    punctuation = "punctuation" in (params.density, params.tie_break)
    stats = count(body, exclude, punctuation, markup)
    code = code_blocks(body).union(*(block.iter() for block in never_root))
    _score(stats, body, params, code)
    root = stats[body].best
    if stats[body].best_sum <= 0:
        return DensityResult(stats, 0.0, [], None)
    root = _between_paragraphs(stats, body, root)
    threshold = _threshold(stats, body, root)
    start = _region(stats, body, root, params) if params.scope == "root" else body
    marked = _mark(stats, start, threshold)
    content = _prose_beside(stats, _outermost(stats, marked), params)
    dropped = _link_blocks(stats, content, params) | line_numbers(body) | notices(content)
    # a marked node that is itself a notice (a short post's reprint line, marked beside its
    # one paragraph) goes with the notice, not only the notices inside marked nodes
    content = [node for node in content if node not in dropped]
    if not content and root is not body and root.getparent() in stats:
        return _link_list(stats, threshold, root, body)
    return DensityResult(stats, threshold, content, root, dropped)


def _link_list(stats: dict, threshold: float, root: lxml.html.HtmlElement,
               body: lxml.html.HtmlElement) -> DensityResult:
    """The content of a post whose text is a list of links ("further reading", a link
    digest): everything marked was dropped, as link blocks or a notice under the list, so
    the block that holds the densest node is the post, links and all, but its notices."""
    holder = root.getparent()
    dropped = line_numbers(body) | notices([holder])
    return DensityResult(stats, threshold, [holder], root, dropped)
