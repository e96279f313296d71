"""Title, author, publish time and language of an article page.

Declared metadata (JSON-LD, <meta>, microdata) is trusted first; the page is read
only for what is missing: the <h1>/<title> pair (the title tag carries a site-name
suffix such as " - 新浪新闻" or " | Site"), byline lines ("By X", 作者：X, 来源：X),
date lines (发布时间：…) and <time> elements. Language comes from the markup, or
else from the script of the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from itertools import islice
from types import MappingProxyType
from typing import NamedTuple
from zoneinfo import ZoneInfo

import lxml.html
from lxml import etree

from pipelines.boilerplate import Markup, hint_words, read_markup
from pipelines.cn_fields import CN_DATE_LABELS, CN_FIELD, cn_fields, has_cn_labels
from pipelines.dates import find_date, is_clock
from pipelines.density import NodeStats
from pipelines.hanzi import either
from pipelines.language import detect_language
from pipelines.page_text import (
    by_first_letter,
    clean,
    fold,
    hint_test,
    host_keys,
    name_key,
    text_of,
)
from pipelines.structured import Declared, declared
from pipelines.titles import MIN_SITE_KEY, is_inside, is_site_name, pick_title, title_parts
from pipelines.zones import local_now, localise, page_zone

_BYLINE_WORDS = ("author", "byl", "writer", "reporter", "zuozhe", "作者")  # "byl": byline, byl
_BYLINE_HINT = re.compile("|".join(_BYLINE_WORDS), re.I)
_BYLINE_HINT_LOWER = re.compile("|".join(_BYLINE_WORDS))
_DATE_HINT = re.compile(r"date|datum|fecha|time|publish|posted|pubtime|meta|info|source|riqi|"
                        r"created|updated|submitted|author|byline", re.I)
# Words that lead into "by": "Posted by", "Erstellt von".
_BY_LEADS = (r"written|posted|published|erstellt|geschrieben|verfasst|veröffentlicht|publié|"
             r"publicado|escrito")
# "By", "Von", "Erstellt von", "View all posts by", optionally a role ("FOCUS-Online-Experte").
_BY_PREFIX = re.compile(
    r"^\s*(?:about the author|über (?:den autor|die autorin))\s*[-–:]?\s*|"
    r"^\s*(?-i:(?:By|Von)(?=[A-ZÄÖÜ][a-zäöüß]))|"  # "ByAlex Bozarjian": no space (not "Byron")
    rf"^\s*[-–—]*\s*(?:(?:{_BY_LEADS}|ein artikel|(?:zeige |show |view )?(?:alle |all )?"
    r"(?:beiträge|posts|articles|artikel))\s+)?(?:by|von|par|por|di|door|av|af|"
    r"autor(?:in|en)?|authors?|text|texto)\s*[:：]?(?:\s+|$)(?:(?:\S*(?:redakteur|redaktor|"
    r"experte|expertin|reporter|korrespondent|correspondent)\w*)\s+)?", re.I)
# A Western labelled byline anywhere in a short line: "Datum: 03.11.2021 Autor: Peter Maahn".
_LABELLED = re.compile(r"(?:^|\s)(?:autor(?:in)?|author|von|by|text|par|por)\s*[:：]\s*(.+)$", re.I)
# "06.11.2023 13:30 von Olga": a name after a date.
_AFTER_DATE = re.compile(r"\s(?:by|von|par|por|di)\s+(\S.*)$", re.I)
# Words that bylines show without a name, or that end a name ("Stand: …", "Updated …").
_NOT_NAMES = frozenset({"posted", "by", "von", "veröffentlicht", "published", "no author",
                        "admin", "anonymous", "author", "autor", "name"})
# An e-mail address is no name: "name, email@gmail.com" is a template's placeholder.
_EMAIL = re.compile(r"\S+@\S+\.\w+")
# What a comment header sets after a name ("Ann says:"), cut from names here and read as a
# header word by the comment reader.
SAID_WORDS = ("says", "said", "wrote", "schreibt", "sagt")
_WEEKDAY = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:montag|dienstag|mittwoch|donnerstag|"
    r"freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|"
    r"miércoles|jueves|viernes|sábado|domingo)\b,?", re.I)
# A weekday run into the name where a <br> parted them ("by Jeff Foust<br>Monday, …").
_GLUED_WEEKDAY = re.compile(r"(?<=[a-zäöüß])(?=(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|"
                            r"(?:Mon|Diens|Donners|Frei|Sams|Sonn)tag\b|Mittwoch\b)")
# … or a next label ("Text: A Fotos: B", "Author: A, Datum: …").
_NAME_END = re.compile(
    r"\s+(?:stand|updated|aktualisiert|mis à jour|actualizado)\b.*$|\s+(?:am|on|le|el|il|um|at)$|"
    r"\s+(?:(?:posted|filed)\s+)?(?:in|to|under)\s+\S.*$|"  # "Henry in Aktuell": a category
    r"\s*[|,\-–—·:→»›]+\s*$|\s*/.*$|\s+\d.*$|[,|]?\s+[^\W\d_]+\s*:.*$|\s+" + _WEEKDAY.pattern + "$|"
    r"\s+(?:\d+\s+|ein\s+|one\s+|no\s+|keine\s+)?(?:kommentare?|comments?)\b.*$|"
    # a follow button beside an account
    r"\s*\+?(?:" + either("已?关注|订阅") + r")$|\s+\+?follow$|"
    rf"\s+(?:{'|'.join(SAID_WORDS)})\.*$", re.I)  # a comment header: "Ann says:"
# A Western label that says the date after it is the publication's: "Erschienen am:",
# "Published on", "Veröffentlicht:", "Datum:" (a bare "date" word needs its colon).
_DATE_LABEL = re.compile(
    r"\s*(?:(?:erschienen|veröffentlicht|publiziert|published|posted|publié|publicado|pubblicato)"
    r"(?:\s+(?:am|on|le|el|il))?|(?:datum|date|fecha|data)(?=\s*:))\s*:?\s*"
    r"(?:$|\d|[^\W\d_]{3,}\.?\s+\d)", re.I)  # then nothing, a digit or a month and a digit
_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-]?(\d{2})[/-]?(\d{2})/")
_URL_MONTH = re.compile(r"/((?:19|20)\d{2})/(\d{2})/(?!\d)")  # WordPress "/2010/05/slug/"
_URL_DAY_FIRST = re.compile(r"/(\d{2})[-.](\d{2})[-.]((?:19|20)\d{2})(?:[/.?#-]|$)")
# A link to an author's page names the author ("/author/jane-doe/", "/autoren/Clara-Loew").
_AUTHOR_HREF = re.compile(r"/(?:authors?|autor(?:en|in|innen)?)/[^/?#]", re.I)
# What may stand between the names of a list of author links.
_SEPARATORS = re.compile(r"[\s,;&/|·]*(?:(?:und|and|y|et|by|von|par|por)\b[\s,;&/|·]*)*", re.I)
# Words that lead into a date: "Posted on …", "veröffentlicht am …".
_DATE_LEAD_WORDS = frozenset({"posted", "published", "veröffentlicht", "erschienen", "erstellt",
                              "publié", "publicado", "updated", "aktualisiert"})
# What may stand around a date besides the date itself: "Posted on …, 13:30 Uhr" (no name).
_ONLY_DATE = re.compile(r"[\W\d_]*(?:(?:" + "|".join(sorted(_DATE_LEAD_WORDS))
                        + r"|uhr|um|am|at|on|le|el)\b[\W\d_]*)*", re.I)
# A "by" standing alone, its name in the next element.
_LONE_BY = re.compile(rf"(?:(?:{_BY_LEADS})\s+)?(?:by|von|par|por)\s*[:：]?", re.I)
LONE_BY_REACH = 3  # blocks after a lone "by" looked at for the name
# A word that one of those byline patterns needs, as they need it: after the start (the " "
# put before the line), a space or a dash, and, but for a name run on ("ByAlex"), before a
# space, a colon or the end. Starting with the separator lets the search skip to them.
# The words grouped by first letter: the engine then tries one branch per letter at each
# space (0.05 M instructions a page less).
_BYLINE_WORDS_AFTER_SPACE = by_first_letter(
    ("by", "von", "par", "por", "di", "door", "av", "af", "autor(?:in|en)?", "authors?", "texto?"))
_BYLINE_WORD = re.compile(
    rf"[\s\-–—](?:(?i:(?:{_BYLINE_WORDS_AFTER_SPACE})(?=[\s:：]|$)"
    r"|about|über)|(?:By|Von)(?=[A-ZÄÖÜ]))")
_NAME_LIST = re.compile(r"\s*(?:[,;&]|\b(?:und|and|y|et)\b)\s*", re.I)
MAX_NAME_WORDS = 4  # "Dr. Karin J. Schmitz"
_COMMENT_HINT = re.compile(r"comment|kommentar|reply|replies|respond|discuss|disqus", re.I)
_CREDIT_HINT = re.compile(r"licen[cs]e|credit|copyright|caption|bildnachweis", re.I)
_NAME_HINT = re.compile(r"\bfn\b|vcard|name", re.I)
CREDIT_DEPTH = 2  # ancestors of a byline looked at for a credit or licence block
INNER_NAME_ELEMENTS = 8  # elements looked at in a long labelled line for the name's own
_BYLINE_TAGS = frozenset({"span", "div", "p", "a", "time", "li", "em", "strong", "address",
                          "small", "font", "td", "b", "i", "cite"})
# Publishers, not people: "Deutscher Caritasverband e. V.", "Bayerische Landesanstalt … - LWF".
_ORGANISATION = re.compile(r"\b(?:e\.\s?V|GmbH|AG|Inc|Ltd|LLC|Verband|Verlag|Redaktion|"
                           r"Landesanstalt|Institut|Universität|University|Agencies|Ministerium)\b"
                           # a Chinese outlet: …网 (website), …报 (paper), …社 (agency), …台
                           r"|[\u4e00-\u9fff]{2,}(?:" + either("网|报|社|台|新闻|频道") + ")$",
                           re.I)
_EDITOR = re.compile(r"\bedit(?:ed|or|ors)\b|\bhrsg\b|herausgegeben", re.I)
_CONJUNCTION = re.compile(r"\s+(?:und|and|y|et|&)\s+(?=\S+\s+\S)", re.I)
MAX_BYLINE_CHARS = 80
MAX_RAW_CHARS = 800  # a byline block's text with its layout whitespace
MAX_BY_LINE = 60  # an unmarked "By …" line longer than this is prose ("Von der Leyen sagt …")
MONTH_WINDOW = 24  # characters either side of a year where a date around it is read
BLOCKS_BEFORE_TITLE = 150  # kickers, meta lines and breadcrumbs above the headline
BLOCKS_AFTER_TITLE = 400
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_ROW_TAGS = _BYLINE_TAGS | _HEADINGS
NEAR_TITLE_BLOCKS = 30  # the headline's own lines: this many blocks below it
NEAR_ABOVE_BLOCKS = 3  # a date line just above the headline ("01.11.2023 11:35", a kicker)
NO_HEADLINE = -(BLOCKS_BEFORE_TITLE + 1)  # without a headline every block counts as above it
DATELINE_CHARS = 40  # a date this near the start of a longer text opens it (a dateline)
# English-language countries that write the day first.
_DAY_FIRST_ENGLISH = frozenset({"gb", "uk", "ie", "au", "nz", "in", "za"})


@dataclass
class Metadata:
    """What the article route reports besides body and comments."""

    title: str | None = None
    author: str | None = None
    source: str | None = None
    published_at: datetime | None = None
    published_raw: str | None = None
    language: str | None = None
    zone: ZoneInfo | None = None  # the clock the page's zone-less times were read on


_NOTHING_COUNTED: Mapping = MappingProxyType({})


class Block:
    """One element near the headline where bylines and dates live.

    Its text is read on first use: most pages declare their author and date, and then few
    blocks are ever read (reading text was the costliest step of metadata). `counted`, the
    density pass's counters, tells the long blocks (see _read).
    """

    __slots__ = ("element", "since_title", "hint", "shut", "named", "_counted", "_marked",
                 "_text", "_head")

    def __init__(self, element: lxml.html.HtmlElement, since_title: int, hint: str,
                 shut: bool, named: bool = False,
                 counted: Mapping[lxml.html.HtmlElement, NodeStats] = _NOTHING_COUNTED) -> None:
        self.element = element
        self.since_title = since_title  # 1 = the first block after the headline, < 0 above it
        self.hint = hint  # class and id words
        self.shut = shut  # inside a removed block: read only as a marked byline, never a date
        self.named = named  # the class and id words name a byline
        self._counted = counted
        self._marked: bool | None = None
        self._head: str | None | bool = False  # False until the text is read

    @property
    def text(self) -> str | None:
        """The cleaned text; None when empty or longer than MAX_BYLINE_CHARS."""
        if self._head is False:
            self._read()
        return self._text

    @property
    def head(self) -> str | None:
        """The start of a longer text, where a byline or dateline runs on."""
        if self._head is False:
            self._read()
        return self._head

    @property
    def marked(self) -> bool:
        """Named as a byline by class/id, rel=author or microdata (itemprop=author: the page's
        own byline, when the declared author is only the publisher)."""
        if self._marked is None:
            element = self.element
            # bytes names: lxml encodes a str name on every get
            self._marked = (self.named or element.get(b"rel") == "author"
                            or "author" in (element.get(b"itemprop") or "").split())
        return self._marked

    def _read(self) -> None:
        """Text and head. An element with more counted characters than MAX_RAW_CHARS is not
        read: long blocks (the article's containers) were a tenth of the blocks read and
        nine tenths of the characters (0.27 M instructions a page)."""
        counted = self._counted.get(self.element)
        if counted is not None and counted.chars > MAX_RAW_CHARS:
            self._text = self._head = None
            return
        raw = text_of(self.element)  # a long text is not cleaned: that is costly
        text = clean(raw) if len(raw) <= MAX_RAW_CHARS else None
        self._text = text if text and len(text) <= MAX_BYLINE_CHARS else None
        self._head = None if self._text or not text else text[:MAX_BYLINE_CHARS]


_names_byline = hint_test(_BYLINE_HINT)
_names_date = hint_test(_DATE_HINT)
_names_comment = hint_test(_COMMENT_HINT)
_names_credit = hint_test(_CREDIT_HINT)


def _rows(markup: Markup, removed: Collection, named: set[str]) -> tuple[list[tuple], set]:
    """(rows, shut): the markup table's rows of byline-tag elements and headings outside
    `removed` subtrees and forms, and of marked bylines inside removed blocks other than
    comment sections (an article footer's "Posted by"), in document order; `shut` holds the
    latter's elements; `named` holds the class strings that name a byline. A form that holds
    the <h1> wraps the whole page (ASP.NET) and stays open."""
    rows, found, shut, start = markup.rows, [], set(), 0
    for first, end, root in _closed(markup, removed):  # the open stretch, then the block
        found += [row for row in rows[start:first] if row[2] in _ROW_TAGS]
        marked = [row for row in rows[first:end] if named and row[4] in named
                  and row[2] in _BYLINE_TAGS and not _in_comment(row[0], root, markup)]
        found += marked
        shut.update(row[0] for row in marked)
        start = end
    return found + [row for row in rows[start:] if row[2] in _ROW_TAGS], shut


def _byline_hints(hints: set[str]) -> set[str]:
    """The class strings among `hints` that name a byline. A page's strings are mostly new to
    the cache, so they are searched together: joined with NUL (which no attribute holds) and,
    where ASCII (on which lower() and re.I agree), lower-cased, so that plain substring tests
    can first tell that none does (most pages)."""
    order = list(hints)
    joined = "\0".join(order)
    if joined.isascii():
        pattern, text = _BYLINE_HINT_LOWER, joined.lower()
        if not any(word in text for word in _BYLINE_WORDS):
            return set()
    else:
        pattern, text = _BYLINE_HINT, joined
    return {order[text.count("\0", 0, match.start())] for match in pattern.finditer(text)}


def _closed(markup: Markup, removed: Collection) -> list[tuple[int, int, lxml.html.HtmlElement]]:
    """(first row, row after the subtree, block) of the outermost removed blocks and forms
    under <body>, in document order: the rows between them are open, taken whole instead of
    asking of every row whether an ancestor is closed."""
    forms = [form for form in markup.body.iter("form") if form.find(".//h1") is None]
    starts = sorted(((at, block) for block in (*removed, *forms)
                     if (at := markup.position(block)) is not None), key=lambda item: item[0])
    closed: list[tuple[int, int, lxml.html.HtmlElement]] = []
    for first, block in starts:
        if not closed or first >= closed[-1][1]:  # not inside the previous block
            closed.append((first, markup.span(block)[1] + 1, block))
    return closed


def _in_comment(element: lxml.html.HtmlElement, root: lxml.html.HtmlElement,
                markup: Markup) -> bool:
    """Whether `element` lies in a comment section within the removed block `root` (class
    words read off the table: reading attributes again cost more than the rest of _rows)."""
    node = element
    while node is not None:
        if _names_comment(markup.words(node)):
            return True
        if node is root:
            return False
        node = node.getparent()
    return False


def _headline_at(rows: list[tuple], title: str | None) -> int | None:
    """Index of the first heading that holds the title, else of the first <h1> (a page may
    put "Quicklinks" in an <h1> and the headline in an <h2>)."""
    headings = [i for i, row in enumerate(rows) if row[2] in _HEADINGS]
    held = (i for i in headings if title and is_inside(title, text_of(rows[i][0])))
    return next(held, next((i for i in headings if rows[i][2] == "h1"), None))


def _named_heading(tag: str, hint: str) -> bool:
    """A heading below <h1> named as a byline or date (<h5 class="field--name-author">): a
    block, as byline-tag elements are."""
    return tag != "h1" and (_names_byline(hint) or _names_date(hint))


def page_blocks(markup: Markup, removed: Collection, title: str | None = None,
                counted: Mapping[lxml.html.HtmlElement, NodeStats] | None = None) -> list[Block]:
    """Byline-tag blocks in windows around the headline, read once for byline and date:
    BLOCKS_BEFORE_TITLE before it and BLOCKS_AFTER_TITLE after it, else the first
    BLOCKS_AFTER_TITLE of the page. Menus and teaser lists far from the headline carry other
    articles' names and dates. `counted`: the density pass's counters, which tell the long
    blocks that need no reading."""
    named = _byline_hints(set(markup.named))  # every row's non-empty class/id words
    rows, shut = _rows(markup, removed, named)
    at = _headline_at(rows, title)
    start = 0 if at is None else max(0, at - BLOCKS_BEFORE_TITLE)
    stop = (0 if at is None else at + 1) + BLOCKS_AFTER_TITLE
    counted = counted or _NOTHING_COUNTED
    return [Block(row[0], NO_HEADLINE if at is None else index - at, row[4], row[0] in shut,
                  row[4] in named, counted)
            for index, row in enumerate(rows[start:stop], start)
            if row[2] not in _HEADINGS or _named_heading(row[2], row[4])]


class Clock(NamedTuple):
    """How one page's dates are read: relative forms against the fetch time, slashed
    numeric dates day first unless the page is US English."""

    now: datetime
    day_first: bool = False

    def find(self, text: str | None):
        """(datetime, raw) of the first date in `text`, read the page's way."""
        return find_date(text or "", self.now, self.day_first)


def clean_name(text: str, clock: Clock, handles: bool = False) -> str | None:
    """A byline reduced to the name: prefix ("By", "Von") and role cut, and the date with
    what follows it (or, for a leading date, what precedes it). Initials ("S.W.") are a
    name; an @handle only where asked (a commenter's, not a byline's follow link)."""
    text = _BY_PREFIX.sub("", _GLUED_WEEKDAY.sub(" ", text))
    found = clock.find(text)
    if found and found[1] in text:
        before, _, after = text.partition(found[1])
        before = _WEEKDAY.sub("", before)
        after = after.lstrip(" ,·|-–:")
        marked = _BY_PREFIX.match(after)  # "DESIGN | 7 Hours Ago By Richard Darell"
        after = _BY_PREFIX.sub("", after)
        text = after if marked or _ONLY_DATE.fullmatch(before) else before
    previous = None
    while previous != text:
        previous, text = text, _NAME_END.sub("", text.strip(" |,-–—·:→»›")).strip()
    usable = re.search(r"\w{2}|\w\.", text) and (handles or not text.startswith("@"))
    return text if usable and text.casefold() not in _NOT_NAMES else None


def _is_byline(block: Block, text: str) -> bool:
    """Named as a byline (class/id, rel=author), or a short "By …" line that is not a link."""
    if CN_FIELD.search(text):
        return False
    if block.marked:
        return True
    return bool(_BY_PREFIX.match(text)) and len(text) <= MAX_BY_LINE and block.element.tag != "a"


def _byline_name(block: Block, clock: Clock) -> str | None:
    """The name in one block: a byline element, a link to an author page, "Autor: X", or
    "<date> von X"; for a longer byline element, the name before its date."""
    text = block.text
    if text is None:
        return _head_name(block, clock) if block.head else None
    if _is_byline(block, text):
        return clean_name(text, clock)
    if _is_author_link(block.element, text):
        return clean_name(_author_links(block.element) or text, clock)
    labelled = _LABELLED.search(text)
    if labelled:
        return clean_name(labelled.group(1), clock)
    after = _AFTER_DATE.search(text)
    before = text[: after.start()] if after else ""
    found = after and clock.find(before)
    if found and _dated_only(_WEEKDAY.sub("", before.replace(found[1], ""))):
        return clean_name(after.group(1), clock)
    return None


def _dated_only(rest: str) -> bool:
    """What stands before "by X" besides the date holds no prose ("@ 10:26am (PT)", "Posted
    on", not "Auf den Spuren"): no longer word but a date's lead-in."""
    return all(w.casefold() in _DATE_LEAD_WORDS for w in re.findall(r"[^\W\d_]{4,}", rest))


def _head_name(block: Block, clock: Clock) -> str | None:
    """The name opening a longer text: an element of its own right after an author label at
    its start ("Autor: <a>Klausmartin Friedrich</a> Tags: 1907, …"), or the name before the
    date in a byline element."""
    labelled = _LABELLED.match(block.head)
    if labelled:
        names = _marked_names(block.element, labelled.group(1))
        return clean_name(names, clock) if names else None
    found = block.marked and clock.find(block.head)
    name = found and clean_name(block.head.partition(found[1])[0], clock)
    return name if name and _name_like(name) else None


def _name_like(names: str) -> bool:
    """Short enough to be names, not a headline run into the byline."""
    return all(len(name.split()) <= MAX_NAME_WORDS for name in _NAME_LIST.split(names))


def _marked_names(element: lxml.html.HtmlElement, value: str) -> str | None:
    """The start of `value` made of names that are elements of their own, one after the
    other between list separators ("<a>A</a>, <a>B</a> Tags: …" → "A, B")."""
    end = 0
    for inner in islice(element.iterdescendants(etree.Element), INNER_NAME_ELEMENTS):
        name = clean(text_of(inner))
        at = value.find(name, end) if name else -1
        gap = value[end:at]
        if at >= 0 and _SEPARATORS.fullmatch(gap) and (not end or gap.strip()):
            end = at + len(name)
        elif end:
            break
    return value[:end] if end and not value[end: end + 1].isalnum() else None


def _is_author_link(element: lxml.html.HtmlElement, text: str) -> bool:
    """A link to an author's page that shows a name (not "9 articles")."""
    return _links_author(element) and not any(c.isdigit() for c in text)


def _links_author(element: lxml.html.HtmlElement) -> bool:
    """A link to an author's page ("/author/jane-doe/")."""
    return element.tag == "a" and bool(_AUTHOR_HREF.search(element.get(b"href") or ""))


def _author_links(link: lxml.html.HtmlElement) -> str | None:
    """The text of the link's parent when it holds only author-page links between
    separators ("<a>Clara Löw</a>, <a>Siddharth Prakash</a> & <a>Klaus Jacob</a>")."""
    parent = link.getparent()
    links = list(parent.iter("a"))
    if len(links) < 2 or not all(_AUTHOR_HREF.search(a.get("href") or "") for a in links):
        return None
    whole = clean(text_of(parent)) or ""
    rest = whole
    for a in links:
        rest = rest.replace(clean(text_of(a)) or "", "", 1)
    return whole if len(whole) <= MAX_BYLINE_CHARS and _SEPARATORS.fullmatch(rest) else None


def _is_credit(element: lxml.html.HtmlElement) -> bool:
    """Within a picture credit or licence line: the photographer is no byline."""
    for node in (element, *islice(element.iterancestors(), CREDIT_DEPTH)):
        hint = hint_words(node)
        if node.tag in ("figcaption", "figure") or _names_credit(hint):
            return True
    return False


def page_byline(blocks: list[Block], clock: Clock, wanted: bool = True, cn_labels: bool = True):
    """(author, source) from byline elements and Chinese 作者：/来源：/编辑： lines; an editor
    (编辑, 责任编辑) stands in for a missing author, and a marked byline inside a removed
    block (an article footer) for a missing one. Unless `wanted`, only the source is read
    (the page declares a person). `cn_labels` false says no Chinese label is on the page:
    then blocks are read only for a wanted byline."""
    if not (wanted or cn_labels):
        return None, None
    author = source = editor = None
    opened = [b for b in blocks if not b.shut]
    for index, block in enumerate(opened):
        fields = cn_fields(block.text) if cn_labels else ()
        for label, value in fields:
            if label in ("作者", "记者") and not author:
                author = value
            elif label == "来源" and not source:
                source = value
            elif label in ("编辑", "责任编辑") and not editor:
                editor = value
        if wanted and not author and not fields and _may_name(block):
            author = _byline_name(block, clock) or _name_after_by(
                block, opened[index + 1: index + 1 + LONE_BY_REACH], clock)
            author = author and not _is_credit(block.element) and _inner_name(
                opened[index + 1:], block.element, author, clock)
        if (author or not wanted) and source:
            break
    shut = (_byline_name(b, clock) for b in blocks if wanted and _is_shut_byline(b))
    return author or editor or next((name for name in shut if name), None), source


def _may_name(block: Block) -> bool:
    """Whether the block can name anyone at all: a marked byline, a link to an author's page
    or a line with a byline word, which _BY_PREFIX, _LABELLED, _AFTER_DATE and _LONE_BY all
    need. One search spares nearly every block all of those rules. Asking of a link its
    author href, not only its tag, spares the rules the page's many other links, which were
    most of the blocks that went on to them."""
    line = block.text or block.head
    return bool(line) and (bool(_BYLINE_WORD.search(" " + line)) or block.marked
                           or _links_author(block.element))


def _name_after_by(block: Block, next_blocks: list[Block], clock: Clock) -> str | None:
    """The name in the next text after a lone "by" or "Published by" element, where the layout
    parts the two: a link to the author's profile (<span> by </span><h3><a>delta201</a></h3>),
    not a line of prose."""
    if not (block.text and _LONE_BY.fullmatch(block.text)):
        return None
    after = next((b for b in next_blocks if b.text), None)
    name = after and after.element.tag == "a" and clean_name(after.text, clock)
    return name if name and _name_like(name) and not name[0].isdigit() else None


def _is_shut_byline(block: Block) -> bool:
    """A byline in a removed block that surely names a person: rel=author, a name-marked
    element (vcard, "fn", "author-name") or a "By …" line, and no picture credit."""
    if not block.shut or not block.text:
        return False
    named = block.element.get("rel") == "author" or _NAME_HINT.search(block.hint)
    return bool(named or _BY_PREFIX.match(block.text)) and not _is_credit(block.element)


def _inner_name(blocks: list[Block], outer: lxml.html.HtmlElement, name: str,
                clock: Clock) -> str:
    """`name` replaced by a byline block's inside `outer` where the outer text runs on into
    the next element without a space ("Michael Hingstonfacebooktwitter": share links) or on
    into a label that cut the name short ("Mark Newton: EN Übersetzung …")."""
    for block in blocks:
        if not any(ancestor is outer for ancestor in block.element.iterancestors()):
            break
        inner = block.text and _byline_name(block, clock)
        if inner and name.startswith(inner) and name[len(inner): len(inner) + 1].isalnum():
            return inner
        if inner and inner.startswith(name + " "):  # the outer text ran on and was cut short
            return inner
    return name


def _block_date(block: Block, clock: Clock):
    """A date-named block's date: its text or the start of a longer one, else a machine date
    in its attributes (<span class="updated" title="2013-04-04T18:52:11+00:00"></span>)."""
    if block.text or block.head:
        return clock.find(block.text or block.head)
    element = block.element
    value = element.get("datetime") or element.get("content") or element.get("title")
    return clock.find(value) if value and not text_of(element).strip() else None


def page_date(blocks: list[Block], url: str | None, clock: Clock, cn_labels: bool = True,
              weak: tuple[datetime, str] | None = None):
    """(datetime, raw) from <time>, labelled date lines and date-named elements: the headline's
    own lines below it first, then above it (page headers show today's date), then further
    below (teaser lists show other articles' dates; not their bare times of day, which say
    "today" of another article); then the `weak` declared date (a generic <meta name=date>,
    a modification time), then the URL, then the first date shown in the few blocks after
    the headline (an unnamed byline, a dateline opening the text), then in the few just
    above it. A date shown without its year is completed by `weak` (_completed).
    `cn_labels` as for page_byline."""
    opened = [b for b in blocks if not b.shut]
    below = [b for b in opened if 0 <= b.since_title <= NEAR_TITLE_BLOCKS]
    above = [b for b in opened if b.since_title < 0]
    far = (d for d in _marked_dates([b for b in opened if b.since_title > NEAR_TITLE_BLOCKS],
                                    clock, cn_labels) if not is_clock(d[1]))
    found = (next(_marked_dates(below, clock, cn_labels), None)
             or next(_marked_dates(above, clock, cn_labels), None) or next(far, None)
             or weak or url_date(url, clock))
    near = below + [b for b in reversed(above) if b.since_title >= -NEAR_ABOVE_BLOCKS]
    shown = (_shown_date(b, clock) for b in near)
    return _completed(found or next((date for date in shown if date), None), weak)


def _completed(found: tuple[datetime, str] | None,
               weak: tuple[datetime, str] | None) -> tuple[datetime, str] | None:
    """A date shown without its year ("发布时间：10-08 12:00", a bare "12:00") is the declared
    `weak` date when that agrees with what is shown (day and month, the time where shown):
    the page shows the short form of the moment it declares, and the year the short form
    gets otherwise is a guess from the fetch time."""
    if found is None or weak is None or str(found[0].year) in found[1]:
        return found
    shown, declared = found[0], weak[0]
    same_time = (shown.hour, shown.minute) in ((0, 0), (declared.hour, declared.minute))
    same_day = is_clock(found[1]) or (shown.month, shown.day) == (declared.month, declared.day)
    return weak if same_day and same_time else found


def _shown_date(block: Block, clock: Clock):
    """A date in an unnamed block: anywhere in a short line (not a bare clock time), or
    opening a longer one ("Pressemitteilung vom 25. Januar 2022 | Berlin – …")."""
    if block.text:
        return None if is_clock(block.text) else clock.find(block.text)
    found = block.head and clock.find(block.head)
    return found if found and block.head.find(found[1]) < DATELINE_CHARS else None


def _marked_dates(blocks: list[Block], clock: Clock,
                  cn_labels: bool) -> Iterator[tuple[datetime, str]]:
    """The dates of <time> elements, then of labelled or date-named blocks, in that order
    (read lazily: the first is mostly the one taken)."""
    for block in blocks:
        if block.element.tag == "time":
            found = clock.find(block.element.get("datetime") or block.text)
            if found:
                yield found
    for block in blocks:
        labelled = cn_labels and any(label in CN_DATE_LABELS
                                     for label, _ in cn_fields(block.text))
        if labelled or _names_date(block.hint):
            found = _block_date(block, clock)
            if found:
                yield found
        found = _labelled_date(block.element, clock)
        if found:
            yield found


def _labelled_date(element: lxml.html.HtmlElement, clock: Clock):
    """The date after a Western publication label ("Erschienen am: 13.10.2021"), in the same
    element or, where the label stands alone, in the text or element right after it
    (<span>Erschienen am:</span> <h2>13.10.2021</h2>). Only the element's own first text is
    matched: reading every block's whole text cost more than all date rules."""
    label = element.text and _DATE_LABEL.match(element.text)
    if not label:
        return None
    found = clock.find(text_of(element)[:MAX_BYLINE_CHARS])
    after = element.getnext()
    if found or (element.tail or "").strip():
        return found or clock.find(element.tail)
    return clock.find(text_of(after)[:MAX_BYLINE_CHARS]) if after is not None else None


def url_date(url: str | None, clock: Clock):
    """The /2023/05/01/, /20230501/ or /01-05-2023 date in an article URL."""
    match = _URL_DATE.search(url or "")
    if match:
        return clock.find("-".join(match.groups()))
    match = _URL_DAY_FIRST.search(url or "")
    return clock.find("-".join(reversed(match.groups()))) if match else None


def month_date(url: str | None, text: str, clock: Clock):
    """A day in the month that the URL gives (/2010/05/slug/): the first date written
    anywhere in the page's `text` within that month ("wurde am 19. Mai 2010 gepostet" in a
    sidebar)."""
    match = _URL_MONTH.search(url or "")
    if not match:
        return None
    year, month = match.group(1), int(match.group(2))
    at = text.find(year)
    while at >= 0:
        found = clock.find(text[max(0, at - MONTH_WINDOW): at + MONTH_WINDOW])
        if found and found[0].year == int(year) and found[0].month == month:
            return found
        at = text.find(year, at + len(year))
    return None


def title_date(found: Declared, clock: Clock):
    """A date standing as a whole part of the title ("08.11.2021 | Online-Fachtag …"), as
    press-release and event pages title their items."""
    for title in (found.title, found.page_title):
        for part in title_parts(clean(title) or ""):
            date = clock.find(part)
            if date and date[1] == part:
                return date
    return None


def local_day(found: tuple[datetime, str], url: str | None, zone: ZoneInfo | None,
              clock: Clock):
    """The time in the page's own zone, so that its calendar day is the page's: a time
    written without a zone is in it; a zoned one is moved into the zone of the URL's date
    when that is the neighbouring day (the time was written in UTC), else into `zone`.
    """
    when, raw = found
    if when.tzinfo is None:
        return localise(when, zone), raw
    day = url_date(url, clock)
    shift = (day[0].date() - when.date()).days if day else 0
    if shift in (-1, 1):
        hours = shift * (1 + (when.hour if shift < 0 else 23 - when.hour))
        return when.astimezone(timezone(timedelta(hours=max(-12, min(14, hours))))), raw
    return (when.astimezone(zone), raw) if zone else found


def _declared_author(found: Declared, url: str | None) -> tuple[str | None, bool]:
    """(the declared author, whether it is weak): the site's own name, an organisation or an
    editor credit ("Revised Edition Edited by …") there stands in for a byline, so a person
    in the page beats it."""
    author = clean(_EMAIL.sub("", _BY_PREFIX.sub("", found.author or "")).strip(" ,;"))
    if not author or not re.search(r"[^\W\d_]", author) or author.casefold() in _NOT_NAMES:
        return None, False  # CMS user ids and placeholders are not names
    key, site = name_key(author), name_key(found.site_name or "")
    publisher = is_site_name(author, found.site_name, url, loose=True) or any(
        k in key or key in k for k in host_keys(url) | {site} if len(k) >= MIN_SITE_KEY)
    return author, publisher or bool(_ORGANISATION.search(author) or _EDITOR.search(author))


def pick_author(author: str | None, weak: bool, byline: str | None) -> str | None:
    """The declared author unless it is weak and the page names someone else (not the
    declared name cut short: "AFP" of "AFP/The Local")."""
    cut_short = byline and author and fold(author).startswith(fold(byline))
    chosen = byline if byline and (weak or not author) and not cut_short else author
    return _join_names(chosen) if chosen else None


def _join_names(names: str) -> str:
    """A list of names joined with ", " whatever its last conjunction ("A, B y C")."""
    return _CONJUNCTION.sub(", ", names) if "," in names else names


def extract_metadata(
    tree: lxml.html.HtmlElement, body: lxml.html.HtmlElement, url: str | None,
    now: datetime, content_text: str = "", removed: Collection = (), markup: Markup | None = None,
    counted: Mapping[lxml.html.HtmlElement, NodeStats] | None = None,
    zone: ZoneInfo | None = None,
) -> Metadata:
    """Declared values first, the page (outside `removed` blocks) for whatever is missing;
    `markup` is the route's shared table of `body` (read here when not given), `counted`
    its density counters where the route has them (see page_blocks), `zone` the zone the
    crawl was told the site's times are in (else the page's domain or language decide)."""
    found = declared(tree)
    markup = markup or read_markup(body)
    title = pick_title(tree, found, url, markup, content_text)
    cn_labels = has_cn_labels(markup.text())
    language = ((found.language or "").split("-")[0].split("_")[0].lower()
                or detect_language(content_text))
    zone = page_zone(url, language, zone)
    clock = Clock(local_now(now, zone), _day_first(found.language or language))
    declared_author, weak = _declared_author(found, url)
    wanted = weak or not declared_author
    # A declared publish date beats the one shown under the headline: when they differ, the
    # shown one is mostly the last update, and monitoring needs first publication.
    # Declared dates are written by machines: a slashed one is month first whatever the page.
    date = find_date(found.date, clock.now) if found.date else None
    # The page is read only for what is missing: most pages declare author and date.
    blocks = page_blocks(markup, removed, title, counted) if wanted or cn_labels or not date else []
    author, source = page_byline(blocks, clock, wanted, cn_labels)
    # Never from removed blocks: a comment's or a sidebar item's date would mislead readers.
    generic = find_date(found.weak_date, clock.now) if found.weak_date and not date else None
    date = (date or page_date(blocks, url, clock, cn_labels, generic) or title_date(found, clock)
            or month_date(url, markup.text(), clock) or clock.find(content_text[:300]))
    date = local_day(date, url, zone, clock) if date else None
    return Metadata(
        title=_nfc(title),
        author=_nfc(pick_author(declared_author, weak, author)),
        source=source,
        published_at=date[0] if date else None,
        published_raw=date[1] if date else None,
        language=language,
        zone=zone,
    )


def _day_first(language: str | None) -> bool:
    """Whether the page writes 10/05/2022 day first: all but US-style English pages (a plain
    "en" tag, as most US sites write it, counts as US)."""
    tag = (language or "").replace("_", "-").lower()
    return bool(tag) and (not tag.startswith("en") or tag.split("-")[-1] in _DAY_FIRST_ENGLISH)


def _nfc(text: str | None) -> str | None:
    """Composed Unicode, as text editors save it: one code point per letter where one exists."""
    return unicodedata.normalize("NFC", text) if text else text
