"""Title, author, publish time and language of an article page.

Declared metadata (JSON-LD, <meta>, microdata) is trusted first; the page is read
only for what is missing: the <h1>/<title> pair (the title tag carries a site-name
suffix such as " - 新浪新闻" or " | Site"), byline lines ("By X", 作者：X, 来源：X),
date lines (发布时间：…) and <time> elements. Language comes from the markup, or
else from the script of the text.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

import lxml.html

from pipelines.boilerplate import hint_words
from pipelines.dates import find_date
from pipelines.structured import Declared, declared

# Separators between a headline and the site name in <title> and og:title.
_TITLE_SPLIT = re.compile(
    r"\s+[-|–—·•:»]\s+|\s*[|｜_]\s*|\s+::\s+|\s*-{2,}\s*|(?<=[\u3000-\u9fff\uff01-\uff5e])\s*-\s*")
_BYLINE_HINT = re.compile(r"author|byline|byl|writer|reporter|zuozhe|作者", re.I)
_DATE_HINT = re.compile(r"date|time|publish|posted|pubtime|meta|info|source|riqi", re.I)
_BY_PREFIX = re.compile(r"^\s*(?:by|von|par|por|di|door|av|af|written by|posted by|autor(?:in)?"
                        r"|author)\s*[:：]?\s+", re.I)
_CN_FIELD = re.compile(r"(作者|记者|来源|编辑|责任编辑|发布时间|发表时间|时间|日期)\s*[:：]\s*"
                       r"([^\s|丨｜/]+(?:\s\d{1,2}:\d{2}(?::\d{2})?)?)")
_CN_DATE_LABELS = ("发布时间", "发表时间", "时间", "日期")
_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-]?(\d{2})[/-]?(\d{2})/")
_BYLINE_TAGS = frozenset({"span", "div", "p", "a", "time", "li", "em", "strong", "address",
                          "small", "font", "td", "b", "i", "cite"})
MAX_BYLINE_CHARS = 80
SITE_PART_RATIO = 1.5
MAX_SCANNED_BLOCKS = 400


@dataclass
class Metadata:
    """What the article route reports besides body and comments."""

    title: str | None = None
    author: str | None = None
    source: str | None = None
    published_at: datetime | None = None
    published_raw: str | None = None
    language: str | None = None


def _clean(text: str | None) -> str | None:
    text = " ".join((text or "").split())
    return text or None


def strip_site_name(title: str, site_name: str | None = None) -> str:
    """The headline part of a "Headline - Site" title, without the declared site name."""
    parts = [p.strip() for p in _TITLE_SPLIT.split(title) if p.strip()]
    if site_name:
        parts = [p for p in parts if p.casefold() != site_name.strip().casefold()] or parts
    if len(parts) < 2:
        return title.strip()
    longest = max(parts, key=len)
    # "Headline - Site" is the common order: the first part wins unless another is much longer.
    return parts[0] if len(parts[0]) * SITE_PART_RATIO >= len(longest) else longest


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.casefold()))


def _agrees(h1: str, other: str | None) -> bool:
    """An <h1> names the same article as `other` when contained in it or sharing most words."""
    if not other:
        return False
    if h1.casefold() in other.casefold():
        return True
    mine, theirs = _words(h1), _words(other)
    return bool(mine) and len(mine & theirs) >= 0.5 * len(mine | theirs)


def pick_title(tree: lxml.html.HtmlElement, found: Declared) -> str | None:
    """An <h1> that the declared or <title> headline confirms, else those stripped of site names."""
    tag = _clean(tree.findtext(".//title"))
    declared_title = _clean(found.title)
    if declared_title and found.site_name and declared_title.casefold() == \
            found.site_name.strip().casefold():
        declared_title = None
    for h1 in tree.iter("h1"):
        text = _clean(h1.text_content())
        if text and (_agrees(text, tag) or _agrees(text, declared_title)):
            return text
    for title in (declared_title, tag):
        if title:
            return strip_site_name(title, found.site_name)
    first = tree.find(".//h1")
    return _clean(first.text_content()) if first is not None else None


def _short_blocks(body: lxml.html.HtmlElement, removed: Collection = ()):
    """Leaf-ish elements with short text outside `removed`, where bylines and dates live."""
    covered = set(removed)
    seen = 0
    for element in body.iterdescendants():
        if element in covered or element.getparent() in covered or element.tag == "form":
            covered.add(element)
            continue
        if element.tag not in _BYLINE_TAGS:
            continue
        seen += 1
        if seen > MAX_SCANNED_BLOCKS:
            return
        text = _clean(element.text_content())
        if text and len(text) <= MAX_BYLINE_CHARS:
            yield element, text


def clean_name(text: str, now: datetime) -> str | None:
    """A byline reduced to the name: prefix ("By", "Von"), trailing date and punctuation cut."""
    text = _BY_PREFIX.sub("", text)
    found = find_date(text, now)
    if found and found[1] in text:
        text = text[: text.index(found[1])]
    text = re.sub(r"(?:\s+(?:am|on|le|el|il|um|at|\||,|-|–))+\s*$", "", text.strip(" |,-–·:"))
    text = text.strip(" |,-–·:")
    return text if text and re.search(r"\w{2}", text) and not text.startswith("@") else None


def _is_byline(element: lxml.html.HtmlElement, text: str) -> bool:
    """Named as a byline (class/id, rel=author), or a short "By …" line that is not a link."""
    if _CN_FIELD.search(text):
        return False
    if _BYLINE_HINT.search(hint_words(element)) or element.get("rel") == "author":
        return True
    return bool(_BY_PREFIX.match(text)) and len(text) < 50 and element.tag != "a"


def page_byline(body: lxml.html.HtmlElement, removed: Collection, now: datetime):
    """(author, source) from byline elements and Chinese 作者：/来源：/编辑： lines."""
    author = source = None
    for element, text in _short_blocks(body, removed):
        for label, value in _CN_FIELD.findall(text):
            if label in ("作者", "记者") and not author:
                author = value
            elif label == "来源" and not source:
                source = value
        if not author and _is_byline(element, text):
            author = clean_name(text, now)
        if author and source:
            break
    return author, source


def page_date(body: lxml.html.HtmlElement, removed: Collection, url: str | None, now: datetime):
    """(datetime, raw) from <time>, labelled date lines, date-named elements, then the URL."""
    for element in body.iter("time"):
        found = find_date(element.get("datetime") or element.text_content(), now)
        if found:
            return found
    for element, text in _short_blocks(body, removed):
        labelled = [v for label, v in _CN_FIELD.findall(text) if label in _CN_DATE_LABELS]
        if labelled or _DATE_HINT.search(hint_words(element)):
            found = find_date(text, now)
            if found:
                return found
    match = _URL_DATE.search(url or "")
    if match:
        return find_date("-".join(match.groups()), now)
    return None


_SCRIPTS = (("zh", re.compile(r"[\u4e00-\u9fff]")), ("ja", re.compile(r"[\u3040-\u30ff]")),
            ("ko", re.compile(r"[\uac00-\ud7af]")), ("ru", re.compile(r"[\u0400-\u04ff]")),
            ("ar", re.compile(r"[\u0600-\u06ff]")))
_STOPWORDS = {
    "en": {"the", "and", "of", "to", "is", "in", "that", "for"},
    "de": {"der", "die", "und", "das", "ist", "nicht", "mit", "sich"},
    "fr": {"le", "la", "les", "et", "des", "est", "une", "pour"},
    "es": {"el", "los", "las", "y", "que", "del", "por", "una"},
    "pt": {"o", "os", "as", "e", "que", "do", "da", "uma"},
    "it": {"il", "di", "che", "e", "della", "per", "una", "sono"},
    "nl": {"de", "het", "een", "en", "van", "niet", "dat", "zijn"},
    "pl": {"i", "w", "nie", "na", "się", "jest", "że", "do"},
}


def detect_language(text: str) -> str | None:
    """Cheap guess: a non-Latin script decides, else the most frequent stopword set."""
    sample = text[:5000]
    if not sample.strip():
        return None
    counts = {code: len(pattern.findall(sample)) for code, pattern in _SCRIPTS}
    if counts["ja"] > 20:
        return "ja"
    code, hits = max(counts.items(), key=lambda item: item[1])
    if hits > 0.2 * len(sample.replace(" ", "")):
        return code
    words = re.findall(r"\w+", sample.lower())
    votes = {code: sum(w in stop for w in words) for code, stop in _STOPWORDS.items()}
    best = max(votes, key=votes.get)
    return best if votes[best] >= 3 else None


def _declared_author(found: Declared, url: str | None) -> str | None:
    """The declared author, unless it is only the site's own name."""
    author = _clean(found.author)
    if not author or not re.search(r"[^\W\d_]", author):  # CMS user ids are not names
        return None
    site = (found.site_name or "").casefold()
    host = re.sub(r"^www\.", "", (url or "").split("/")[2] if (url or "").count("/") >= 2 else "")
    if author.casefold() in (site, host.casefold()) or author.casefold() in host.casefold():
        return None
    return author


def extract_metadata(
    tree: lxml.html.HtmlElement, body: lxml.html.HtmlElement, url: str | None,
    now: datetime, content_text: str = "", removed: Collection = (),
) -> Metadata:
    """Declared values first, the page (outside `removed` blocks) for whatever is missing."""
    found = declared(tree)
    author, source = page_byline(body, removed, now)
    date = find_date(found.date, now) if found.date else None
    date = date or page_date(body, removed, url, now) or find_date(content_text[:300], now)
    language = (found.language or "").split("-")[0].split("_")[0].lower() or None
    return Metadata(
        title=pick_title(tree, found),
        author=_declared_author(found, url) or author,
        source=source,
        published_at=date[0] if date else None,
        published_raw=date[1] if date else None,
        language=language or detect_language(content_text),
    )
