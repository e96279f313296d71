"""Page furniture that markup names as such: navigation, sidebars, share bars, related links.

Density alone cannot tell a long "related stories" list with teaser sentences
from the article, but page authors label such blocks (semantic tags, class and
id words) in every language, because their CSS needs the hook. Blocks found
here are treated as absent by density extraction; the tree is not changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import lxml.html
from lxml import etree

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
# Both are matched against lowercased words: re.I makes them three times slower.
_NOISE = re.compile(rf"(?:^|[\s_\-])(?:{_NOISE_WORDS})(?=$|[\s_\-\d])")
# Words of article containers: "l-sidebar-fixed l-article-body" wraps the body, not a sidebar.
_CONTENT = re.compile(r"article|body|content|main|entry|story|text|post|detail|zhengwen")
# Tags that hold the article by definition; class words never make them noise.
_CONTENT_TAGS = frozenset({"article", "main", "body", "html"})
# A hint never removes a block that visibly holds the article (compiled once, not per call).
_KEEP_INSIDE = etree.XPath(".//h1|.//article|.//*[@itemprop='articleBody']")
_NOISE_ROLES = ("navigation", "complementary", "contentinfo", "banner")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def hint_words(element: lxml.html.HtmlElement) -> str:
    """Class and id of `element` as one space-separated, camelCase-split string."""
    classes, ident = element.get("class"), element.get("id")
    if not classes and not ident:
        return ""
    return _split_hint(classes or "", ident or "")


@lru_cache(maxsize=8192)
def _split_hint(classes: str, ident: str) -> str:
    """Cached: a site repeats the same few class strings on every page and element."""
    raw = f"{classes} {ident}"
    return raw if raw.islower() else _CAMEL.sub(" ", raw)


@lru_cache(maxsize=8192)
def _noise_hint(words: str) -> bool:
    words = words.lower()
    return bool(_NOISE.search(words)) and not _CONTENT.search(words)


def _noise(tag: str, role: str | None, words: str) -> bool:
    if tag in NOISE_TAGS or role in _NOISE_ROLES:
        return True
    return tag not in _CONTENT_TAGS and bool(words) and _noise_hint(words)


def is_named_noise(element: lxml.html.HtmlElement) -> bool:
    """True when tag, role or class/id words mark `element` as page furniture."""
    return _noise(element.tag, element.get("role"), hint_words(element))


@dataclass
class Markup:
    """Every element under <body> read once, in document order, with what its markup names.

    The stages that go by markup (furniture, comment sections, repeated shapes) share
    it instead of each walking the tree and reading attributes again.
    """

    body: lxml.html.HtmlElement
    # (element, parent, tag, class attribute or "", hint_words, role or None) per element
    rows: list[tuple[lxml.html.HtmlElement, lxml.html.HtmlElement, str, str, str, str | None]]
    _holders: dict[etree.XPath, set] = field(default_factory=dict, repr=False)

    def holders(self, marks: etree.XPath) -> set[lxml.html.HtmlElement]:
        """The elements that have, somewhere below them, an element that `marks` (a
        descendant XPath) finds under <body>.

        Asking "does this block hold the headline?" of every candidate block searched its
        whole subtree each time; one upward walk from each of the few marks answers all.
        """
        found = self._holders.get(marks)
        if found is None:
            found = set()
            for mark in marks(self.body):
                for ancestor in mark.iterancestors():
                    if ancestor in found:
                        break
                    found.add(ancestor)
            self._holders[marks] = found
        return found


def read_markup(body: lxml.html.HtmlElement) -> Markup:
    """One walk under `body` filling a Markup."""
    rows = []
    for element in body.iterdescendants(etree.Element):
        classes, ident = element.get("class") or "", element.get("id") or ""
        words = _split_hint(classes, ident) if classes or ident else ""
        rows.append((element, element.getparent(), element.tag, classes, words,
                     element.get("role")))
    return Markup(body, rows)


def outermost(
    markup: Markup,
    candidates: Iterable[lxml.html.HtmlElement],
    wanted: Callable[[lxml.html.HtmlElement], bool],
    skip: Collection[lxml.html.HtmlElement] = (),
) -> list[lxml.html.HtmlElement]:
    """The `candidates` (document order) for which `wanted` holds, none inside another found
    one or inside `skip`; `wanted` is never asked inside either.

    Only the few candidates are visited: their ancestors up to <body> tell whether they lie
    inside a found or skipped block.
    """
    found: list[lxml.html.HtmlElement] = []
    closed = set(skip)
    for element in candidates:
        if element in closed or _below(element, closed, markup.body):
            continue
        if wanted(element):
            found.append(element)
            closed.add(element)
    return found


def _below(element: lxml.html.HtmlElement, blocks: set, body: lxml.html.HtmlElement) -> bool:
    """True when an ancestor of `element` under `body` is one of `blocks`."""
    for ancestor in element.iterancestors():
        if ancestor is body:
            return False
        if ancestor in blocks:
            return True
    return False


def find_noise(markup: Markup) -> list[lxml.html.HtmlElement]:
    """Outermost named-furniture blocks under <body>, except blocks that hold the article."""
    candidates = (e for e, _, tag, _, words, role in markup.rows if _noise(tag, role, words))
    holders = markup.holders(_KEEP_INSIDE)
    return outermost(markup, candidates, lambda e: e not in holders)
