"""The classifier's input: URL features plus page features of one document, by name."""

from __future__ import annotations

from collections.abc import Collection

from pipelines.document import Document
from pipelines.pagetype.page_features import PageScan, page_features, page_scan
from pipelines.pagetype.url_features import url_features
from pipelines.params import PAGE_FEATURES, PageFeatureParams


def extract_features(doc: Document, names: Collection[str] | None = None,
                     params: PageFeatureParams = PAGE_FEATURES) -> dict[str, float]:
    """The features of a page (all, or at least `names`); absent names mean "no evidence"."""
    return scanned_features(doc, names, params)[0]


def scanned_features(doc: Document, names: Collection[str] | None = None,
                     params: PageFeatureParams = PAGE_FEATURES
                     ) -> tuple[dict[str, float], PageScan]:
    """extract_features, and the scan it read: what it fetched from the tree is cached there
    for a second look (classify_page's prose check)."""
    scan = page_scan(doc.tree, names, params)
    return (url_features(doc.url, names, params) | page_features(doc.tree, names, scan, params),
            scan)


def family(name: str) -> str:
    """A feature's family (url, txt, head, meta, tag, lst, post, blk, site): SVM-RFE runs per
    family."""
    return name.split("_", 1)[0]
