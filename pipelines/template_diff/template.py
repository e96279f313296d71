"""A site template learned from one target/sibling pair and reused without a sibling.

The template stores, per shared block, its path from `body` (tag#id.class steps with
the index among same-signature siblings, counted from the first and from the last) and a
digest of its fixed text. Applying it resolves each path and keeps the blocks whose text
is unchanged; when too little of the template's text is found the site changed its layout
and the caller re-learns. A block after the content (a donate link, a share bar, a
copyright line inside the post's container) sits after as many siblings as the post has
paragraphs: counted from the first it moves from page to page, counted from the last it
does not, so a step falls back to the count from the last.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lxml.html import HtmlElement

from pipelines.document import Document, element_children
from pipelines.params import TEMPLATE_DIFF, TemplateDiffParams

Step = tuple[str, int, int]  # signature, index among its kind from the first, from the last


@dataclass(frozen=True)
class TemplateBlock:
    """One shared block: where it sits and what fixed text it holds."""

    path: tuple[Step, ...]
    digest: str
    chars: int


@dataclass(frozen=True)
class Template:
    """Shared blocks of one site section, keyed by its URL pattern (host + path shape)."""

    pattern: str
    blocks: tuple[TemplateBlock, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for JSON storage."""
        return {
            "pattern": self.pattern,
            "blocks": [
                {"path": [list(step) for step in b.path], "digest": b.digest, "chars": b.chars}
                for b in self.blocks
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Template:
        """Inverse of to_json."""
        blocks = tuple(
            TemplateBlock(tuple(_step(*step) for step in b["path"]), b["digest"], b["chars"])
            for b in data["blocks"]
        )
        return cls(pattern=data["pattern"], blocks=blocks)


def _step(sig: str, first: int, last: int = 0) -> Step:
    """A stored step; templates cached before the count from the last have none (0)."""
    return sig, int(first), int(last)


def signature(element: HtmlElement) -> str:
    """tag#id.classes: what identifies an element among its siblings."""
    classes = ".".join(sorted((element.get("class") or "").split()))
    return f"{element.tag}#{element.get('id') or ''}.{classes}"


def text_digest(element: HtmlElement) -> tuple[str, int]:
    """Stable digest and length of the element's whitespace-free text."""
    text = "".join(element.text_content().split())
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest(), len(text)


def child_steps(parent: HtmlElement) -> list[tuple[Step, HtmlElement]]:
    """Each child element with its step: signature and index among same-signature siblings,
    from the first (0, 1, …) and from the last (-1, -2, …)."""
    children = [(signature(child), child) for child in element_children(parent)]
    totals: dict[str, int] = {}
    for sig, _ in children:
        totals[sig] = totals.get(sig, 0) + 1
    counts: dict[str, int] = {}
    steps = []
    for sig, child in children:
        first = counts.get(sig, 0)
        counts[sig] = first + 1
        steps.append(((sig, first, first - totals[sig]), child))
    return steps


def build_template(pattern: str, body: HtmlElement, blocks: Iterable[HtmlElement]) -> Template:
    """The template of a page whose shared blocks are known."""
    step_of: dict[HtmlElement, Step] = {}

    def path(element: HtmlElement) -> tuple[Step, ...]:
        steps: list[Step] = []
        while element is not body:
            if element not in step_of:
                step_of.update((child, step) for step, child in child_steps(element.getparent()))
            steps.append(step_of[element])
            element = element.getparent()
        return tuple(reversed(steps))

    stored = []
    for element in blocks:
        digest, chars = text_digest(element)
        stored.append(TemplateBlock(path(element), digest, chars))
    return Template(pattern=pattern, blocks=tuple(stored))


class _Resolver:
    """Resolves paths top-down, indexing each parent's children once. A step names the
    child at its index from the first; where that child is missing or, for the block
    itself, holds other text, the child at its index from the last."""

    def __init__(self, body: HtmlElement) -> None:
        self._found: dict[tuple[Step, ...], HtmlElement | None] = {(): body}
        self._index: dict[tuple[Step, ...], dict[tuple[str, int], HtmlElement]] = {}

    def _children(self, prefix: tuple[Step, ...]) -> dict[tuple[str, int], HtmlElement]:
        if prefix not in self._index:
            parent = self.resolve(prefix)
            steps = child_steps(parent) if parent is not None else []
            self._index[prefix] = {key: child for (sig, first, last), child in steps
                                   for key in ((sig, first), (sig, last))}
        return self._index[prefix]

    def candidates(self, path: tuple[Step, ...]) -> list[HtmlElement]:
        """The elements a block's path may name: by the count from the first, then the last."""
        sig, first, last = path[-1]
        children = self._children(path[:-1])
        keys = [(sig, first), (sig, last)] if last else [(sig, first)]
        found = [children[key] for key in keys if key in children]
        return list(dict.fromkeys(found))

    def resolve(self, path: tuple[Step, ...]) -> HtmlElement | None:
        if path not in self._found:
            found = self.candidates(path)
            self._found[path] = found[0] if found else None
        return self._found[path]


def template_mask(
    doc: Document, template: Template, params: TemplateDiffParams = TEMPLATE_DIFF
) -> list[HtmlElement] | None:
    """The page's template blocks, or None when the page no longer fits the template.

    Only blocks found at their path with unchanged text are returned, so a moved or
    rewritten block is kept in the page rather than hidden by mistake.
    """
    resolver = _Resolver(doc.body)
    found: list[HtmlElement] = []
    matched_chars = total_chars = 0
    for block in template.blocks:
        total_chars += block.chars
        element = next((candidate for candidate in resolver.candidates(block.path)
                        if text_digest(candidate)[0] == block.digest), None)
        if element is not None:
            found.append(element)
            matched_chars += block.chars
    if total_chars and matched_chars < params.min_template_match * total_chars:
        return None
    return found
