"""The classifier's input: URL features plus page features of one document, by name."""

from __future__ import annotations

from collections.abc import Collection

from pipelines.document import Document
from pipelines.pagetype.page_features import page_features
from pipelines.pagetype.url_features import url_features


def extract_features(doc: Document, names: Collection[str] | None = None) -> dict[str, float]:
    """The features of a page (all, or at least `names`); absent names mean "no evidence"."""
    return url_features(doc.url, names) | page_features(doc.tree, names)


def family(name: str) -> str:
    """A feature's family (url, txt, head, meta, tag, lst, post): SVM-RFE runs per family."""
    return name.split("_", 1)[0]
