"""Metadata that publishers declare for machines: JSON-LD, Open Graph / <meta>, microdata.

Declared values beat anything guessed from the page, so metadata extraction reads
these first. This module only collects raw strings; normalising dates and
choosing between sources happens in `pipelines.article.metadata`.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate

import lxml.html
from lxml import etree

from pipelines.lexicon import (
    ARTICLE_LD_TYPES,
    META_AUTHOR,
    META_DATE,
    META_DATE_KEY,
    META_OTHER_DATE,
    META_TITLE,
)
from pipelines.params import STRUCTURED_DATA, StructuredDataParams
from pipelines.xml_text import xml_safe


@dataclass
class Declared:
    """Raw metadata strings as the page declares them; None when not declared."""

    title: str | None = None
    author: str | None = None
    date: str | None = None
    site_name: str | None = None
    language: str | None = None
    weak_date: str | None = None  # a date not said to be the publication's (see META_OTHER_DATE)
    page_date: str | None = None  # a WebPage's JSON-LD date: the last resort of declared dates
    page_title: str | None = None  # the <title> text, read once for every title and date rule
    # every publication date declared (JSON-LD's, then each <meta>'s, one vote each): where
    # they disagree, the one most of them give is taken (pipelines.article.metadata)
    dates: tuple[str, ...] = ()


def _objects(value: object) -> Iterator[dict]:
    """Every JSON object in a JSON-LD value, @graph and lists flattened."""
    if isinstance(value, list):
        for item in value:
            yield from _objects(item)
    elif isinstance(value, dict):
        yield value
        yield from _objects(value.get("@graph"))


def _names(value: object) -> list[str]:
    """Author names from a JSON-LD author value: string, Person object or a list of them."""
    if isinstance(value, str):
        return [value] if value.strip() and not value.startswith("http") else []
    if isinstance(value, dict):
        return _names(value.get("name"))
    if isinstance(value, list):
        return [name for item in value for name in _names(item)]
    return []


def _type_of(obj: dict) -> str:
    kind = obj.get("@type", "")
    return " ".join(kind).lower() if isinstance(kind, list) else str(kind).lower()


_LOOSE_TYPE = re.compile(r'"@type"\s*:\s*"([^"]+)"')
_LOOSE_FIELDS = {key: re.compile(rf'"{key}"\s*:\s*"((?:[^"\\]|\\.)*)"')
                 for key in ("headline", "datePublished", "inLanguage")}
_LOOSE_AUTHOR = re.compile(r'"author"\s*:\s*(?:\[\s*)?\{[^{}]*?"name"\s*:\s*"((?:[^"\\]|\\.)*)"'
                           r'|"author"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _loose(text: str) -> dict:
    """Fields read one by one from JSON-LD that does not parse (raw HTML or quotes in values):
    CMS templates break the JSON, rarely the few fields we need."""
    kind = _LOOSE_TYPE.search(text)
    found: dict = {"@type": kind.group(1)} if kind else {}
    for key, pattern in _LOOSE_FIELDS.items():
        match = pattern.search(text)
        if match:
            found[key] = _unescape(match.group(1))
    author = _LOOSE_AUTHOR.search(text)
    if author:
        found["author"] = _unescape(author.group(1) or author.group(2))
    return found


def _unescape(value: str) -> str:
    try:
        return json.loads(f'"{value}"', strict=False)
    except ValueError:
        return value


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON text, read without parsing it (the deepest
    point of any prefix: a parser recurses into what opens before it sees what closes)."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(1 if bracket in "[{" else -1 for bracket in brackets), default=0)


def _json_ld(text: str, params: StructuredDataParams) -> object:
    """The JSON-LD value; read loosely (`_loose`) where it does not parse or nests deeper
    than `params.max_json_ld_depth`."""
    if _nesting(text) <= params.max_json_ld_depth:
        try:
            return json.loads(text, strict=False)
        except ValueError:
            pass
    return _loose(text)


def from_json_ld(scripts: list[lxml.html.HtmlElement],
                 params: StructuredDataParams = STRUCTURED_DATA) -> Declared:
    """Headline, author, date and language of the first article-like JSON-LD object in the
    `scripts`; the date of any other object (WebPage) when no article object declares one.
    JSON escapes may spell characters XML forbids: they are dropped like the page's own."""
    found, page_date = Declared(), None
    for script in scripts:
        data = _json_ld(script.text or "", params)
        for obj in _objects(data):
            if not any(kind in _type_of(obj) for kind in ARTICLE_LD_TYPES):
                page_date = page_date or _text(obj.get("datePublished"))
                continue
            headline = obj.get("headline") or obj.get("name")
            if isinstance(headline, str):
                found.title = found.title or html.unescape(headline)
            found.author = found.author or "; ".join(_names(obj.get("author"))) or None
            date = obj.get("datePublished") or obj.get("dateCreated")
            found.date = found.date or (date if isinstance(date, str) else None)
            lang = obj.get("inLanguage")
            found.language = found.language or (lang if isinstance(lang, str) else None)
    found.page_date = page_date
    return dataclasses.replace(found, **{
        name: xml_safe(value) for name, value in dataclasses.asdict(found).items()
        if isinstance(value, str)})


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _meta_map(metas: list[lxml.html.HtmlElement]) -> dict[str, str]:
    """<meta> name/property/itemprop (lower case) → content; the first declaration wins."""
    found: dict[str, str] = {}
    for meta in metas:
        key = meta.get("property") or meta.get("name") or meta.get("itemprop")
        content = (meta.get("content") or "").strip()
        if key and content:
            found.setdefault(key.strip().lower(), content)
    return found


def _first(values: dict[str, str], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = values.get(key)
        if value and not value.startswith(("http", "@")):
            return value
    return None


def _microdata(props: list[lxml.html.HtmlElement], prop: str) -> str | None:
    """The value of the first element with itemprop=`prop` or RDFa property="schema:`prop`"
    (content, datetime or text)."""
    for element in props:
        name = element.get("itemprop") or element.get("property") or ""
        if element.tag == "meta" or name.rsplit(":", 1)[-1] != prop:
            continue
        named = element.find(".//*[@itemprop='name']")
        source = named if named is not None else element
        value = source.get("content") or source.get("datetime") or source.text_content()
        value = " ".join(value.split())
        if value:
            return value
    return None


# The owners of the attributes: libxml2 finds attributes far faster than it tests every
# element with a predicate (and faster still than string comparisons). Stepping over the
# elements (descendant-or-self::*), not every node as // does (text nodes too), costs less
# (see docs/DECISIONS.md, 'Article route speed').
_PROPS = etree.XPath("(descendant-or-self::*/@itemprop | descendant-or-self::*/@property)/..")


def from_meta(tree: lxml.html.HtmlElement, metas: list[lxml.html.HtmlElement],
              known: Declared | None = None) -> Declared:
    """Open Graph, Twitter, Dublin Core and other `metas`, then microdata in the page for
    what neither they nor `known` (JSON-LD) declare: the microdata search walks the whole
    tree, so it runs only when needed."""
    values = _meta_map(metas)
    known = known or Declared()
    title = _first(values, META_TITLE)
    author = _first(values, META_AUTHOR)
    date = _first(values, META_DATE)
    missing = not (title or known.title) or not (author or known.author) or not (
        date or known.date)
    props = _PROPS(tree) if missing else []
    date = date or _microdata(props, "datePublished") or _microdata(props, "dateCreated")
    html_lang = tree.get("lang") or tree.get("xml:lang")
    return Declared(
        title=title or _microdata(props, "headline"),
        author=author or _microdata(props, "author"),
        date=date,
        dates=tuple(value for key in META_DATE if (value := values.get(key))),
        weak_date=_first(values, META_OTHER_DATE) or _first(
            values, tuple(key for key in values if META_DATE_KEY.search(key))),
        site_name=values.get("og:site_name") or values.get("application-name"),
        language=html_lang or values.get("content-language") or values.get("og:locale"),
    )


def _fuller(first: str | None, second: str | None) -> str | None:
    """The author list that names more people: JSON-LD often keeps only the first."""
    def count(names: str | None) -> int:
        return len(re.split(r"[,;]", names)) if names else 0
    return second if count(second) > count(first) else first or second


def _head_tags(tree: lxml.html.HtmlElement) -> tuple[list, list, str | None]:
    """(JSON-LD scripts, <meta> elements, the first <title>'s text) in one walk of the tree:
    a walk costs about as much whatever it looks for."""
    scripts, metas, title = [], [], None
    for element in tree.iter("script", "meta", "title"):
        if element.tag == "meta":
            metas.append(element)
        elif element.tag == "script":
            if "ld+json" in (element.get("type") or ""):
                scripts.append(element)
        elif title is None:
            title = element.text or ""
    return scripts, metas, title


def declared(tree: lxml.html.HtmlElement) -> Declared:
    """JSON-LD first, then <meta> and microdata, field by field."""
    scripts, metas, title = _head_tags(tree)
    first = from_json_ld(scripts)
    second = from_meta(tree, metas, first)
    return Declared(
        title=first.title or second.title,
        author=_fuller(first.author, second.author),
        date=first.date or second.date,
        weak_date=second.weak_date or first.page_date,
        site_name=second.site_name,
        language=second.language or first.language,
        page_title=title,
        dates=tuple(d for d in (first.date, *second.dates) if d),
    )
