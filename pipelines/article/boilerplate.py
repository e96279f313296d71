"""Page furniture that markup names as such: navigation, sidebars, share bars, related links.

Density alone cannot tell a long "related stories" list with teaser sentences
from the article, but page authors label such blocks (semantic tags, class and
id words) in every language, because their CSS needs the hook. Blocks found
here are treated as absent by density extraction; the tree is not changed.
"""

from __future__ import annotations

from functools import lru_cache

import lxml.html

from pipelines.article.markup import Markup, hint_words, named_rows, outermost
from pipelines.lexicon import ARTICLE_CONTAINER_WORDS, FURNITURE_NAME, FURNITURE_ROLES
from pipelines.page_text import text_of
from pipelines.params import BOILERPLATE, BoilerplateParams

# Semantic tags that never hold the article body.
NOISE_TAGS = frozenset({"nav", "aside", "footer", "form", "menu", "dialog", "figcaption"})
# Tags that hold the article by definition; class words never make them noise.
_CONTENT_TAGS = frozenset({"article", "main", "body", "html"})
# A hint never removes a block that visibly holds the article: a headline or a declared
# article body (see Markup.holders), or a single <article> (_holds_one_article).
_KEEP_INSIDE = ("h1",)


@lru_cache(maxsize=8192)
def _noise_hint(words: str) -> bool:
    words = words.lower()
    return bool(FURNITURE_NAME.search(" " + words)) and _furniture_only(words)


def _furniture_only(lowered: str) -> bool:
    """A name that FURNITURE_NAME matches is furniture unless it also names an article container
    ("l-sidebar-fixed l-article-body" wraps the body, not a sidebar): the rule find_noise
    applies to a whole page's names at once. Substring tests: the words as one regex
    alternation, tried at nearly every letter, cost more."""
    return not any(word in lowered for word in ARTICLE_CONTAINER_WORDS)


def _noise(tag: str, role: str | None, words: str) -> bool:
    if tag in NOISE_TAGS or role in FURNITURE_ROLES:
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
    names = [words for words in markup.names_where(FURNITURE_NAME)
             if _furniture_only(words.lower())]
    found = {row[0] for row in named_rows(markup, names, _CONTENT_TAGS)}
    found.update(e for e, role in markup.roles.items() if role in FURNITURE_ROLES)
    found.update(markup.body.iterdescendants(*NOISE_TAGS))
    candidates = sorted(found, key=markup.position)  # as _noise, asked by name, not per row
    holders = markup.holders(*_KEEP_INSIDE)
    return outermost(markup, candidates,
                     lambda e: e not in holders and not _holds_one_article(e)
                     and not _wraps_page(markup, e, params=params))


def _holds_one_article(element: lxml.html.HtmlElement) -> bool:
    """Whether the block holds exactly one <article>: the page's, where several are the cards
    of a teaser list ("You may also enjoy", related posts)."""
    articles = element.iter("article")
    return next(articles, None) is not None and next(articles, None) is None


def _wraps_page(markup: Markup, element: lxml.html.HtmlElement,
                params: BoilerplateParams = BOILERPLATE) -> bool:
    """A <form> around most of the page's text is the page itself (ASP.NET WebForms pages,
    common on government and forum sites, wrap everything in one), not a search box."""
    return element.tag == "form" and len(text_of(element)) >= params.page_form_share * len(
        markup.text())
