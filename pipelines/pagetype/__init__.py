"""Page-type classification: rules first, then a calibrated linear model.

`classify_page` is the one entry point the page route calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pipelines.document import Document
from pipelines.pagetype.features import scanned_features
from pipelines.pagetype.model import PageTypeModel, load_model
from pipelines.pagetype.page_features import PageScan, dominant_prose
from pipelines.pagetype.rules import SiteRule, match_rule
from pipelines.params import PAGE_TYPE, PageTypeParams
from pipelines.results import ARTICLE_TYPES, PageTypeDecision

__all__ = ["SiteRule", "classify_page"]

FALLBACK_TYPE = "other"
# A <head> that declares a publication date (article:published_time, pubdate, …) belongs to
# an article, so such a page never leaves the article route. The classifier routes only pages
# that declare none, so it is not trained on it (training.pagetype.DECLARATIONS; figures in
# docs/DECISIONS.md, "Declared publication date").
DECLARES_PUBLICATION = "meta_published"


@lru_cache(maxsize=4)
def _wanted(model_features: frozenset[str]) -> frozenset[str]:
    """The features classify_page reads: the same set for every page, so page_features
    decides once what to compute for it."""
    return model_features | {DECLARES_PUBLICATION}


def _unsure(best: str, top_two: list[str]) -> str:
    """The type of a page whose best guess is below min_confidence (see classify_page)."""
    if best == "list" or (best == FALLBACK_TYPE and "list" in top_two):
        return "list"
    return best if best in ARTICLE_TYPES and FALLBACK_TYPE not in top_two else FALLBACK_TYPE


def _best_article(ranked: list[tuple[str, float]]) -> tuple[str, float]:
    """The best-ranked article type and its probability."""
    return next((c, p) for c, p in ranked if c in ARTICLE_TYPES)


def _prose_dominates(scan: PageScan, params: PageTypeParams) -> bool:
    """One long block of prose holds most of the page's link-free text: an article amid heavy
    navigation, not a list, whose records each hold their own text (see dominant_prose)."""
    prose = dominant_prose(scan)
    return prose.weight >= params.prose_block_bytes and prose.share >= params.prose_block_share


def classify_page(
    doc: Document,
    site_rules: Sequence[SiteRule] = (),
    params: PageTypeParams = PAGE_TYPE,
    model: PageTypeModel | None = None,
) -> PageTypeDecision:
    """Decide a page's type: site rule, else built-in rule, else the classifier.

    Below `params.min_confidence` the page is stored as 'other' (a wrong route costs
    more than a skipped page), but for cases decided by the two best guesses:
    - 'list' is the best, or 'other' is and 'list' is second: then it is 'list', for
      crawl safety (a list stored as 'other' is never revisited, an extra visit to an
      'other' page is cheap);
    - the best is an article type (news, blog, forum) and the second is not 'other':
      the best guess stands. Both article types: the page goes to article extraction
      either way. Article before list: a list read as an article and an article read as
      a list are each lost once, so the likelier reading wins.
    A page whose head declares a publication date stays on the article route whatever
    the model says (see DECLARES_PUBLICATION); it takes the best article type.
    So does a page the classifier calls list whose prose sits in one dominant block
    (`prose_block`, see _prose_dominates): old blog posts with heavy navigation, no URL
    and no declared date otherwise go to record mining. Checked only then: it costs a
    Python step per prose piece.
    The two best guesses stay in `candidates`. Figures for each rule:
    docs/DECISIONS.md, "Unsure pages" and "Prose-dominated pages".
    """
    matched = match_rule(doc.url, site_rules)
    if matched is not None:
        page_type, decided_by = matched
        return PageTypeDecision(page_type, 1.0, decided_by, [(page_type, 1.0)])
    model = model or load_model()
    features, scan = scanned_features(doc, _wanted(model.features))
    ranked = model.rank(features)
    best, confidence = ranked[0]
    if best not in ARTICLE_TYPES and features.get(DECLARES_PUBLICATION):
        return PageTypeDecision(*_best_article(ranked), "declared_publication", ranked[:2])
    if confidence < params.min_confidence:
        best = _unsure(best, [c for c, _ in ranked[:2]])
    if best == "list" and _prose_dominates(scan, params):
        return PageTypeDecision(*_best_article(ranked), "prose_block", ranked[:2])
    return PageTypeDecision(best, confidence, "classifier", ranked[:2])
