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
from datetime import datetime, timedelta, timezone
from typing import NamedTuple
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.boilerplate import Markup, hint_words, read_markup
from pipelines.dates import find_date, is_clock
from pipelines.structured import Declared, declared

# Separators between a headline and the site name in <title> and og:title.
_TITLE_SPLIT = re.compile(
    r"\s+[-|–—·•:»]\s+|\s*[|｜_]\s*|\s+::\s+|\s*-{2,}\s*|(?<=[\u3000-\u9fff\uff01-\uff5e])\s*-\s*")
_BYLINE_HINT = re.compile(r"author|byline|byl|writer|reporter|zuozhe|作者", re.I)
_DATE_HINT = re.compile(r"date|datum|fecha|time|publish|posted|pubtime|meta|info|source|riqi|"
                        r"created|updated|submitted|author|byline", re.I)
# "By", "Von", "Erstellt von", "View all posts by", optionally a role ("FOCUS-Online-Experte").
_BY_PREFIX = re.compile(
    r"^\s*(?:about the author|über (?:den autor|die autorin))\s*[-–:]?\s*|"
    r"^\s*(?-i:By|Von)(?=[A-ZÄÖÜ][a-zäöüß])|"  # "ByAlex Bozarjian": markup without a space
    r"^\s*(?:(?:written|posted|erstellt|geschrieben|verfasst|veröffentlicht|publié|publicado|"
    r"escrito|ein artikel|(?:zeige |show |view )?(?:alle |all )?"
    r"(?:beiträge|posts|articles|artikel))\s+)?(?:by|von|par|por|di|door|av|af|"
    r"autor(?:in|en)?|authors?|text|texto)\s*[:：]?\s+(?:(?:\S*(?:redakteur|redaktor|experte|expertin|"
    r"reporter|korrespondent|correspondent)\w*)\s+)?", re.I)
# A Western labelled byline anywhere in a short line: "Datum: 03.11.2021 Autor: Peter Maahn".
_LABELLED = re.compile(r"(?:^|\s)(?:autor(?:in)?|author|von|by|text|par|por)\s*[:：]\s*(.+)$", re.I)
# "06.11.2023 13:30 von Olga": a name after a date.
_AFTER_DATE = re.compile(r"\s(?:by|von|par|por|di)\s+(\S.*)$", re.I)
# Words that bylines show without a name, or that end a name ("Stand: …", "Updated …").
_NOT_NAMES = frozenset({"posted", "by", "von", "veröffentlicht", "published", "no author",
                        "admin", "anonymous", "redaktion", "author", "autor"})
_WEEKDAY = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:montag|dienstag|mittwoch|donnerstag|"
    r"freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|"
    r"miércoles|jueves|viernes|sábado|domingo)\b,?", re.I)
# … or a next label ("Text: A Fotos: B", "Author: A, Datum: …").
_NAME_END = re.compile(
    r"\s+(?:stand|updated|aktualisiert|mis à jour|actualizado)\b.*$|\s+(?:am|on|le|el|il|um|at)$|"
    r"\s*[|,\-–·:→»›]+\s*$|\s*/.*$|\s+\d.*$|[,|]?\s+[^\W\d_]+\s*:.*$|\s+" + _WEEKDAY.pattern + "$|"
    r"\s+(?:\d+\s+|ein\s+|one\s+|no\s+|keine\s+)?(?:kommentare?|comments?)\b.*$", re.I)
_CN_FIELD = re.compile(r"(作者|记者|来源|编辑|责任编辑|发布时间|发表时间|时间|日期)\s*[:：]\s*"
                       r"([^\s|丨｜/]+(?:\s\d{1,2}:\d{2}(?::\d{2})?)?)")
_CN_DATE_LABELS = ("发布时间", "发表时间", "时间", "日期")
_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-]?(\d{2})[/-]?(\d{2})/")
_URL_DAY_FIRST = re.compile(r"/(\d{2})[-.](\d{2})[-.]((?:19|20)\d{2})(?:[/.?#-]|$)")
_BYLINE_TAGS = frozenset({"span", "div", "p", "a", "time", "li", "em", "strong", "address",
                          "small", "font", "td", "b", "i", "cite"})
# Publishers, not people: "Deutscher Caritasverband e. V.", "Bayerische Landesanstalt … - LWF".
_ORGANISATION = re.compile(r"\b(?:e\.\s?V|GmbH|AG|Inc|Ltd|LLC|Verband|Verlag|Redaktion|"
                           r"Landesanstalt|Institut|Universität|University|Agencies|Ministerium)\b",
                           re.I)
_CONJUNCTION = re.compile(r"\s+(?:und|and|y|et|&)\s+(?=\S+\s+\S)", re.I)
MAX_BYLINE_CHARS = 80
MAX_RAW_CHARS = 800  # a byline block's text with its layout whitespace
MAX_BY_LINE = 60  # an unmarked "By …" line longer than this is prose ("Von der Leyen sagt …")
SITE_PART_RATIO = 1.5
MIN_SITE_KEY = 4  # shorter site keys match only whole title parts
_SITE_SEPARATOR = r"\s*[-|–—·•:»_｜/]+\s*"  # between a declared site name and the headline
_DASHES = str.maketrans("–—‐‑", "----")
MIN_LONE_H1_WORDS = 3
BLOCKS_BEFORE_TITLE = 150  # kickers, meta lines and breadcrumbs above the headline
BLOCKS_AFTER_TITLE = 400
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
NEAR_TITLE_BLOCKS = 30  # the headline's own lines: this many blocks below it
# Page zones by country domain, then by language, where one zone covers (nearly) all pages.
_ZONES = {"de": "Europe/Berlin", "at": "Europe/Vienna", "ch": "Europe/Zurich",
          "fr": "Europe/Paris", "it": "Europe/Rome", "es": "Europe/Madrid",
          "nl": "Europe/Amsterdam", "pl": "Europe/Warsaw", "be": "Europe/Brussels",
          "uk": "Europe/London", "cn": "Asia/Shanghai", "tw": "Asia/Taipei",
          "hk": "Asia/Hong_Kong", "jp": "Asia/Tokyo", "kr": "Asia/Seoul"}
_LANGUAGE_ZONES = {"de": "Europe/Berlin", "it": "Europe/Rome", "nl": "Europe/Amsterdam",
                   "pl": "Europe/Warsaw", "zh": "Asia/Shanghai", "ja": "Asia/Tokyo",
                   "ko": "Asia/Seoul"}


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


def _fold(text: str) -> str:
    return " ".join(text.casefold().translate(_DASHES).split())


def _key(text: str) -> str:
    """Letters and digits only: "MacTechNews.de" and "mactechnews.de" are one site."""
    return re.sub(r"[\W_]+", "", text.casefold())


def _host_keys(url: str | None) -> set[str]:
    host = _host(url)
    return {k for k in (_key(host), _key(host.split(".")[0])) if k}


def is_site_name(text: str, site_name: str | None, url: str | None, loose: bool = False) -> bool:
    """The site's own name: the declared one or the host ("MacTechNews.de", "seelenradio");
    `loose` also takes a title part that starts with the host's name ("Zoll online")."""
    key, hosts = _key(text), _host_keys(url)
    if not key or key == _key(site_name or "") or key in hosts:
        return bool(key)
    return loose and any(len(k) >= MIN_SITE_KEY and (key.startswith(k) or k.startswith(key))
                         for k in hosts)


def _cut_site(title: str, site_name: str | None) -> str:
    """`title` without the declared site name at its start or end, where a separator
    parts them."""
    if not site_name or _fold(site_name) == _fold(title):
        return title
    site = re.escape(" ".join(site_name.split()))
    cut = re.sub(rf"{_SITE_SEPARATOR}{site}\s*$", "", title, flags=re.I)
    if cut == title:
        cut = re.sub(rf"^\s*{site}{_SITE_SEPARATOR}", "", title, flags=re.I)
    return cut.strip()


def title_parts(title: str) -> list[str]:
    """A <title> or og:title split at headline/site separators."""
    return [p.strip() for p in _TITLE_SPLIT.split(title) if p.strip()]


def strip_site_name(title: str, site_name: str | None = None, url: str | None = None) -> str:
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
    if is_site_name(last, site_name, url, loose=True):
        return head
    if is_site_name(first, site_name, url, loose=True):
        return tail
    if site_name:
        return title.strip()
    return head if len(last) <= SITE_PART_RATIO * len(first) else tail


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.casefold()))


def _overlaps(h1: str, other: str) -> bool:
    mine, theirs = _words(h1), _words(other)
    return bool(mine) and len(mine & theirs) >= 0.5 * len(mine | theirs)


def _inside(inner: str, outer: str) -> bool:
    """`inner` within `outer` as whole words ("Joghurt" is not inside "Joghurts")."""
    inner, outer = _fold(inner), _fold(outer)
    at = outer.find(inner)
    if not inner or at < 0:
        return False
    before, after = outer[at - 1: at], outer[at + len(inner): at + len(inner) + 1]
    return not any(c.isalnum() and c < "\u3000" for c in before + after)


def _is_title_part(headline: str, title: str) -> bool:
    """`headline` is `title` less parts at a separator, not a headline cut short."""
    found = re.search(re.escape(headline), title, re.I)
    if not found or headline == title:
        return False
    before, after = title[: found.start()], title[found.end():]
    return bool((not before or re.search(f"(?:{_TITLE_SPLIT.pattern})$", before))
                and (not after or _TITLE_SPLIT.match(after)))


def _references(tree, found: Declared, url: str | None) -> tuple[list[str], list[str]]:
    """(headlines, title parts): the declared and <title> headlines with site names cut, and
    every part of both titles."""
    declared_title, tag = _clean(found.title), _clean(tree.findtext(".//title"))
    titles = [t for t in (declared_title, tag) if t]
    refs = [strip_site_name(t, found.site_name, url) for t in titles]
    if declared_title and tag and _is_title_part(declared_title, tag):
        refs.insert(0, declared_title)  # the <title> adds a site name to the clean headline
    parts = [p for t in titles for p in title_parts(t)]
    return refs, parts


def pick_title(tree: lxml.html.HtmlElement, found: Declared, url: str | None = None) -> str | None:
    """The headline that the sources agree on: <h1>s checked against the declared and <title>
    headlines; an <h1> or headline that is only the site's name never wins.

    Order: an <h1> equal to a headline or a whole title; an <h1> equal to a title part (the
    longest); a headline inside a longer <h1> (kicker or date in the <h1>); an <h1> inside a
    headline or sharing most of its words; the page's only <h1>; the declared headline.
    """
    refs, parts = _references(tree, found, url)
    refs = [r for r in refs if not is_site_name(r, found.site_name, url)] or refs[:1]
    h1s = [t for t in (_clean(h.text_content()) for h in tree.iter("h1"))
           if t and not is_site_name(t, found.site_name, url)]
    whole = [_clean(t) for t in (found.title, tree.findtext(".//title")) if _clean(t)]
    for ref in refs + whole:
        for h1 in h1s:
            if _fold(h1) == _fold(ref):
                return h1
    named = [h1 for h1 in h1s if any(_fold(h1) == _fold(p) for p in parts)]
    if named:
        return max(named, key=len)
    for ref in refs:
        if any(_inside(ref, h1) for h1 in h1s):
            return ref
    for h1 in h1s:
        if any(_inside(h1, ref) for ref in refs) or any(_overlaps(h1, t) for t in refs + whole):
            return h1
    if len(refs) == 2 and _fold(refs[0]) != _fold(refs[1]) and _inside(refs[0], refs[1]):
        return refs[1]  # a declared headline cut short (at a quote mark) inside the <title>
    if len(h1s) == 1 and len(h1s[0].split()) >= MIN_LONE_H1_WORDS:
        return h1s[0]  # the page's one headline, unconfirmed: site titles are often generic
    return refs[0] if refs else (h1s[0] if h1s else None)


class Block(NamedTuple):
    """One element near the headline where bylines and dates live."""

    element: lxml.html.HtmlElement
    text: str | None  # None when empty or longer than MAX_BYLINE_CHARS
    since_title: int  # blocks since the headline (1 = the first after it), or -1 before it


def _open_rows(markup: Markup, removed: Collection) -> list[tuple[lxml.html.HtmlElement, str]]:
    """(element, tag) of byline-tag elements and headings outside `removed` subtrees and forms,
    in document order: read off the shared markup table, not a new walk."""
    closed: set = set()
    found = []
    for row in markup.rows:
        element, tag = row[0], row[2]
        if row[1] in closed or element in removed or tag == "form":
            closed.add(element)
        elif tag in _BYLINE_TAGS or tag in _HEADINGS:
            found.append((element, tag))
    return found


def _headline_at(rows: list, title: str | None) -> int | None:
    """Index of the first heading that holds the title, else of the first <h1> (a page may
    put "Quicklinks" in an <h1> and the headline in an <h2>)."""
    headings = [i for i, (_, tag) in enumerate(rows) if tag in _HEADINGS]
    held = (i for i in headings if title and _inside(title, rows[i][0].text_content()))
    return next(held, next((i for i in headings if rows[i][1] == "h1"), None))


def page_blocks(markup: Markup, removed: Collection, title: str | None = None) -> list[Block]:
    """Byline-tag blocks outside `removed` in windows around the headline, read once for
    byline and date: BLOCKS_BEFORE_TITLE before it and BLOCKS_AFTER_TITLE after it, else the
    first BLOCKS_AFTER_TITLE of the page. Menus and teaser lists far from the headline carry
    other articles' names and dates."""
    rows = _open_rows(markup, removed)
    at = _headline_at(rows, title)
    start = 0 if at is None else max(0, at - BLOCKS_BEFORE_TITLE)
    stop = (0 if at is None else at + 1) + BLOCKS_AFTER_TITLE
    blocks = []
    for index in range(start, min(stop, len(rows))):
        element, tag = rows[index]
        if tag in _HEADINGS:
            continue
        raw = element.text_content()  # a long text is not cleaned: that is the costly part
        text = _clean(raw) if len(raw) <= MAX_RAW_CHARS else None
        since = -1 if at is None or index < at else index - at
        blocks.append(Block(element, text if text and len(text) <= MAX_BYLINE_CHARS else None,
                            since))
    return blocks


def clean_name(text: str, now: datetime) -> str | None:
    """A byline reduced to the name: prefix ("By", "Von") and role cut, and the date with
    what follows it (or, for a leading date, what precedes it)."""
    text = _BY_PREFIX.sub("", text)
    found = find_date(text, now)
    if found and found[1] in text:
        before, _, after = text.partition(found[1])
        before = _WEEKDAY.sub("", before)
        after = _BY_PREFIX.sub("", after.lstrip(" ,·|-–:"))
        text = before if re.search(r"\w{2}", before) else after
    previous = None
    while previous != text:
        previous, text = text, _NAME_END.sub("", text.strip(" |,-–·:→»›")).strip()
    usable = re.search(r"\w{2}", text) and not text.startswith("@")
    return text if usable and text.casefold() not in _NOT_NAMES else None


def _is_byline(element: lxml.html.HtmlElement, text: str) -> bool:
    """Named as a byline (class/id, rel=author), or a short "By …" line that is not a link."""
    if _CN_FIELD.search(text):
        return False
    if _BYLINE_HINT.search(hint_words(element)) or element.get("rel") == "author":
        return True
    return bool(_BY_PREFIX.match(text)) and len(text) <= MAX_BY_LINE and element.tag != "a"


def _byline_name(element: lxml.html.HtmlElement, text: str, now: datetime) -> str | None:
    """The name in one short block: a byline element, "Autor: X", or "<date> von X"."""
    if _is_byline(element, text):
        return clean_name(text, now)
    labelled = _LABELLED.search(text)
    if labelled:
        return clean_name(labelled.group(1), now)
    after = _AFTER_DATE.search(text)
    if after and find_date(text[: after.start()], now):
        return clean_name(after.group(1), now)
    return None


def page_byline(blocks: list[Block], now: datetime):
    """(author, source) from byline elements and Chinese 作者：/来源：/编辑： lines; an editor
    (编辑, 责任编辑) stands in for a missing author."""
    author = source = editor = None
    for index, (element, text, _) in enumerate(blocks):
        if text is None:
            continue
        for label, value in _CN_FIELD.findall(text):
            if label in ("作者", "记者") and not author:
                author = value
            elif label == "来源" and not source:
                source = value
            elif label in ("编辑", "责任编辑") and not editor:
                editor = value
        if not author and not _CN_FIELD.search(text):
            author = _byline_name(element, text, now)
            author = author and _inner_name(blocks[index + 1:], element, author, now)
        if author and source:
            break
    return author or editor, source


def _inner_name(blocks: list[Block], outer: lxml.html.HtmlElement, name: str,
                now: datetime) -> str:
    """`name` cut back to a byline block inside `outer` where the outer text runs on into
    the next element without a space ("Michael Hingstonfacebooktwitter": share links)."""
    for element, text, _ in blocks:
        if not any(ancestor is outer for ancestor in element.iterancestors()):
            break
        inner = text and _byline_name(element, text, now)
        if inner and name.startswith(inner) and name[len(inner): len(inner) + 1].isalnum():
            return inner
    return name


def _block_date(element: lxml.html.HtmlElement, text: str | None, now: datetime):
    """A date-named block's date: its text, else a machine date in its attributes
    (<span class="updated" title="2013-04-04T18:52:11+00:00"></span>)."""
    if text:
        return find_date(text, now)
    value = element.get("datetime") or element.get("content") or element.get("title")
    return find_date(value, now) if value and not element.text_content().strip() else None


def page_date(blocks: list[Block], url: str | None, now: datetime):
    """(datetime, raw) from <time>, labelled date lines and date-named elements: the headline's
    own lines below it first, then above it (page headers show today's date), then further
    below (teaser lists show other articles' dates); then the URL, then the first date in the
    few blocks after the headline (an unnamed byline)."""
    below = _under_title(blocks)
    above = [b for b in blocks if b.since_title < 0]
    far = [b for b in blocks if b.since_title > NEAR_TITLE_BLOCKS]
    found = (_marked_date(below, now) or _marked_date(above, now) or _marked_date(far, now)
             or url_date(url, now))
    near = (find_date(b.text, now) for b in below if b.text and not is_clock(b.text))
    return found or next((date for date in near if date), None)


def _under_title(blocks: list[Block]) -> list[Block]:
    """The headline's own lines: the few blocks below it."""
    return [b for b in blocks if 0 <= b.since_title <= NEAR_TITLE_BLOCKS]


def _marked_date(blocks: list[Block], now: datetime):
    """The date of the first <time>, else of the first labelled or date-named block."""
    for element, text, _ in blocks:
        if element.tag == "time":
            found = find_date(element.get("datetime") or text or "", now)
            if found:
                return found
    for element, text, _ in blocks:
        labelled = text and any(label in _CN_DATE_LABELS for label, _ in _CN_FIELD.findall(text))
        if labelled or _DATE_HINT.search(hint_words(element)):
            found = _block_date(element, text, now)
            if found:
                return found
    return None


def url_date(url: str | None, now: datetime):
    """The /2023/05/01/, /20230501/ or /01-05-2023 date in an article URL."""
    match = _URL_DATE.search(url or "")
    if match:
        return find_date("-".join(match.groups()), now)
    match = _URL_DAY_FIRST.search(url or "")
    return find_date("-".join(reversed(match.groups())), now) if match else None


def title_date(tree: lxml.html.HtmlElement, found: Declared, now: datetime):
    """A date standing as a whole part of the title ("08.11.2021 | Online-Fachtag …"), as
    press-release and event pages title their items."""
    for title in (found.title, tree.findtext(".//title")):
        for part in title_parts(_clean(title) or ""):
            date = find_date(part, now)
            if date and date[1] == part:
                return date
    return None


def local_day(found: tuple[datetime, str], url: str | None, language: str | None, now: datetime):
    """A zoned time moved into the page's own zone, so that its calendar day is the page's.

    The zone comes from the URL's date when that is the neighbouring day (the time was
    written in UTC), else from the country domain or language.
    """
    when, raw = found
    if when.tzinfo is None:
        return found
    day = url_date(url, now)
    shift = (day[0].date() - when.date()).days if day else 0
    if shift in (-1, 1):
        hours = shift * (1 + (when.hour if shift < 0 else 23 - when.hour))
        return when.astimezone(timezone(timedelta(hours=max(-12, min(14, hours))))), raw
    zone = _ZONES.get(_host(url).rsplit(".", 1)[-1]) or _LANGUAGE_ZONES.get(language or "")
    return (when.astimezone(ZoneInfo(zone)), raw) if zone else found


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


def _host(url: str | None) -> str:
    return re.sub(r"^www\.", "", (url or "").split("/")[2] if (url or "").count("/") >= 2 else "")


def _declared_author(found: Declared, url: str | None) -> tuple[str | None, bool]:
    """(the declared author, whether it is only a publisher): the site's own name or an
    organisation there stands in for a byline, so a person in the page beats it."""
    author = _clean(_BY_PREFIX.sub("", found.author or ""))
    if not author or not re.search(r"[^\W\d_]", author) or author.casefold() in _NOT_NAMES:
        return None, False  # CMS user ids and placeholders are not names
    key, site = _key(author), _key(found.site_name or "")
    publisher = is_site_name(author, found.site_name, url, loose=True) or any(
        k in key or key in k for k in _host_keys(url) | {site} if len(k) >= MIN_SITE_KEY)
    return author, publisher or bool(_ORGANISATION.search(author))


def pick_author(found: Declared, byline: str | None, url: str | None) -> str | None:
    """The declared author unless it is a publisher and the page names a person."""
    author, publisher = _declared_author(found, url)
    chosen = byline if byline and (publisher or not author) else author
    return _join_names(chosen) if chosen else None


def _join_names(names: str) -> str:
    """A list of names joined with ", " whatever its last conjunction ("A, B y C")."""
    return _CONJUNCTION.sub(", ", names) if "," in names else names


def extract_metadata(
    tree: lxml.html.HtmlElement, body: lxml.html.HtmlElement, url: str | None,
    now: datetime, content_text: str = "", removed: Collection = (), markup: Markup | None = None,
) -> Metadata:
    """Declared values first, the page (outside `removed` blocks) for whatever is missing;
    `markup` is the route's shared table of `body` (read here when not given)."""
    found = declared(tree)
    title = pick_title(tree, found, url)
    blocks = page_blocks(markup or read_markup(body), removed, title)
    author, source = page_byline(blocks, now)
    # A declared publish date beats the one shown under the headline: when they differ, the
    # shown one is mostly the last update, and monitoring needs first publication.
    date = find_date(found.date, now) if found.date else None
    # Never from removed blocks: a comment's or a sidebar item's date would mislead readers.
    date = (date or page_date(blocks, url, now) or title_date(tree, found, now)
            or find_date(content_text[:300], now))
    language = (found.language or "").split("-")[0].split("_")[0].lower() or None
    date = local_day(date, url, language, now) if date else None
    return Metadata(
        title=title,
        author=pick_author(found, author, url),
        source=source,
        published_at=date[0] if date else None,
        published_raw=date[1] if date else None,
        language=language or detect_language(content_text),
    )
