"""Page furniture that markup names as such: navigation, sidebars, share bars, related links.

Density alone cannot tell a long "related stories" list with teaser sentences
from the article, but page authors label such blocks (semantic tags, class and
id words) in every language, because their CSS needs the hook. Blocks found
here are treated as absent by density extraction; the tree is not changed.
"""

from __future__ import annotations

import re
from functools import lru_cache

import lxml.html

from pipelines.article.markup import Markup, hint_words, named_rows, outermost
from pipelines.page_text import by_first_letter, text_of
from pipelines.params import BOILERPLATE, BoilerplateParams

# Semantic tags that never hold the article body.
NOISE_TAGS = frozenset({"nav", "aside", "footer", "form", "menu", "dialog", "figcaption"})
# Class/id words of page furniture (matched as whole tokens, split on - _ and case changes).
_NOISE_WORDS = (
    "nav", "navbar", "navigation", "menu", "submenu", "breadcrumbs?", "crumbs?", "sidebar",
    "rail", "footer", "masthead", "share", "sharing", "social", "sns", "follow", "related",
    "recommend(?:ed|ations?)?", "popular", "trending", "promo", "promotion", "advert",
    "advertisement", "ads?", r"ad\w*slot", "sponsor(?:ed)?", "banner", "newsletter",
    "subscribe", "subscription", "signup", "login", "cookies?", "consent", "gdpr", "tagcloud",
    "pagination", "pager", "paging", "toolbar", "outbrain", "taboola", "modal", "popup",
    "overlay", "caption", "credits?", "copyright", "tuijian", "xiangguan", "fenxiang",
    "pinglun", "guanggao", "daohang",
)
# Matched against " " + lowercased words (re.I makes it three times slower): a pattern that
# starts with a separator lets the regex engine skip to the separators instead of trying
# every word at every position; with the words grouped, this busiest regex of the page
# takes half the instructions of a plain (?:^|[\s_\-])(?:nav|navbar|…).
_NOISE = re.compile(rf"[\s_\-](?:{by_first_letter(_NOISE_WORDS)})(?=$|[\s_\-\d])")
# Tags that hold the article by definition; class words never make them noise.
_CONTENT_TAGS = frozenset({"article", "main", "body", "html"})
# A hint never removes a block that visibly holds the article: a headline, an <article>
# or a declared article body (see Markup.holders).
_KEEP_INSIDE = ("h1", "article")
_NOISE_ROLES = ("navigation", "complementary", "contentinfo", "banner")


@lru_cache(maxsize=8192)
def _noise_hint(words: str) -> bool:
    words = words.lower()
    return bool(_NOISE.search(" " + words)) and _furniture_only(words)


def _furniture_only(lowered: str) -> bool:
    """A name that _NOISE matches is furniture unless it also names an article container
    ("l-sidebar-fixed l-article-body" wraps the body, not a sidebar): the rule find_noise
    applies to a whole page's names at once. Chained substring tests: the words as one regex
    alternation, tried at nearly every letter, cost 0.2 M instructions a page more."""
    return not ("article" in lowered or "body" in lowered or "content" in lowered
                or "main" in lowered or "entry" in lowered or "story" in lowered
                or "text" in lowered or "post" in lowered or "detail" in lowered
                or "zhengwen" in lowered)


def _noise(tag: str, role: str | None, words: str) -> bool:
    if tag in NOISE_TAGS or role in _NOISE_ROLES:
        return True
    return tag not in _CONTENT_TAGS and bool(words) and _noise_hint(words)


def is_named_noise(element: lxml.html.HtmlElement, markup: Markup | None = None) -> bool:
    """True when tag, role or class/id words mark `element` as page furniture; role and words
    are read off the page's `markup` table when given (two attribute reads cost more)."""
    if markup is None or markup.position(element) is None:
        return _noise(element.tag, element.get("role"), hint_words(element))
    return _noise(element.tag, markup.roles.get(element), markup.words(element))


def find_noise(markup: Markup,
               params: BoilerplateParams = BOILERPLATE) -> list[lxml.html.HtmlElement]:
    """Outermost named-furniture blocks under <body>, except blocks that hold the article."""
    names = [words for words in markup.names_where(_NOISE) if _furniture_only(words.lower())]
    found = {row[0] for row in named_rows(markup, names, _CONTENT_TAGS)}
    found.update(e for e, role in markup.roles.items() if role in _NOISE_ROLES)
    found.update(markup.body.iterdescendants(*NOISE_TAGS))
    candidates = sorted(found, key=markup.position)  # as _noise, asked by name, not per row
    holders = markup.holders(*_KEEP_INSIDE)
    return outermost(markup, candidates,
                     lambda e: e not in holders and not _wraps_page(markup, e, params=params))


def _wraps_page(markup: Markup, element: lxml.html.HtmlElement,
                params: BoilerplateParams = BOILERPLATE) -> bool:
    """A <form> around most of the page's text is the page itself (ASP.NET WebForms pages,
    common on government and forum sites, wrap everything in one), not a search box."""
    return element.tag == "form" and len(text_of(element)) >= params.page_form_share * len(
        markup.text())
