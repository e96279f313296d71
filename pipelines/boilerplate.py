"""Page furniture that markup names as such: navigation, sidebars, share bars, related links.

Density alone cannot tell a long "related stories" list with teaser sentences
from the article, but page authors label such blocks (semantic tags, class and
id words) in every language, because their CSS needs the hook. Blocks found
here are treated as absent by density extraction; the tree is not changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

import lxml.html

# Semantic tags that never hold the article body.
NOISE_TAGS = frozenset({"nav", "aside", "footer", "form", "menu", "dialog", "figcaption"})
# Class/id words of page furniture (matched as whole tokens, split on - _ and case changes).
_NOISE_WORDS = (
    "nav|navbar|navigation|menu|submenu|breadcrumbs?|crumbs?|sidebar|rail|"
    "footer|masthead|share|sharing|social|sns|follow|related|recommend(?:ed|ations?)?|"
    "popular|trending|promo|promotion|advert|advertisement|ads?|ad\\w*slot|sponsor(?:ed)?|"
    "banner|newsletter|subscribe|subscription|signup|login|cookies?|consent|gdpr|"
    "tagcloud|pagination|pager|paging|toolbar|outbrain|taboola|"
    "modal|popup|overlay|"
    "caption|credits?|copyright|tuijian|xiangguan|fenxiang|pinglun|guanggao|daohang"
)
_NOISE = re.compile(rf"(?:^|[\s_\-])(?:{_NOISE_WORDS})(?=$|[\s_\-\d])", re.I)
# Words of article containers: "l-sidebar-fixed l-article-body" wraps the body, not a sidebar.
_CONTENT = re.compile(r"article|body|content|main|entry|story|text|post|detail|zhengwen", re.I)
# Tags that hold the article by definition; class words never make them noise.
_CONTENT_TAGS = frozenset({"article", "main", "body", "html"})
# A hint never removes a block that visibly holds the article.
_KEEP_INSIDE = ".//h1|.//article|.//*[@itemprop='articleBody']"
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def hint_words(element: lxml.html.HtmlElement) -> str:
    """Class and id of `element` as one space-separated, camelCase-split string."""
    classes, ident = element.get("class"), element.get("id")
    if not classes and not ident:
        return ""
    raw = f"{classes or ''} {ident or ''}"
    return raw if raw.islower() else _CAMEL.sub(" ", raw)


def is_named_noise(element: lxml.html.HtmlElement) -> bool:
    """True when tag, role or class/id words mark `element` as page furniture."""
    if element.tag in NOISE_TAGS:
        return True
    if element.get("role") in ("navigation", "complementary", "contentinfo", "banner"):
        return True
    if element.tag in _CONTENT_TAGS:
        return False
    words = hint_words(element)
    return bool(words) and bool(_NOISE.search(words)) and not _CONTENT.search(words)


def outermost(
    body: lxml.html.HtmlElement,
    wanted: Callable[[lxml.html.HtmlElement], bool],
    skip: Collection[lxml.html.HtmlElement] = (),
) -> list[lxml.html.HtmlElement]:
    """Elements under `body` for which `wanted` holds, none inside another or inside `skip`.

    A depth-first walk that never enters a found or skipped subtree.
    """
    found: list[lxml.html.HtmlElement] = []
    stack = [child for child in reversed(body) if isinstance(child.tag, str)]
    while stack:
        element = stack.pop()
        if element in skip:
            continue
        if wanted(element):
            found.append(element)
            continue
        stack.extend(child for child in reversed(element) if isinstance(child.tag, str))
    return found


def find_noise(body: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """Outermost named-furniture blocks under `body`, except blocks that hold the article."""
    return outermost(body, lambda e: is_named_noise(e) and not e.xpath(_KEEP_INSIDE))
