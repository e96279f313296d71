"""The page's headline: the declared headlines, the <title> less its site name, and the
page's own <h1>/<h2> headings, reconciled (an <h1> or headline that is only the site's name
never wins)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache, lru_cache
from itertools import islice
from urllib.parse import urljoin, urlsplit

import lxml.html
from lxml import etree

from pipelines.article.markup import Markup, hint_words
from pipelines.article.metadata.structured import Declared
from pipelines.lexicon import HEADLINE_CLASS, KICKER_CLASS
from pipelines.page_text import clean, fold, hint_test, host_keys, is_inside, name_key, text_of
from pipelines.params import TITLES, TitleParams

# Separators between a headline and the site name in <title> and og:title.
# An underscore parts "标题_新浪网", not an identifier's words ("DCL_FORM_GETCONTROLS").
_TITLE_SPLIT = re.compile(
    r"\s+[-|–—·•:»]\s+|\s*[|｜]\s*|\s+_\s*|\s*_\s+|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"
    r"|\s+::\s+|\s*-{2,}\s*|(?<=[\u3000-\u9fff\uff01-\uff5e])\s*-\s*"
    r"|\s*-\s*(?=[\u3000-\u9fff])")  # a bare hyphen beside a Chinese word: "增长10.8%-本地"
_CRUMB_ARROWS = ("»", "›")  # breadcrumb separators: the deeper level follows them
_ENDS_WITH_SPLIT = re.compile(f"(?:{_TITLE_SPLIT.pattern})$")
# Between a declared site name and the headline; found without a pattern per site name (a
# compiled pattern per page cost more than all other title rules).
_SEPARATOR_AT_START = re.compile(r"\s*[-|–—·•:»_｜/]+\s*")
_SEPARATOR_AT_END = re.compile(r"\s*[-|–—·•:»_｜/]+\s*$")
_TEXT_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})
_names_headline = hint_test(HEADLINE_CLASS)
_names_kicker = hint_test(KICKER_CLASS)


def is_site_name(text: str, site_name: str | None, url: str | None, loose: bool = False,
                 params: TitleParams = TITLES) -> bool:
    """The site's own name: the declared one or the host ("MacTechNews.de", "seelenradio");
    `loose` also takes a title part that starts with the host's name ("Zoll online")."""
    key, hosts = name_key(text), host_keys(url)
    if not key or key == name_key(site_name or "") or key in hosts:
        return bool(key)
    return loose and any(len(k) >= params.min_site_key and (key.startswith(k) or k.startswith(key))
                         for k in hosts)


def _cut_site(title: str, site_name: str | None) -> str:
    """`title` without the declared site name at its start or end, where a separator
    parts them."""
    if not site_name or fold(site_name) == fold(title):
        return title
    site = " ".join(site_name.split()).lower()
    lower = title.lower()
    if len(lower) != len(title):  # lower() changed a length ("İ"): no position maps back
        return title
    end = lower.rstrip()
    separator = end.endswith(site) and _SEPARATOR_AT_END.search(title, 0, len(end) - len(site))
    if separator:  # "» Headline :Site" (a blank section name before the »)
        return title[: separator.start()].strip().lstrip("»› ")
    start = len(lower) - len(lower.lstrip())
    separator = lower.startswith(site, start) and _SEPARATOR_AT_START.match(
        title, start + len(site))
    return title[separator.end():].strip() if separator else title.strip()


@lru_cache(maxsize=4096)
def title_parts(title: str) -> tuple[str, ...]:
    """A <title> or og:title split at headline/site separators (cached: a page's titles are
    split by several rules)."""
    return tuple(p.strip() for p in _TITLE_SPLIT.split(title) if p.strip())


@lru_cache(maxsize=4096)
def strip_site_name(title: str, site_name: str | None = None, url: str | None = None,
                    params: TitleParams = TITLES) -> str:
    """The headline of a "Headline - Site" or "Site | Headline" title.

    The declared site name is cut, else an outer part that names the host; when a site
    name is declared but not in the title, the title is all headline; else the shorter
    outer part is taken for the site (the first part kept unless the last is much longer).
    """
    cut = _cut_site(title, site_name)
    if cut != title:
        return cut
    marks = list(_TITLE_SPLIT.finditer(title))
    first = title[: marks[0].start()].strip() if marks else ""
    last = title[marks[-1].end():].strip() if marks else ""
    if not first or not last:
        return title.strip(" -|–—·•:»_｜")
    head, tail = title[: marks[-1].start()].strip(), title[marks[0].end():].strip()
    if is_site_name(last, site_name, url, loose=True, params=params):
        return head
    if marks[-1].group().strip() in _CRUMB_ARROWS:
        return last  # "Site » Section » Headline": a breadcrumb ends at the page's own item
    for mark, after in zip(marks, marks[1:], strict=False):  # "Headline - Site - Slogan"
        if is_site_name(title[mark.end(): after.start()], site_name, url, params=params):
            return title[: mark.start()].strip()
    if is_site_name(first, site_name, url, loose=True, params=params):
        return tail
    if site_name:
        return title.strip()
    return head if len(last) <= params.site_part_ratio * len(first) else tail


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.casefold()))


def _overlaps(h1: str, other: str, params: TitleParams = TITLES) -> bool:
    mine, theirs = _words(h1), _words(other)
    return bool(mine) and len(mine & theirs) >= params.min_word_overlap * len(mine | theirs)


def _find_ignoring_case(part: str, text: str) -> int:
    """Where `part` first stands in `text` with case ignored as re.I ignores it, else -1.

    Where every character is Latin-1 or caseless, str.lower() pairs characters as re.I does
    and needs no pattern: compiling one per page cost more than all title rules.
    """
    if all(map(_plain_case, set(part + text))):
        return text.lower().find(part.lower())
    found = re.search(re.escape(part), text, re.I)
    return found.start() if found else -1


@lru_cache(maxsize=4096)
def _plain_case(char: str) -> bool:
    """Latin-1 (its case partners outside it, ſ or K, are then absent) or a non-letter
    without case: re.I and str.lower() agree on it, one character for one."""
    return char <= "\xff" or (char.lower() == char == char.upper() and not char.isalpha())


def _is_title_part(headline: str, title: str) -> bool:
    """`headline` is `title` less parts at a separator, not a headline cut short."""
    at = -1 if headline == title else _find_ignoring_case(headline, title)
    if at < 0:
        return False
    before, after = title[:at], title[at + len(headline):]
    return bool((not before or _ENDS_WITH_SPLIT.search(before))
                and (not after or _TITLE_SPLIT.match(after)))


def _references(found: Declared, url: str | None, params: TitleParams = TITLES) -> tuple[list[str],
                                                                                         list[str]]:
    """(headlines, title parts): the declared and <title> headlines with site names cut, and
    every part of both titles."""
    declared_title, tag = clean(found.title), clean(found.page_title)
    titles = [t for t in (declared_title, tag) if t]
    refs = [strip_site_name(t, found.site_name, url, params=params) for t in titles]
    if declared_title and tag and _is_title_part(declared_title, tag):
        refs.insert(0, declared_title)  # the <title> adds a site name to the clean headline
    parts = [p for t in titles for p in title_parts(t)]
    return refs, parts


def pick_title(tree: lxml.html.HtmlElement, found: Declared, url: str | None = None,
               markup: Markup | None = None, text: str = "",
               params: TitleParams = TITLES) -> str | None:
    """The headline that the sources agree on: <h1>s checked against the declared and <title>
    headlines; an <h1> or headline that is only the site's name never wins.

    Order: an <h1> equal to a headline or a whole title (or the heading after it that
    continues it); an <h2> equal to a headline, else an <h1> equal to a title part (the
    longest); a headline inside a longer <h1> (kicker or date in the <h1>); an <h1> inside a
    headline, shortened from it or sharing most of its words; an <h2> equal to a part of a
    headline; the page's only <h1> (repeated ones are widgets'; not beside a logo <h1>,
    whose page has set its headline elsewhere); with nothing declared, the heading at the
    article text; the declared or <title> headline. An <h1> that is the site's banner
    ("Section - Site", ending the <title>) or its logo (a link home) is no candidate; the
    logo's text is the site's name when none is declared.
    """
    headings = list(tree.iter("h1"))  # one walk of the tree for both uses
    logos = [h for h in headings if _links_home(h, url)]
    found = _named_by_logo(logos, found)
    refs, parts = _references(found, url, params=params)
    refs = [r for r in refs if not is_site_name(r, found.site_name, url, params=params)] or refs[:1]
    whole = [clean(t) for t in (found.title, found.page_title) if clean(t)]
    kickers = {fold(p) for p in parts} - {fold(t) for t in refs + whole}
    h1_elements = [(t, h) for h in headings if (t := _without_kicker(h, kickers))
                   and not is_site_name(t, found.site_name, url, params=params)]
    banner = next((t for t, _ in h1_elements if _is_banner(t, found, url, params=params)), None)
    # a logo that only names the site leaves a lone <h1> beside it the page's headline
    beside_logo = any(h in logos for _, h in h1_elements)
    h1_elements = [(t, h) for t, h in h1_elements if t != banner and h not in logos]
    if banner:  # the <title> is "Headline - <the banner>": its headline is the rest
        tag = whole[-1]
        refs = [_cut_site(tag, banner)] + [
            r for r in refs if r != strip_site_name(tag, found.site_name, url, params=params)]
    h1s = [t for t, _ in h1_elements]
    for ref in refs + whole:
        for h1, element in h1_elements:
            if fold(h1) == fold(ref):
                return _continued(h1, element, params=params) or h1
    h2s = cache(lambda: _h2s(tree, found, url,
                             params=params))  # read only when the <h1>s do not decide
    named = _named_heading(h2s(), refs) or _named_heading(h1s, parts)
    if named:
        return named
    for ref in refs:
        if any(is_inside(ref, h1) for h1 in h1s):
            return ref
    for h1 in h1s:
        if any(is_inside(h1, ref) or _shortened(h1, ref, params=params) for ref in refs) or any(
                _overlaps(h1, t, params=params) for t in refs + whole):
            return h1
    named = _named_heading(h2s(), [p for r in refs for p in title_parts(r)])
    if named:
        return named
    if len(refs) == 2 and fold(refs[0]) != fold(refs[1]) and is_inside(refs[0], refs[1]):
        return refs[1]  # a declared headline cut short (at a quote mark) inside the <title>
    single = [h1 for h1 in h1s if h1s.count(h1) == 1]  # a repeated <h1> is a widget's
    if len(single) == 1 and not beside_logo and len(single[0].split()) >= params.min_lone_h1_words:
        return single[0]  # the page's one headline, unconfirmed: site titles are often generic
    shown = None if found.title or not markup else _heading_at_text(markup, text, params=params)
    return shown or (refs and _named_part(markup, refs[0], params=params)) or (
        refs[0] if refs else (h1s[0] if h1s else None))


def _named_part(markup: Markup | None, headline: str, params: TitleParams = TITLES) -> str | None:
    """The part of a headline still holding a section name ("标题-本地", "标题 东区办事处")
    that the page shows in an element named as a title (<div class="arc-title">): older
    CMS templates set the headline in such an element, not in an <h1>."""
    if markup is None:
        return None
    parts = title_parts(headline)
    wanted = {fold(p) for p in parts} if len(parts) > 1 else set()
    for name in filter(_names_headline, markup.named):
        for row in markup.named[name]:
            shown = clean(text_of(row[0]))
            if shown and _headline_sized(shown, params=params) and (
                    fold(shown) in wanted or _opens_with(headline, shown)):
                return shown
    return None


def _opens_with(headline: str, start: str) -> bool:
    """`headline` is `start` and more words after a space."""
    rest = headline[len(start):] if headline.startswith(start) else ""
    return rest[:1].isspace() and bool(rest.strip())


def _continued(h1: str, element: lxml.html.HtmlElement, params: TitleParams = TITLES) -> str | None:
    """The next heading after the <h1> where it repeats the <h1> and goes on after a separator
    ("Teil 49" → "Teil 49 – Büssing-NAG (1931 – 1945)"): the <h1> and <title> hold the short
    form of the headline, the heading its whole."""
    for after in islice(_following(element), params.continued_reach):
        if after.tag in _TEXT_HEADINGS:
            heading = clean(text_of(after)) or ""
            rest = heading[len(h1):] if fold(heading).startswith(fold(h1)) else ""
            return heading if _TITLE_SPLIT.match(rest) and rest.strip(" -|–—·•:»_｜") else None
    return None


def _following(element: lxml.html.HtmlElement) -> Iterator[lxml.html.HtmlElement]:
    """The elements after `element`'s subtree in document order, read lazily: a few are
    wanted, and indexing the page's every element for them cost more than the title rules."""
    node = element
    while node is not None:
        for sibling in node.itersiblings():
            yield from sibling.iter(etree.Element)
        node = node.getparent()


def _heading_at_text(markup: Markup, text: str, params: TitleParams = TITLES) -> str | None:
    """The heading that the article text follows, or that stands in its opening lines: the
    page's headline where no heading agrees with the <title> and nothing is declared (widget
    titles in the <h1>s, a <title> that names only the site or its section)."""
    first = clean(text.lstrip().split("\n", 1)[0]) or ""
    opening = fold(text[:params.opening_chars])
    last = start = None
    for index, (element, _, tag, *_) in enumerate(markup.rows):
        if start is not None and index - start > params.heading_reach:
            break
        if tag in _TEXT_HEADINGS:
            heading = clean(text_of(element))
            if heading and _headline_sized(heading, params=params):
                if start is None:
                    last = (index, heading)
                elif fold(heading) in opening:
                    return heading
        elif start is None and _opens(element, first, params=params):
            start = index
            if last and index - last[0] <= params.heading_reach:
                return last[1]
    return None


def _opens(element: lxml.html.HtmlElement, first: str, params: TitleParams = TITLES) -> bool:
    """Whether the element's own first text starts the article text's first line."""
    own = clean(element.text)
    return bool(own) and len(own) >= min(params.min_opening_chars, len(first)) and first.startswith(
        own[:params.min_opening_chars])


def _headline_sized(text: str, params: TitleParams = TITLES) -> bool:
    """Words enough for a headline: three, or six Chinese/Japanese characters."""
    return len(text.split()) >= params.min_lone_h1_words or sum(
        "\u3000" <= c <= "\u9fff" for c in text) >= params.min_cjk_headline


def _is_banner(h1: str, found: Declared, url: str | None, params: TitleParams = TITLES) -> bool:
    """An <h1> that holds the site's name after a section ("Salsa-Figuren - Rueda in Berlin")
    where the <title> ends with the same words after the page's own headline."""
    parts = title_parts(h1)
    tag = fold(clean(found.page_title) or "")
    return (len(parts) > 1 and is_site_name(parts[-1], found.site_name, url, loose=True,
                                            params=params)
            and tag.endswith(fold(h1)) and len(tag) > len(fold(h1)))


def _named_by_logo(logos: list[lxml.html.HtmlElement], found: Declared) -> Declared:
    """`found` with the logo <h1>'s text as the site's name, when none is declared and the
    titles hold it ("Web Ink Now: Outlaw the phrase…" under <h1><a href="/">Web Ink Now)."""
    if found.site_name or not logos:
        return found
    logo = clean(text_of(logos[0]))
    titles = fold(" ".join(t for t in (found.title, found.page_title) if t))
    return replace(found, site_name=logo) if logo and fold(logo) in titles else found


def _links_home(h1: lxml.html.HtmlElement, url: str | None) -> bool:
    """An <h1> that is the site's logo: all its text one link to the site's front page
    (<h1><a class="navbar-brand" href="/">Site – slogan</a></h1>), whatever the text says,
    so the site name check cannot know it."""
    text = clean(text_of(h1))
    link = next((a for a in h1.iter("a") if clean(text_of(a)) == text), None) if text else None
    href = "" if link is None else (link.get("href") or "").strip()
    if not href or href.startswith("#"):  # no link, or one to this page itself
        return False
    try:
        target = urlsplit(urljoin(url or "", href))
    except ValueError:  # a link no URL parser reads ("http://host[:port%5D/"): not home
        return False
    page = target.path.rsplit("/", 1)[-1].split(".")[0]
    return ((not url or target.netloc == urlsplit(url).netloc) and not target.query
            and not target.fragment and target.path.count("/") <= 1
            and page in ("", "index", "default"))


def _without_kicker(h1: lxml.html.HtmlElement, kickers: set[str]) -> str | None:
    """The <h1>'s text less a leading kicker element that the <title> names as a part of its
    own, not as the headline (<h1><span>Initiative EnergieEffizienz</span> Kostenloser …), or
    only its child that the markup names as the headline (<span class="headline">)."""
    text = clean(text_of(h1))
    first = next(h1.iterchildren(etree.Element), None)
    if not text or first is None or (h1.text or "").strip():
        return text
    named = _named_headline(h1, first, text)
    if named:
        return named
    kicker = clean(text_of(first))
    if kicker and fold(kicker) in kickers and text.startswith(kicker) and text != kicker:
        return text[len(kicker):].strip()
    return text


def _named_headline(h1: lxml.html.HtmlElement, first: lxml.html.HtmlElement,
                    text: str) -> str | None:
    """The <h1>'s text less a first child named as a kicker, else the text of its child named
    as the headline where other children (a kicker, a date) stand beside it."""
    kicker = clean(text_of(first))
    if kicker and _names_kicker(hint_words(first)) and text.startswith(kicker):
        return text[len(kicker):].strip() or None
    for child in h1.iterchildren(etree.Element):
        hint = hint_words(child)
        if _names_headline(hint) and not _names_kicker(hint):
            inner = clean(text_of(child))
            return inner if inner and inner != text else None
    return None


def _named_heading(headings: list[str], names: list[str]) -> str | None:
    """The longest heading equal to one of `names` (title parts, headlines)."""
    folded = {fold(n) for n in names}
    return max((h for h in headings if fold(h) in folded), key=len, default=None)


def _h2s(tree: lxml.html.HtmlElement, found: Declared, url: str | None,
         params: TitleParams = TITLES) -> list[str]:
    """<h2> texts that are not the site's name: the headline of pages whose <h1>s hold the
    logo or a section name."""
    return [t for t in (clean(text_of(h)) for h in tree.iter("h2"))
            if t and not is_site_name(t, found.site_name, url, params=params)]


def _shortened(h1: str, headline: str, params: TitleParams = TITLES) -> bool:
    """The <h1> is the headline cut to its key words ("Blockhaus 3" of "Blockhaus Typ 3 in
    Ludorf"): every word of a multi-word <h1> in the headline, in the same order."""
    mine = re.findall(r"\w+", h1.casefold())
    theirs = iter(re.findall(r"\w+", headline.casefold()))
    return len(mine) >= params.min_short_h1_words and all(word in theirs for word in mine)
