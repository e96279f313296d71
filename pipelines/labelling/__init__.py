"""Node labelling: which text blocks of a page are title, author, time,
content, comment or other.

`label_nodes(doc)` linearises the page with the T1–T5 noise filter, computes
quantity/sign/layout features and decodes them with the shipped linear-chain CRF
(pipelines/models_data/node_labeller.json, loaded once per process).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import lxml.html

from pipelines.document import Document
from pipelines.labelling.crf import CrfModel
from pipelines.labelling.features import page_titles, sequence_features
from pipelines.labelling.linearise import Block, linearise
from pipelines.params import NODE_FEATURES, NOISE_FILTER, NodeFeatureParams, NoiseFilterParams

MODEL_PATH = Path(__file__).resolve().parent.parent / "models_data" / "node_labeller.json"
BYLINE_LABELS = frozenset({"author", "time"})


@dataclass(frozen=True)
class LabelledNode:
    """One text block of the page and what the labeller thinks it is."""

    element: lxml.html.HtmlElement
    text: str
    label: str


@cache
def load_model(path: Path = MODEL_PATH) -> CrfModel:
    """The shipped model, read once per process."""
    return CrfModel.load(path)


def page_sequence(
    doc: Document, params: NoiseFilterParams = NOISE_FILTER,
    features: NodeFeatureParams = NODE_FEATURES,
) -> tuple[list[Block], list[dict[str, float]]]:
    """The page's blocks and their feature dicts: what the CRF reads, in training and use."""
    blocks = linearise(doc.body, params, features)
    return blocks, sequence_features(blocks, page_titles(doc.tree), doc.fetched_at, features)


def label_nodes(doc: Document, model: CrfModel | None = None) -> list[LabelledNode]:
    """Every non-noise text block of the page, in document order, with its label."""
    blocks, features = page_sequence(doc)
    labels = (model or load_model()).tag(features)
    return [LabelledNode(b.element, b.text, label) for b, label in zip(blocks, labels, strict=True)]


def title_node(nodes: list[LabelledNode]) -> LabelledNode | None:
    """The first block labelled title (the headline as shown, not the <title> element)."""
    return next((node for node in nodes if node.label == "title"), None)


def byline_nodes(nodes: list[LabelledNode]) -> list[LabelledNode]:
    """Blocks labelled author or time: where to read the author, source and publish date."""
    return [node for node in nodes if node.label in BYLINE_LABELS]


def comment_nodes(nodes: list[LabelledNode]) -> list[LabelledNode]:
    """Blocks labelled comment: reader comments to keep out of the article body."""
    return [node for node in nodes if node.label == "comment"]
