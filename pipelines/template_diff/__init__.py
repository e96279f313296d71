"""Template diff: denoising with a same-template sibling page.

`denoise_with_sibling` aligns the target's feature tree with a sibling's and returns
what both share (template blocks, to exclude from extraction), the best-scoring
blocks of what differs (the main content) and a reusable `Template`.
`template_mask` applies a cached template to a later page of the same site section.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.html import HtmlElement

from pipelines.document import Document
from pipelines.params import TEMPLATE_DIFF, TemplateDiffParams
from pipelines.siblings import url_pattern
from pipelines.template_diff.align import align_trees
from pipelines.template_diff.blocks import (
    block_metrics,
    candidate_groups,
    main_groups,
    score_groups,
    template_blocks,
)
from pipelines.template_diff.feature_tree import build_feature_tree
from pipelines.template_diff.template import Template, build_template, template_mask

__all__ = [
    "Template",
    "TemplateResult",
    "denoise_with_sibling",
    "learn_template",
    "template_mask",
]


@dataclass
class TemplateResult:
    """What the sibling taught about the target.

    `exclude`: shared template blocks (feed to extraction). `main`: the best-scoring
    differing blocks. `others`: the remaining differing blocks — per-page boxes such as
    related links; excluding them too raises precision but costs recall.
    """

    exclude: list[HtmlElement]
    main: list[HtmlElement]
    others: list[HtmlElement]
    template: Template


def denoise_with_sibling(
    target: Document, sibling: Document, params: TemplateDiffParams = TEMPLATE_DIFF
) -> TemplateResult:
    """Split the target into shared template blocks and scored content blocks."""
    nodes = build_feature_tree(target.body)
    alignment = align_trees(nodes, build_feature_tree(sibling.body), params)
    exclude = [nodes[i].element for i in template_blocks(nodes, alignment)]
    groups = candidate_groups(nodes, alignment.candidates)
    scores = score_groups([block_metrics(nodes, group, params) for group in groups], params)
    best = set(main_groups(scores, params))
    main = sorted(i for g in best for i in groups[g])
    others = sorted(i for g, group in enumerate(groups) if g not in best for i in group)
    pattern = url_pattern(target.url) if target.url else ""
    return TemplateResult(
        exclude=exclude,
        main=[nodes[i].element for i in main],
        others=[nodes[i].element for i in others],
        template=build_template(pattern, target.body, exclude),
    )


def learn_template(
    target: Document, sibling: Document, params: TemplateDiffParams = TEMPLATE_DIFF
) -> Template:
    """The reusable template of a target/sibling pair."""
    return denoise_with_sibling(target, sibling, params).template
