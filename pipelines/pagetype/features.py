"""The classifier's input: URL features plus page features of one document, by name."""

from __future__ import annotations

from pipelines.document import Document
from pipelines.pagetype.page_features import page_features
from pipelines.pagetype.url_features import url_features


def extract_features(doc: Document) -> dict[str, float]:
    """Every feature of a page; absent names (e.g. URL features without a URL) mean 0."""
    return url_features(doc.url) | page_features(doc.tree)


def family(name: str) -> str:
    """A feature's family (url, txt, head, tag, link, gram, lst): SVM-RFE runs per family."""
    return name.split("_", 1)[0]
