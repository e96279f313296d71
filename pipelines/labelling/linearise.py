"""Node labelling, steps 1–2: turn the DOM into a sequence of text blocks, dropping noise.

A block is a non-inline element with its inline descendants' text merged in (cut
at line breaks), so the sequence holds the leaves and the few levels just above
them, as the method asks. Characters (C), links (L) and form-control characters (F) of every
subtree come from one bottom-up pass; a top-down walk then skips subtrees that
the T1–T5 rules call link or form noise and emits the surviving blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from itertools import islice

import lxml.html

from pipelines.params import NODE_FEATURES, NOISE_FILTER, NodeFeatureParams, NoiseFilterParams

INLINE_TAGS = frozenset({
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "dfn", "em",
    "font", "i", "img", "ins", "del", "kbd", "label", "mark", "nobr", "q", "s", "samp",
    "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
})
# Not <form>: ASP.NET pages wrap the whole page in one, so only the controls count as F.
FORM_TAGS = frozenset({"select", "option", "optgroup", "button", "textarea", "label", "input"})
# Kept by the clean stage for metadata (JSON-LD) but never page text.
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title", "meta"})
EMPHASIS_TAGS = frozenset({"b", "strong", "em", "i", "font", "big"})
_SPACE = re.compile(r"\s+")


class Kind(Enum):
    """The method's node types; LINK and FORM (and EMPTY) are noise and never emitted."""

    TEXT = "text"
    LINK_TEXT = "link_text"
    LINK = "link"
    FORM = "form"
    EMPTY = "empty"


NOISE = frozenset({Kind.LINK, Kind.FORM, Kind.EMPTY})


@dataclass
class Counts:
    """C, L and F of one subtree (or of one block's own text)."""

    chars: int = 0
    links: int = 0
    form_chars: int = 0


@dataclass
class Block:
    """One element of the linear sequence: a block element and the text it owns."""

    element: lxml.html.HtmlElement
    text: str
    depth: int
    kind: Kind
    chars: int
    links: int
    link_chars: int
    emphasis_chars: int
    ancestors: tuple[Counts, ...] = ()  # subtree counts of the closest context_levels ancestors
    page: Counts | None = None  # counts of the whole body


def classify(counts: Counts, params: NoiseFilterParams = NOISE_FILTER) -> Kind:
    """Apply the T1–T5 rules to one node counted with its descendants.

    A short unlinked node (a byline, a date) is text whatever T1 says: node labelling must label it.
    Many links with long text between them (C/L ≥ T5) is text, not a link node: the
    rules are applied to whole subtrees, and an article container holds many links.
    """
    chars, links = counts.chars, counts.links
    if chars == 0:
        return Kind.EMPTY
    if counts.form_chars > params.form_char_ratio * chars:
        return Kind.FORM
    if links <= params.min_links:
        return Kind.TEXT
    if chars > params.min_chars and chars >= params.chars_per_link * links:
        return Kind.TEXT
    if links > params.max_links:
        return Kind.LINK
    return Kind.LINK_TEXT


def _visible_len(text: str | None) -> int:
    return sum(map(len, text.split())) if text else 0


def _is_link(element: lxml.html.HtmlElement) -> bool:
    return element.tag == "a" and element.get("href") is not None


def _own_form_chars(element: lxml.html.HtmlElement) -> int:
    if element.tag == "input":
        return len(element.get("value") or "") + len(element.get("placeholder") or "")
    return 0


def subtree_counts(body: lxml.html.HtmlElement) -> dict[lxml.html.HtmlElement, Counts]:
    """C, L, F for every element under `body`, children before parents (one bottom-up pass)."""
    counts: dict[lxml.html.HtmlElement, Counts] = {}
    for element in reversed(list(body.iter())):
        if not isinstance(element.tag, str):
            continue
        if element.tag in SKIPPED_TAGS:
            counts[element] = Counts()
            continue
        own = Counts(_visible_len(element.text), int(_is_link(element)), 0)
        for child in element:
            own.chars += _visible_len(child.tail)
            sub = counts.get(child)
            if sub is not None:
                own.chars += sub.chars
                own.links += sub.links
                own.form_chars += sub.form_chars
        own.form_chars = own.chars if element.tag in FORM_TAGS else own.form_chars
        own.form_chars += _own_form_chars(element)
        counts[element] = own
    return counts


@dataclass
class _Run:
    """Text one block owns between line breaks and nested blocks: one sequence item."""

    element: lxml.html.HtmlElement
    depth: int
    pieces: list[str] = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)
    link_chars: int = 0
    emphasis_chars: int = 0


class _Owner:
    """A block element during the walk; its text goes to runs appended in document order."""

    def __init__(self, element: lxml.html.HtmlElement, depth: int, runs: list[_Run]) -> None:
        self.element, self.depth, self._runs = element, depth, runs
        self._current: _Run | None = None

    def run(self) -> _Run:
        """The open run, or a new one when a break or a nested block came after it."""
        if self._current is None or self._runs[-1] is not self._current:
            self._current = _Run(self.element, self.depth)
            self._runs.append(self._current)
        return self._current

    def line_break(self) -> None:
        self._current = None

    def add(self, text: str | None, in_link: bool, emphasised: bool, in_form: bool) -> None:
        size = _visible_len(text)
        if not size:
            return
        run = self.run()
        run.pieces.append(text)
        run.counts.chars += size
        run.link_chars += size if in_link else 0
        run.emphasis_chars += size if emphasised else 0
        run.counts.form_chars += size if in_form else 0


def _close(
    run: _Run, counts: dict[lxml.html.HtmlElement, Counts], page: Counts,
    params: NoiseFilterParams, features: NodeFeatureParams,
) -> Block | None:
    kind = classify(run.counts, params)
    if kind in NOISE:
        return None
    text = _SPACE.sub(" ", " ".join(run.pieces)).strip()
    ancestors = tuple(counts.get(a, page) for a in islice(run.element.iterancestors(),
                                                           features.context_levels))
    return Block(run.element, text, run.depth, kind, run.counts.chars, run.counts.links,
                 run.link_chars, run.emphasis_chars, ancestors, page)


def linearise(
    body: lxml.html.HtmlElement, params: NoiseFilterParams = NOISE_FILTER,
    features: NodeFeatureParams = NODE_FEATURES,
) -> list[Block]:
    """The page's non-noise text runs in document order.

    A block's text is cut at <br> and around nested blocks, so a body written as one
    <div> of <br>-separated lines yields a run of paragraphs, as <p> markup does.
    """
    counts = subtree_counts(body)
    runs: list[_Run] = []
    # Items: (is_tail, element, owning block, depth, in_link, emphasised, in_form).
    stack: list[tuple] = [(False, body, _Owner(body, 0, runs), 0, False, False, False)]
    while stack:
        is_tail, element, owner, depth, in_link, emphasised, in_form = stack.pop()
        if is_tail:
            owner.add(element.tail, in_link, emphasised, in_form)
            continue
        tag = element.tag if isinstance(element.tag, str) else None
        if element is not body:
            stack.append((True, element, owner, depth, in_link, emphasised, in_form))
        if tag == "br":
            owner.line_break()
        if tag is None or tag in SKIPPED_TAGS or classify(counts[element], params) in NOISE:
            continue
        if element is not body and tag not in INLINE_TAGS:
            owner = _Owner(element, depth, runs)
        if _is_link(element):
            in_link = True
            owner.run().counts.links += 1
        emphasised = emphasised or tag in EMPHASIS_TAGS
        in_form = in_form or tag in FORM_TAGS
        owner.add(element.text, in_link, emphasised, in_form)
        for child in reversed(element):
            stack.append((False, child, owner, depth + 1, in_link, emphasised, in_form))
    closed = (_close(run, counts, counts[body], params, features) for run in runs)
    return [block for block in closed if block is not None]
