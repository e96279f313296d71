"""The page route, without Scrapy: classify, then articles (and 'other' pages, for their
main text) to density extraction (articles after template denoising when a sibling is
known) and lists to record mining.

The Scrapy stages call `decide_type` and `extract` separately, with the shared
template cache between them; the CLI and benchmarks call `process_document`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import lxml.html

from pipelines.article import extract_article
from pipelines.document import Document
from pipelines.pagetype import SiteRule, classify_page
from pipelines.records import mine_records
from pipelines.results import ARTICLE_TYPES, PAGE_TYPES, ArticleData, ListData, PageTypeDecision
from pipelines.template_diff import denoise_with_sibling


@dataclass
class PageResult:
    """Everything the pipeline learnt about one page."""

    decision: PageTypeDecision
    article: ArticleData | None = None
    listing: ListData | None = None


def decide_type(doc: Document, forced_type: str | None = None,
                site_rules: Sequence[SiteRule] = ()) -> PageTypeDecision:
    """The classifier's decision, unless the caller forces the route."""
    if forced_type is None:
        return classify_page(doc, site_rules)
    if forced_type not in PAGE_TYPES:
        raise ValueError(f"unknown page type {forced_type!r}; expected one of {PAGE_TYPES}")
    return PageTypeDecision(forced_type, 1.0, "forced")


def extract(doc: Document, decision: PageTypeDecision,
            exclude: Collection[lxml.html.HtmlElement] = ()) -> PageResult:
    """Lists to record mining, every other type to density extraction. 'other' pages too:
    'other' is where an unsure page goes (see classify_page), and an article stored there
    without its body is lost to the reader; the page keeps its type, its text is kept."""
    if decision.page_type == "list":
        return PageResult(decision, listing=mine_records(doc))
    return PageResult(decision, article=extract_article(doc, exclude))


def process_document(doc: Document, sibling: Document | None = None,
                     forced_type: str | None = None,
                     site_rules: Sequence[SiteRule] = ()) -> PageResult:
    """Classify and extract one page; a same-template sibling strips the site template."""
    decision = decide_type(doc, forced_type, site_rules)
    exclude: Collection[lxml.html.HtmlElement] = ()
    if sibling is not None and decision.page_type in ARTICLE_TYPES:
        exclude = denoise_with_sibling(doc, sibling).exclude
    return extract(doc, decision, exclude)
