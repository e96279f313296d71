"""Page-type classification: rules first, then a calibrated linear model.

`classify_page` is the one entry point the page route calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from pipelines.document import Document
from pipelines.feeds import is_feed
from pipelines.pagetype.features import scanned_features
from pipelines.pagetype.model import PageTypeModel, load_model
from pipelines.pagetype.page_features import (
    PageScan,
    Prose,
    dominant_prose,
    linked_headings,
    own_dates,
    prose_headline,
    visible_dates,
)
from pipelines.pagetype.rules import SiteRule, match_rule
from pipelines.params import PAGE_TYPE, PageTypeParams
from pipelines.results import ARTICLE_TYPES, PageTypeDecision

__all__ = ["FEED_RULE", "LINKED_HEADINGS", "POST_ON_LIST", "SiteRule", "classify_page"]

FALLBACK_TYPE = "other"
# Feeds and sitemaps (pipelines.feeds) are 'other', before any rule, and never extracted
# (process.keeps_body): their entries would read as an article's comments.
FEED_RULE = "rule:feed"
# A <head> that declares a publication date (article:published_time, pubdate, …) belongs to
# an article, so such a page never leaves the article route. The classifier routes only pages
# that declare none, so it is not trained on it (training.pagetype.DECLARATIONS; figures in
# docs/DECISIONS.md, "Declared publication date").
DECLARES_PUBLICATION = "meta_published"
# The decided_by of a list told by its linked headings (_lists_posts): the model was unsure,
# so such a list keeps its main text as an unsure one does (process.keeps_body).
LINKED_HEADINGS = "linked_headings"
# The decided_by of a list the classifier is sure of that shows a lone post's marks and a
# prose block (_post_on_list): it stays a list (its records are mined) and keeps its main
# text too (process.keeps_body), so a short article misread as a list keeps its body.
POST_ON_LIST = "post_on_list"


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


ARTICLE = "article"  # news, blog and forum together: one route


def _by_route(ranked: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The ranking by route: the article types' probabilities summed (a page 0.3 blog, 0.2
    news and 0.4 other is an article: it goes to article extraction whichever type it is)."""
    article = sum(p for c, p in ranked if c in ARTICLE_TYPES)
    rest = [(c, p) for c, p in ranked if c not in ARTICLE_TYPES]
    return sorted([(ARTICLE, article), *rest], key=lambda pair: -pair[1])


def _declares_article(features: dict[str, float], scan: PageScan,
                      dates: Callable[[], int], params: PageTypeParams) -> bool:
    """The head declares a publication date, does not say the page is a website's index
    (og:type "website", which themes that date every page write on their indexes), and the
    page shows a date (`declared_needs_body_dates`): a date found only in <head> does not by
    itself make an article (themes stamp one on their about, contact and tag pages too)."""
    if not features.get(DECLARES_PUBLICATION) or "website" in scan.head.og_type:
        return False
    needed = params.declared_needs_body_dates
    return needed <= 0 or dates() >= needed


def _single_post(scan: PageScan) -> bool:
    """The <body> class says the theme rendered one post ("single-post", see
    PageTypeParams.single_post_class)."""
    return scan.body is not None and "single-post" in (scan.body.get("class") or "").split()


def _og_article(scan: PageScan) -> bool:
    """The head's Open Graph type says the page is one article (og:type "article"). Alone it
    proves little (some themes write it on every page, their indexes included); beside a
    lone post's marks it is the page's own word for what the marks show (see
    PageTypeParams.og_article_post)."""
    return "article" in scan.head.og_type.split()


def _prose_dominates(prose: Prose, params: PageTypeParams) -> bool:
    """One long block of prose holds most of the page's link-free text: an article amid heavy
    navigation, not a list, whose records each hold their own text (see dominant_prose)."""
    return prose.weight >= params.prose_block_bytes and prose.share >= params.prose_block_share


def _between_article_and_list(routes: list[tuple[str, float]], below: float) -> bool:
    """The two best routes are article and list, and the best is below `below`."""
    return {c for c, _ in routes[:2]} == {ARTICLE, "list"} and routes[0][1] < below


def _lists_posts(linked: Callable[[], int], routes: list[tuple[str, float]],
                 params: PageTypeParams) -> bool:
    """Unsure between article and list, with `linked_headings_list` headings that link to
    other pages (each a listed post's title): a list (a tag page, a digest of whole posts)."""
    return (params.linked_headings_list > 0
            and _between_article_and_list(routes, params.linked_headings_unsure)
            and linked() >= params.linked_headings_list)


# The headings that may title a listed record beside a linked h1/h2 (_record_titles).
_RECORD_TITLES = ("h1", "h2", "h3")


def _record_titles(linked: Callable[[], int], scan: PageScan, url: str | None,
                   params: PageTypeParams) -> int:
    """The headings that title a record, for a post's marks (_post_marks): the linked h1/h2
    (`linked`), and when there is one, the linked h1–h3 too (each over text of its own): a
    blog index that titles its first post h1 and the rest h3 shows one linked h1 but ten
    records, where a post's linked headline stands alone. A page with no linked h1/h2 is read
    as before (h3 titles alone do not bar a post: related stories with excerpts use them)."""
    found = linked()
    if not found:
        return 0
    return max(found, linked_headings(scan.body, url, params.linked_heading_text_bytes,
                                      _RECORD_TITLES))


def _post_marks(linked: Callable[[], int], dates: Callable[[], int], max_dates: int,
                params: PageTypeParams) -> bool:
    """At most `post_max_linked_headings` headings that title a record (`linked`, see
    _record_titles) and
    `lone_post_min_dates`–`max_dates` dates of the page's own (`dates`: outside links, see
    page_features.own_dates): the marks of one post, where a list's items are dated one each
    or titled by a link. One linked heading is the post's own headline linking to its
    permalink under another address than the page's (no URL known, http for https, a
    tracking query); a list titles two records or more. Dates in links date other pages (an
    archive widget, a "previous post" link): a short post beside a dated archive is one post."""
    return (linked() <= params.post_max_linked_headings
            and params.lone_post_min_dates <= dates() <= max_dates)


def _list_then_article(routes: list[tuple[str, float]]) -> bool:
    """List the best route, article the second."""
    return routes[0][0] == "list" and routes[1][0] == ARTICLE


def _lone_post(linked: Callable[[], int], dates: Callable[[], int],
               routes: list[tuple[str, float]], params: PageTypeParams) -> bool:
    """List the best route below `lone_post_list_below`, article the second, and a post's
    marks (_post_marks, one or two dates): one post (a short post with a long sidebar)."""
    return (_list_then_article(routes) and routes[0][1] < params.lone_post_list_below
            and _post_marks(linked, dates, params.lone_post_max_dates, params))


def _post_on_list(linked: Callable[[], int], dates: Callable[[], int], prose: Prose,
                  routes: list[tuple[str, float]], params: PageTypeParams) -> bool:
    """List the best route however sure, article the second, a post's marks (_post_marks, up
    to `post_on_list_max_dates` dates) and a prose block of `post_on_list_prose_bytes`: the
    list stays, its main text is kept too. A short article under heavy navigation reads as
    a sure list, and stored as one it would lose its body."""
    return (params.post_on_list_prose_bytes > 0 and _list_then_article(routes)
            and prose.weight >= params.post_on_list_prose_bytes
            and _post_marks(linked, dates, params.post_on_list_max_dates, params))


def _unsure_other(routes: list[tuple[str, float]], params: PageTypeParams) -> bool:
    """Article one of the two best routes and the best below `other_unsure_below`: the model
    cannot tell an article from 'other'."""
    return ARTICLE in (routes[0][0], routes[1][0]) and routes[0][1] < params.other_unsure_below


def _dated_prose(linked: Callable[[], int], dates: Callable[[], int],
                 prose: Callable[[], Prose], params: PageTypeParams) -> bool:
    """A post's marks (_post_marks, one or two dates) and a prose block of
    `dated_prose_bytes`: a post the model reads as 'other' (an essay, a notice with its date).
    An 'other' page that shows a date but little prose (a project showcase, a feed index)
    stays 'other'."""
    return (params.dated_prose_bytes > 0
            and _post_marks(linked, dates, params.lone_post_max_dates, params)
            and prose().weight >= params.dated_prose_bytes)


def classify_page(
    doc: Document,
    site_rules: Sequence[SiteRule] = (),
    params: PageTypeParams = PAGE_TYPE,
    model: PageTypeModel | None = None,
) -> PageTypeDecision:
    """Decide a page's type: a feed or sitemap is 'other' (FEED_RULE), else site rule, else
    built-in rule, else the classifier.

    The classes are first summed by route (news, blog and forum are one article route,
    see _by_route): the likeliest route decides, and the best article type names it.
    Below `params.min_confidence` the page is stored as 'other' (a wrong route costs
    more than a skipped page), but for cases decided by the two best routes:
    - 'list' is the best, or 'other' is and 'list' is second: then it is 'list', for
      crawl safety (a list stored as 'other' is never revisited, an extra visit to an
      'other' page is cheap);
    - the best is an article type (news, blog, forum) and the second is not 'other':
      the best guess stands. Both article types: the page goes to article extraction
      either way. Article before list: a list read as an article and an article read as
      a list are each lost once, so the likelier reading wins.
    A page whose head declares a publication date stays on the article route whatever
    the model says (see DECLARES_PUBLICATION), unless its og:type says it is a website's
    index page or it shows no date of its own; it takes the best article type.
    Unsure between article and list, a page that stacks linked headings over text is a
    list (`linked_headings`, see _lists_posts); a page the classifier leans to call list
    that shows one or two dates of its own (outside links) and at most one such heading (its
    own headline) is a lone post, an article (`lone_post`, see _lone_post).
    So does a page the classifier calls list whose prose sits in one dominant block
    (`prose_block`, see _prose_dominates): old blog posts with heavy navigation, no URL
    and no declared date otherwise go to record mining. Checked only then and for an
    unsure 'other' (below): it costs a Python step per prose piece.
    A list that shows a lone post's marks and a block of prose, however sure the classifier,
    keeps its main text beside its records (`post_on_list`, see _post_on_list); when its
    head also says og:type "article", it is an article (`og_article_post`). A page
    the classifier calls 'other', unsure between it and article (_unsure_other), is an
    article when it shows one or two dates and a block of prose (`dated_prose`, see
    _dated_prose), or when one block of prose dominates it (`prose_block`).
    The two best guesses stay in `candidates`. Figures for each rule:
    docs/DECISIONS.md, "Unsure pages", "Prose-dominated pages" and "Page-type rules after
    the model".
    """
    if is_feed(doc.text):
        return PageTypeDecision(FALLBACK_TYPE, 1.0, FEED_RULE, [(FALLBACK_TYPE, 1.0)])
    matched = match_rule(doc.url, site_rules)
    if matched is not None:
        page_type, decided_by = matched
        return PageTypeDecision(page_type, 1.0, decided_by, [(page_type, 1.0)])
    model = model or load_model()
    features, scan = scanned_features(doc, _wanted(model.features))
    ranked = model.rank(features)
    routes = _by_route(ranked)
    # Each walks the page: counted at most once, and only when a rule asks.
    dates = cache(lambda: visible_dates(scan))
    own = cache(lambda: own_dates(scan))  # a post's marks (_post_marks) count these
    own_df = cache(lambda: own_dates(scan, params.day_first_dates))  # dated_prose reads these
    linked = cache(lambda: linked_headings(scan.body, doc.url, params.linked_heading_text_bytes))
    titled = cache(lambda: _record_titles(linked, scan, doc.url, params))
    prose = cache(lambda: dominant_prose(scan))
    best, confidence = routes[0]
    if best == ARTICLE:
        best = _best_article(ranked)[0]
    if best not in ARTICLE_TYPES and _declares_article(features, scan, dates, params):
        return PageTypeDecision(*_best_article(ranked), "declared_publication", ranked[:2])
    if params.single_post_class and best not in ARTICLE_TYPES and _single_post(scan):
        return PageTypeDecision(*_best_article(ranked), "single_post", ranked[:2])
    if confidence < params.min_confidence:
        best = _unsure(best, [ARTICLE_TYPES[0] if c == ARTICLE else c for c, _ in routes[:2]])
    if best == "list" or best in ARTICLE_TYPES:
        if _lists_posts(linked, routes, params) and not (
                params.headline_prose and prose_headline(scan, doc.url) is False):
            return PageTypeDecision("list", dict(routes)["list"], LINKED_HEADINGS, ranked[:2])
        if best == "list" and _lone_post(titled, own, routes, params):
            return PageTypeDecision(*_best_article(ranked), "lone_post", ranked[:2])
    if best == "list" and _prose_dominates(prose(), params):
        return PageTypeDecision(*_best_article(ranked), "prose_block", ranked[:2])
    if best == "list" and _post_on_list(titled, own, prose(), routes, params):
        if params.og_article_post and _og_article(scan):
            return PageTypeDecision(*_best_article(ranked), "og_article_post", ranked[:2])
        return PageTypeDecision(best, confidence, POST_ON_LIST, ranked[:2])
    if best == FALLBACK_TYPE and _unsure_other(routes, params):
        if _dated_prose(titled, own_df, prose, params):
            return PageTypeDecision(*_best_article(ranked), "dated_prose", ranked[:2])
        if _prose_dominates(prose(), params):
            return PageTypeDecision(*_best_article(ranked), "prose_block", ranked[:2])
    return PageTypeDecision(best, confidence, "classifier", ranked[:2])
