"""A site template learned from one target/sibling pair and reused without a sibling.

The template stores, per shared block, its path from `body` (tag#id.class steps with
the index among same-signature siblings) and a digest of its fixed text. Applying it
resolves each path and keeps the blocks whose text is unchanged; when too little of
the template's text is found the site changed its layout and the caller re-learns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lxml.html import HtmlElement

from pipelines.document import Document, element_children
from pipelines.params import TEMPLATE_DIFF, TemplateDiffParams

Step = tuple[str, int]


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
            TemplateBlock(tuple((sig, int(i)) for sig, i in b["path"]), b["digest"], b["chars"])
            for b in data["blocks"]
        )
        return cls(pattern=data["pattern"], blocks=blocks)


def signature(element: HtmlElement) -> str:
    """tag#id.classes: what identifies an element among its siblings."""
    classes = ".".join(sorted((element.get("class") or "").split()))
    return f"{element.tag}#{element.get('id') or ''}.{classes}"


def text_digest(element: HtmlElement) -> tuple[str, int]:
    """Stable digest and length of the element's whitespace-free text."""
    text = "".join(element.text_content().split())
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest(), len(text)


def child_steps(parent: HtmlElement) -> list[tuple[Step, HtmlElement]]:
    """Each child element with its step: signature and index among same-signature siblings."""
    counts: dict[str, int] = {}
    steps = []
    for child in element_children(parent):
        sig = signature(child)
        steps.append(((sig, counts.get(sig, 0)), child))
        counts[sig] = counts.get(sig, 0) + 1
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
    """Resolves paths top-down, indexing each parent's children once."""

    def __init__(self, body: HtmlElement) -> None:
        self._found: dict[tuple[Step, ...], HtmlElement | None] = {(): body}
        self._index: dict[tuple[Step, ...], dict[Step, HtmlElement]] = {}

    def resolve(self, path: tuple[Step, ...]) -> HtmlElement | None:
        if path not in self._found:
            prefix = path[:-1]
            parent = self.resolve(prefix)
            if parent is not None and prefix not in self._index:
                self._index[prefix] = dict(child_steps(parent))
            self._found[path] = None if parent is None else self._index[prefix].get(path[-1])
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
        element = resolver.resolve(block.path)
        if element is not None and text_digest(element)[0] == block.digest:
            found.append(element)
            matched_chars += block.chars
    if total_chars and matched_chars < params.min_template_match * total_chars:
        return None
    return found
