"""The page route, without Scrapy: classify, then articles (and 'other' pages and unsure
lists, for their main text) to density extraction (articles after template denoising when
a sibling is known) and lists to record mining.

The Scrapy stages call `decide_type` and `extract` separately, with the shared
template cache between them; the CLI and benchmarks call `process_document`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import lxml.html

from pipelines.article import extract_article
from pipelines.article.thread_pages import thread_first_page, thread_next_page
from pipelines.deadline import NO_DEADLINE, Deadline, OutOfTimeError
from pipelines.document import Document
from pipelines.pagetype import FEED_RULE, LINKED_HEADINGS, POST_ON_LIST, SiteRule, classify_page
from pipelines.params import PAGE_TYPE, PageTypeParams
from pipelines.records import mine_records
from pipelines.results import ARTICLE_TYPES, PAGE_TYPES, ArticleData, ListData, PageTypeDecision
from pipelines.template_diff import denoise_with_sibling


@dataclass
class PageResult:
    """Everything the pipeline learnt about one page."""

    decision: PageTypeDecision
    article: ArticleData | None = None
    listing: ListData | None = None
    # the stage in which the page's time budget ran out: what came after it is missing
    out_of_time: str | None = None


# decided_by of a page whose time budget ran out before its type was decided
OUT_OF_TIME = "out_of_time"


def decide_type(doc: Document, forced_type: str | None = None,
                site_rules: Sequence[SiteRule] = (),
                deadline: Deadline = NO_DEADLINE) -> PageTypeDecision:
    """The classifier's decision, unless the caller forces the route. Raises OutOfTimeError
    when the deadline has passed before it (the page's loading counts)."""
    deadline.check("load")
    if forced_type is None:
        return classify_page(doc, site_rules)
    if forced_type not in PAGE_TYPES:
        raise ValueError(f"unknown page type {forced_type!r}; expected one of {PAGE_TYPES}")
    return PageTypeDecision(forced_type, 1.0, "forced")


def keeps_body(decision: PageTypeDecision, params: PageTypeParams = PAGE_TYPE) -> bool:
    """Whether the page's main text is extracted: every type but list, a list the
    classifier was unsure of (also one its linked headings then decided, pagetype
    LINKED_HEADINGS), and a list that shows a lone post's marks and prose (pagetype
    POST_ON_LIST: a short article under heavy navigation reads as a sure list). An article
    stored without its body is lost to the reader, so 'other' (where an unsure page goes,
    see classify_page) and these lists keep their text beside their type (a list its
    records too). A feed or sitemap keeps nothing: it is no page for readers
    (pagetype.FEED_RULE)."""
    if decision.decided_by == FEED_RULE:
        return False
    return decision.page_type != "list" or decision.decided_by == POST_ON_LIST or (
        decision.decided_by in ("classifier", LINKED_HEADINGS)
        and decision.confidence < params.sure_list_confidence)


def extract(doc: Document, decision: PageTypeDecision,
            exclude: Collection[lxml.html.HtmlElement] = (),
            deadline: Deadline = NO_DEADLINE) -> PageResult:
    """Lists to record mining, every page that keeps its body (keeps_body) to density
    extraction, a forum thread's next page too. When the deadline passes, the result keeps
    what was done (a list's records before the article of an unsure list) and names the
    stage in `out_of_time`."""
    result = PageResult(decision)
    try:
        deadline.check("page type")
        if decision.page_type == "list":
            result.listing = mine_records(doc, deadline=deadline)
        if keeps_body(decision):
            forum = decision.page_type == "forum"
            first = thread_first_page(doc) if forum else None
            result.article = extract_article(doc, exclude, deadline=deadline, forum=forum,
                                            later_page=first is not None)
            if forum:
                result.article.next_page = thread_next_page(doc)
            if first is not None:
                result.article.thread_url, result.article.thread_page = first
    except OutOfTimeError as error:
        result.out_of_time = error.stage
    return result


def out_of_time(stage: str) -> PageResult:
    """The result of a page whose time budget ran out before its type was decided: 'other',
    decided by OUT_OF_TIME, nothing extracted."""
    return PageResult(PageTypeDecision("other", 0.0, OUT_OF_TIME), out_of_time=stage)


def process_document(doc: Document, sibling: Document | None = None,
                     forced_type: str | None = None,
                     site_rules: Sequence[SiteRule] = (),
                     deadline: Deadline = NO_DEADLINE) -> PageResult:
    """Classify and extract one page; a same-template sibling strips the site template.
    Within the deadline: once it passes, what is left is skipped (PageResult.out_of_time)."""
    try:
        decision = decide_type(doc, forced_type, site_rules, deadline)
    except OutOfTimeError as error:
        return out_of_time(error.stage)
    exclude: Collection[lxml.html.HtmlElement] = ()
    if sibling is not None and decision.page_type in ARTICLE_TYPES:
        exclude = denoise_with_sibling(doc, sibling).exclude
    return extract(doc, decision, exclude, deadline)
