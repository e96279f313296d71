"""Reader comments and forum replies: find their sections and split them into single comments.

A comment section is found three ways: markup names it (comment, reply,
respond, discuss, 评论, 回复…); a heading announces it ("3 Responses",
"Leave a reply", 网友评论) and the blocks after that heading hold it; or, unnamed,
it is a run of same-shape sibling blocks after the headline, each a short text
with a date or a "says:"/回复 cue and few links. Inside a section, comments are
the most repeated element shape (tag + class words, numbers and odd/even
alternation ignored) that carries text; a section without repeats is one
comment. Forum threads are the same shape at page scale: repeated post blocks
holding most of the page's text; the first post is the body, the others are
replies. Nothing here changes the tree.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime
from functools import lru_cache
from itertools import islice
from operator import itemgetter
from typing import NamedTuple

import lxml.html
from lxml import etree

from pipelines import render
from pipelines.boilerplate import (
    Coverage,
    Markup,
    hint_words,
    is_named_noise,
    named_rows,
    outermost,
)
from pipelines.dates import find_date
from pipelines.hanzi import both, either
from pipelines.metadata import SAID_WORDS, Clock, clean_name
from pipelines.page_text import text_of
from pipelines.results import CommentData

# On " " + lowercased words, as boilerplate._NOISE (a leading separator makes the regex fast).
_SECTION = re.compile(
    r"[\s_\-](?:comments?|commentlist|comment\w*list|respond|replies|discussion|disqus|"
    r"pinglun|huifu|talk|feedback|reactions)(?=$|[\s_\-\d])")
# Every word of _SECTION holds one of these stems.
_SECTION_STEMS = ("comment", "respond", "replies", "discussion", "disqus", "pinglun", "huifu",
                  "talk", "feedback", "reactions")
_SECTION_CJK = both(("评论", "回复", "留言"))
# Named like a comment section but only a counter, a link, a sidebar list of recent comments
# or the bar of who liked a post ("reactionsBar": names, no comments).
_NOT_SECTION = re.compile(r"widget|recent|latest|count|icon|link|btn|button|number|num\b|total|"
                          r"reactions[\s_-]?bar|likes?[\s_-]?bar", re.I)
# A whole heading that announces comments: "3 Responses to “X”", "Comments (3)", 网友评论(12).
_HEADING = re.compile(
    r"(?:(?:\d+|no|one|two|three)\s+)?(?:comments?|responses?|replies|thoughts|reactions|"
    r"kommentare?|commentaires?|comentarios?|reacties|reader comments|discussion)"
    r"(?:\s+(?:to|on|zu|sur|a|for)\s+.+)?\s*(?:[(\[]\d+[)\]])?\s*[:»]?|"
    r"(?:leave|post|add|write) (?:a|your) (?:reply|comment|response)|join the discussion|"
    r"(?:共有?\s*\d+\s*" + either("条") + ")?(?:" + either("网友|读者|热门|最新|全部|发表|精彩")
    + ")?(?:" + either("评论|回复|留言|跟帖") + r")\s*[(（]?\d*[)）]?(?:" + either("条") + ")?",
    re.I)
_HEADING_TAGS = ("h2", "h3", "h4", "h5")
_CUE = re.compile(r"\b(?:says|said|wrote|schreibt|reply|antworten|répondre)\b|"
                  + either("回复|说：") + "|[0-9]+" + either("楼"), re.I)
# Class words of a comment's parts, matched on lowercased words (see _parts).
_AUTHOR = re.compile(r"author|user|name|nick|poster|commenter|(?:^|\s)fn(?:\s|$)|作者|用户")
_TIME = re.compile(r"date|time|when|posted|meta|published|info")
_CHROME = re.compile(r"reply|meta|actions?|vote|like|report|share|avatar|footer|toolbar|"
                     r"quote-?btn|signature|sign")
AUTHOR, TIME, CHROME = range(3)  # the order of _parts' answer
# Digits to "0", on UTF-8 bytes (an ASCII byte is never part of a longer character).
_ZERO_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")
_NEVER_SECTION = frozenset({"html", "body", "article", "main"})
# XPaths are compiled once: `element.xpath(text)` compiles again on every call.
_HOLDS_ARTICLE = etree.XPath(".//h1|.//*[@itemprop='articleBody']")
_DECLARED_AUTHORS = etree.XPath(".//*[@itemprop='author']")
# Every control of a reply form, and the labels that name them.
_ANY_FIELD = etree.XPath(".//input[not(@type='hidden')]|.//textarea|.//select|.//button|.//label")
_FORM_FIELDS = etree.XPath(
    ".//textarea|.//input[@type='text' or @type='email' or not(@type)]")
# Class words (lowercased) that alternate between items of one list, or name the item's
# author: a set and two string tests, not a regex with re.I and .*author.* per word.
_ALTERNATION = frozenset({"odd", "even", "alt", "first", "last", "alternate", "byuser",
                          "bypostauthor", "clearfix", "highlighted", "parent"})
_WORD_CHARS = re.compile(r"\w+")
_ELEMENT, _CLASSES = itemgetter(0), itemgetter(3)  # of a Markup row
_MATCHED = itemgetter(0)  # a match's text
_DIGITS = re.compile(r"\d+")
_LETTER = re.compile(r"[^\W\d_]")
_IDEOGRAPH = re.compile(r"[\u3400-\u9fff]")  # a Chinese comment of one word says something
MIN_COMMENT_CHARS = 2
MIN_SINGLE_CHARS = 20  # a section without repeated items is one comment when this long
# What a comment section shows where there is no comment to show, or a spam filter's notice.
_NOTICE = re.compile(
    r"no comments|comments? (?:are|is) (?:now )?closed|be the first to comment|akismet|"
    r"keine kommentare|kommentare sind geschlossen|anzahl der kommentare|aucun commentaire|"
    r"commentaires sont fermés|sin comentarios|no hay comentarios|"
    + either("暂无评论|还没有评论|评论已关闭"), re.I)
MAX_NOTICE_CHARS = 300
MIN_POST_CHARS = 20
MAX_POST_LINK_SHARE = 0.3
MIN_THREAD_SHARE = 0.5  # the posts hold at least this share of the page's text
MAX_POST_GROUPS = 5
# between a thread's <h1> and its first post: a stats line (查看：4982 | 回复：1), a byline
MAX_HEADLINE_GAP_CHARS = 80
_NOT_POSTS = frozenset({"p", "br", "a", "span", "img", "li", "option", "td", "strong", "em"})
_COMMENT_TAGS = frozenset({"li", "div", "article", "section", "dl", "table"})
MIN_UNNAMED_COMMENT_CHARS = 15
MAX_UNNAMED_COMMENT_CHARS = 3000
MAX_UNNAMED_LINK_SHARE = 0.4
CUE_CHARS = 300  # a comment's author, date and cue words sit near its start
MAX_NAME_CHARS = 60
# Words that stand beside a comment's author and time in its header ("Ann says:", "on July
# 3, 2012 at 9:14 am", "Antworten").
_HEADER_WORDS = frozenset({*SAID_WORDS, "on", "at", "am", "pm", "um", "uhr", "by", "von",
                           "posted", "reply", "antworten", "permalink", "quote", "zitieren",
                           "report", "melden", "edit", "link"})
MAX_HEADER_CHARS = 400  # as written: pages pad " | " between the parts with runs of spaces
MAX_HEADER_ELEMENTS = 12  # a header line is a few elements; a comment's body blocks are more
MAX_CELL_ELEMENTS = 64  # a poster's cell (name, rank, counters) is a few dozen at most
# A comment's number before its author's name ("75 Zafir").
_COMMENT_NUMBER = re.compile(r"^\d+\s+")
_NAME_EDGES = " |,-–—·•"  # a header's separators beside a name ("Ryan —"); a colon is a label
# What a header adds to a name, which the byline cleaner then cuts: a time or a number, a
# label's colon, a dash or bar, "by"/"on" before it, "says" after it.
_HEADER_HINT = re.compile(
    rf"[\d:|—–]|^(?:by|von|on)\s|\s(?:{'|'.join(SAID_WORDS)})\W*$", re.I)
# A post's furniture in Chinese forums (Discuz, phpwind): floor labels, the post-header
# verb, the author's counters; and what marks a text that may hold some.
_FURNITURE = re.compile(r"(?:[\W\d_]|" + either(
    "楼主|沙发|板凳|地板|楼|发表于|积分|帖子|主题|精华|金币|威望|注册时间|最后登录|只看该作者|"
    "倒序浏览|电梯直达|回复|引用|举报") + ")*")
_FURNITURE_CUES = both(("楼", "沙发", "板凳", "地板", "发表于", "积分"))


def _section_names(markup: Markup) -> set[str]:
    """The page's class/id word strings that name a comment section: a _SECTION word or
    one of _SECTION_CJK in them. Only the strings that hold a stem of the _SECTION words
    (found for all the page's strings at once) are searched: the regex over all of them
    tried its words after every separator (0.3 M instructions a page more)."""
    found = {name for name, words in markup.names_holding(_SECTION_STEMS)
             if _SECTION.search(" " + words)}
    found.update(name for name, _ in markup.names_holding(_SECTION_CJK))
    return found


def _named_sections(markup: Markup, removed: set) -> list[lxml.html.HtmlElement]:
    """Outermost blocks named as a comment section that do not hold the article itself."""
    candidates = [row[0] for row in named_rows(markup, _section_names(markup), _NEVER_SECTION)]
    holders = markup.holders("h1")
    return outermost(markup, candidates, lambda e: e not in holders, removed)


def _after_heading(heading: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """The heading and the blocks after it up to the next heading of the same rank.

    A heading alone in its wrapper announces the blocks after that wrapper.
    """
    start = heading
    while start.getnext() is None and start.getparent() is not None \
            and start.getparent().tag not in _NEVER_SECTION:
        start = start.getparent()
    found = [start]
    for sibling in start.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        if sibling.tag in ("h1", heading.tag) or next(sibling.iter("h1", heading.tag), None) \
                is not None or _HOLDS_ARTICLE(sibling):
            break
        found.append(sibling)
    return found


def _announced(body: lxml.html.HtmlElement, covered: set,
               named: set) -> list[lxml.html.HtmlElement]:
    """Blocks that a comment heading ("3 Responses", "Leave a reply", 网友评论) introduces.

    A heading counts when its words say so or markup names it a comment section; merely
    being removed (site template, page furniture) does not make it one.
    """
    found: list = []
    for heading in body.iter(*_HEADING_TAGS):
        text = " ".join(text_of(heading).split())
        if len(text) > MAX_NAME_CHARS or not (_HEADING.fullmatch(text) or heading in named):
            continue
        if not any(a in covered for a in heading.iterancestors()):
            blocks = [e for e in _after_heading(heading) if e not in covered]
            found += blocks
            covered.update(blocks)
    return found


def find_sections(
    markup: Markup, removed: set, now: datetime, groups: list[list]
) -> list[lxml.html.HtmlElement]:
    """Outermost comment sections outside `removed`: named, announced, then unnamed repeats.

    `groups` are the page's `repeated_groups(markup)`.
    """
    named = _named_sections(markup, removed)
    covered = set(removed) | set(named)
    announced = _announced(markup.body, covered, set(named))
    return named + announced + unnamed_comments(markup, covered, now, groups)


def signature(element: lxml.html.HtmlElement) -> tuple[str, str]:
    """Shape of an element: tag and class words, numbers and odd/even alternation removed."""
    classes = element.get("class")
    return element.tag, _shape_words(classes) if classes else ""


@lru_cache(maxsize=8192)
def _shape_words(classes: str) -> str:
    """Cached: every element of a list repeats the same class string. Still, a page brings
    some 60 new ones, so the usual string (no alternation word in it, told by three tests
    on the whole string) skips the test per word, and ASCII digits go by bytes.translate
    (the regex took twice as long): 0.6 M instructions a page less."""
    if classes.isascii():
        classes = classes.encode().translate(None, b"0123456789").decode()
    else:
        classes = _DIGITS.sub("", classes)
    words = classes.split()
    lowered = classes.lower()
    if "author" in lowered or "thread-" in lowered or not _ALTERNATION.isdisjoint(
            lowered.split()):
        words = [w for w in words if not _alternating(w.lower())]
    return " ".join(sorted(words))


def _alternating(word: str) -> bool:
    """odd/even, first/last, thread-N, *author*…: words that differ between items of one list."""
    return word in _ALTERNATION or "author" in word or (
        word.startswith("thread-") and _WORD_CHARS.fullmatch(word, 7) is not None)


def repeated_groups(markup: Markup) -> list[list[lxml.html.HtmlElement]]:
    """Groups of same-shape siblings under <body>, two members or more, in document order.

    Only same-tag siblings can repeat a shape. Their shapes are mapped in C (cached) and
    counted: one shape is one group, all different none, and only the rest are sorted out
    member by member (a class test first and a loop over the members of every group with
    two class strings: 0.10 M instructions a page more on dragnet-dev).
    """
    found = []
    for rows in markup.siblings.values():
        if len(rows) < 2:
            continue
        shapes = list(map(_shape_words, map(_CLASSES, rows)))
        distinct = len(set(shapes))
        if distinct == 1:
            found.append(list(map(_ELEMENT, rows)))
        elif distinct < len(shapes):
            alike: dict[str, list] = {}
            for row, shape in zip(rows, shapes, strict=True):
                alike.setdefault(shape, []).append(row[0])
            found += [members for members in alike.values() if len(members) >= 2]
    found.sort(key=lambda members: markup.position(members[0]))
    return found


def _items(section: lxml.html.HtmlElement, groups: list[list],
           markup: Markup | None) -> list[lxml.html.HtmlElement]:
    """The comment items of a section: the repeated shape (of the page's `groups`) inside it
    that carries the most text, without furniture and blocks that hold a form field."""
    best, best_chars = [], 0
    inside = set(section.iterdescendants())
    inside -= {e for form in section.iter("form") for e in form.iter()}
    for members in groups:  # the tag first: it needs no text
        if members[0] not in inside or members[0].tag in ("p", "br", "a", "span", "img"):
            continue
        chars = sum(len(text_of(m).strip()) for m in members)
        if chars > best_chars:
            best, best_chars = members, chars
    if not best:
        return []
    shape = signature(best[0])
    fields = _field_holders(section)
    return [e for e in section.iter(shape[0]) if signature(e) == shape
            and not is_named_noise(e, markup) and e not in fields]


def _field_holders(section: lxml.html.HtmlElement) -> set[lxml.html.HtmlElement]:
    """The elements of `section` (itself included) that have a form field below them: one
    search of the section instead of one per item (hundreds on a long comment list)."""
    found: set = set()
    for field in _FORM_FIELDS(section):
        for ancestor in field.iterancestors():
            if ancestor in found:
                break
            found.add(ancestor)
            if ancestor is section:
                break
    return found


def _comment_like(member: lxml.html.HtmlElement, now: datetime) -> bool:
    """An unnamed comment: a short text, few links, no headline, a date or a cue near its
    start, and something said besides the date (a news page's date and "最后更新：…" lines
    under the headline are a run of dated blocks too)."""
    text = text_of(member)
    size = len(text.strip())
    if not MIN_UNNAMED_COMMENT_CHARS <= size <= MAX_UNNAMED_COMMENT_CHARS:
        return False
    if member.tag not in _COMMENT_TAGS or next(member.iter("h1", "h2", "h3"), None) is not None:
        return False
    links = sum(len(text_of(a)) for a in member.iter("a"))
    if links >= MAX_UNNAMED_LINK_SHARE * size:
        return False
    head = text[:CUE_CHARS]
    if _CUE.search(head):
        return True
    dated = find_date(head, now)
    return dated is not None and size - len(dated[1]) >= MIN_UNNAMED_COMMENT_CHARS


def _contiguous(members: list[lxml.html.HtmlElement]) -> bool:
    """No text-bearing sibling between the members: a comment list, not embeds within an article."""
    chosen = set(members)
    for sibling in members[0].itersiblings():
        if sibling is members[-1]:
            return True
        if sibling not in chosen and text_of(sibling).strip():
            return False
    return True


def unnamed_comments(
    markup: Markup, covered: Collection[lxml.html.HtmlElement], now: datetime, groups: list[list]
) -> list[lxml.html.HtmlElement]:
    """Runs of comment-like sibling blocks after the headline that no markup names, outside
    the `covered` blocks."""
    headline = markup.body.find(".//h1")
    after = markup.position(headline) if headline is not None else -1
    coverage = Coverage(markup, covered)
    holders = markup.holders("h1")  # also declared article bodies
    found: list = []
    for members in groups:
        first = members[0]
        if first.tag not in _COMMENT_TAGS or markup.position(first) <= after \
                or coverage.covers(first):
            continue
        if (_contiguous(members) and all(_comment_like(m, now) for m in members)
                and first not in holders):
            found += members
            for member in members:
                coverage.add(member)
    return found


def _outside(item: lxml.html.HtmlElement, nested: set):
    """Descendants of `item` in document order, the `nested` subtrees skipped."""
    if not nested:  # a flat comment list, the usual case: lxml walks in C
        yield from item.iterdescendants(etree.Element)
        return
    stack = list(item.iterchildren(etree.Element, reversed=True))
    while stack:
        element = stack.pop()
        if element in nested:
            continue
        yield element
        stack.extend(element.iterchildren(etree.Element, reversed=True))


def _hints(item: lxml.html.HtmlElement, nested: set,
           markup: Markup | None) -> list[tuple[lxml.html.HtmlElement, tuple[bool, ...], bool]]:
    """(element, _parts of its class words, declared itemprop=author) for each of the item's
    own elements in document order, its `nested` replies left out (they are never rendered
    with it; walking every reply again for each of its ancestors made deep threads
    quadratic). Off the page's `markup` table when given: its rows of the item are slices,
    where a walk and a table lookup per element cost 0.8 M instructions a page more on
    dragnet-dev's comment-heavy pages, and a get per element and pattern more than the rest."""
    rows = markup.rows_below(item, nested) if markup is not None else None
    if rows is None:
        authors = set(_DECLARED_AUTHORS(item))
        return [(e, _parts(hint_words(e)), e in authors) for e in _outside(item, nested)]
    authors = markup.authors
    return [(row[0], _parts(row[4]), row[0] in authors) for row in rows]


def _short(element: lxml.html.HtmlElement) -> bool:
    return len(text_of(element).strip()) <= MAX_NAME_CHARS


@lru_cache(maxsize=8192)
def _parts(words: str) -> tuple[bool, ...]:
    """Whether class words name an author, a time and chrome. Cached: every comment of a list
    repeats the class words of its author, date and chrome. Ids like comment-123 miss (nine
    in ten of the distinct words hold digits): those are answered by the words with every
    ASCII digit made 0, which no part of the patterns matches, so the answer is the same
    (2755 distinct words over 90 pages became 269: 0.64 M instructions a page less)."""
    return _parts_of(words.encode().translate(_ZERO_DIGITS).decode())


@lru_cache(maxsize=4096)
def _parts_of(words: str) -> tuple[bool, ...]:
    """_parts on lowercased words (with re.I the search took four times the instructions)."""
    words = words.lower()
    return (_AUTHOR.search(words) is not None, _TIME.search(words) is not None,
            _CHROME.search(words) is not None)


def _named_author(hints: list[tuple]) -> lxml.html.HtmlElement | None:
    """The first short element whose class words name an author (or declared one); a long
    one (the whole comment body) is not it."""
    for element, parts, declared in hints:
        if (declared or parts[AUTHOR]) and _short(element):
            return element
    return None


def _named_time(hints: list[tuple]) -> lxml.html.HtmlElement | None:
    """The first short element named as a date that is not empty: an avatar's "comment_meta"
    box may come before the "cm-meta" line (an empty one with a datetime or title attribute
    still counts). Its text is read once for both tests."""
    for element, parts, _ in hints:
        if parts[TIME]:
            text = text_of(element).strip()
            if len(text) <= MAX_NAME_CHARS and (
                    text or element.get("datetime") or element.get("title")):
                return element
    return None


def _author(item: lxml.html.HtmlElement, hints: list[tuple], stamp: lxml.html.HtmlElement | None,
            now: datetime, loose: bool = True) -> lxml.html.HtmlElement | None:
    """Named as the author (its innermost named part: a "user" block holds the name link,
    a rank and counters), else a short <cite>, else (`loose`) the first short link or bold
    name in the item that is not its time (a commenter without a profile link is plain text
    beside a time link: "Jason — <a>July 14th, 2012</a>")."""
    found = _named_author(hints)
    if found is not None:
        return _innermost(found)  # short, as found, and so is what it holds
    found = next(iter(item.iter("cite")), None)
    if found is not None or not loose:
        return found if found is not None and _short(found) else None
    return next((e for e in item.iter("a", "b", "strong")
                 if _name_like(e) and not _holds(e, stamp) and not _dated(e, now)), None)


def _innermost(found: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """The deepest author-named element with a name's text at the start of `found`:
    <div class="comment-author"><cite class="fn">Ann</cite> says:</div> names Ann, and
    <div class="message-userDetails"><h4 class="message-name">… a rank.</div> its <h4>."""
    while (inner := next((e for e in found.iterdescendants()
                          if _names_author(e) and _name_like(e)), None)) is not None:
        found = inner  # a loop, not recursion: broken pages nest thousands of levels deep
    return found


def _names_author(element: lxml.html.HtmlElement) -> bool:
    """Class or id words name an author, or itemprop declares one (asked of a few elements
    around the author; _hints answers it for all of an item's)."""
    return _parts(hint_words(element))[AUTHOR] or "author" in (element.get("itemprop") or "")


def _holds(element: lxml.html.HtmlElement, stamp: lxml.html.HtmlElement | None) -> bool:
    """`element` is the time element or holds it."""
    return stamp is not None and (element is stamp or any(
        a is element for a in stamp.iterancestors()))


def _dated(element: lxml.html.HtmlElement, now: datetime) -> bool:
    """Mostly a date: a time link ("July 14th, 2012, 6:34 pm") is no name."""
    text = text_of(element).strip()
    found = find_date(text, now)
    return found is not None and 2 * len(found[1]) >= len(text)


def _name(author_text: str | None, stamp: lxml.html.HtmlElement | None, raw: str | None,
          now: datetime, item: lxml.html.HtmlElement) -> str | None:
    """The author's name (`author_text`: its element's text), without what a comment header
    sets beside it: the time, "says:", a comment number ("75 Zafir Says: November 8th, 2012
    at 5:33 pm"). Without an author element, the name written before the time in the
    time's element or line ("Jason — <a>July 14th, 2012</a>", "by james on January 31,
    2011"). A web address is no name."""
    if author_text is not None:
        text = author_text
    elif stamp is None or not raw or (text := _written_before(stamp, raw, item)) is None:
        return None
    text = " ".join(text.split()).strip(_NAME_EDGES)
    if "/" in text and " " not in text:  # a link's address, "bit.ly/SUYASa"
        return None
    if _HEADER_HINT.search(text) is None:  # most names: taken as written
        return text if _LETTER.search(text) else None
    name = clean_name(text, Clock(now), handles=True)
    return _COMMENT_NUMBER.sub("", name) or None if name else None


def _written_before(stamp: lxml.html.HtmlElement, raw: str, item: lxml.html.HtmlElement
                    ) -> str | None:
    """A name's length of text before the time as written, in the time's element or in the
    line around it (never the item's text: that is the comment)."""
    for line in (stamp, stamp.getparent()):
        if line is None or line is item:
            return None
        before, found, _ = text_of(line).partition(raw)
        if found and before.strip():
            return before if len(before) <= MAX_NAME_CHARS else None
    return None


class OpeningPost(NamedTuple):
    """What a forum thread's opening post says besides its text, and its chrome."""

    author: str | None
    raw: str | None  # its time as written, for the caller to read on the page's clock
    chrome: set[lxml.html.HtmlElement]


def opening_post(item: lxml.html.HtmlElement, now: datetime, markup: Markup) -> OpeningPost:
    """A forum thread's opening post: its author, its time and its chrome (left out of the
    body; its time element stays, which on a news page read as posts is the dateline).

    Only an author that the markup names (class words, itemprop=author) or cites counts: the
    opening post is long, and unlike a comment's, its first link or bold words are seldom
    its author.
    """
    hints = _hints(item, set(), markup)
    stamp, _, raw = _time(item, hints, now)
    author = _author(item, hints, stamp, now, loose=False)
    author_text = text_of(author) if author is not None else None
    return OpeningPost(_name(author_text, None, None, now, item), raw,
                       _chrome(item, hints, author, None, raw, markup, (author_text,)))


def _name_like(element: lxml.html.HtmlElement) -> bool:
    """Short, opening with no digit, holding a letter (a "#" permalink is none), no cue."""
    text = text_of(element).strip()
    return 0 < len(text) <= MAX_NAME_CHARS // 2 and not text[0].isdigit() \
        and _LETTER.search(text) is not None and not _CUE.fullmatch(text)


def _time(item: lxml.html.HtmlElement, hints: list[tuple], now: datetime):
    """(element, datetime, raw): a <time> element first, then the first element named as a
    date (_named_time), then a date near the item's start, each read only when those before
    gave no date (a <time datetime> answers most comments; 0.02 M instructions a page)."""
    for element in item.iter("time"):
        if found := _date_of(element, now):
            return element, found[0], found[1]
    named = _named_time(hints)
    if named is not None and (found := _date_of(named, now)):
        return named, found[0], found[1]
    found = find_date(_opening(item, 200), now)  # an unnamed date line near the top
    return (None, found[0], found[1]) if found else (None, None, None)


def _opening(item: lxml.html.HtmlElement, chars: int) -> str:
    """The item's text as far as its first `chars` characters, a space between the texts of
    neighbouring elements: a post header's name, date and time often stand side by side, and
    run together a name ending in digits hides the date ("Rainer55518.10.19"), a date hides
    its time ("August 9th, 20122:13 pm"). Only the last piece is cut; a childless element
    (most named dates) is its text."""
    if not len(item):
        return (item.text or "")[:chars]
    pieces: list[str] = []
    size = 0
    for piece in item.itertext():
        pieces.append(piece)
        size += len(piece)
        if size >= chars:
            pieces[-1] = piece[: len(piece) - (size - chars)]
            break
    return " ".join(pieces)


def _date_of(stamp: lxml.html.HtmlElement, now: datetime) -> tuple[datetime, str] | None:
    """The date of an element that carries one: its datetime attribute, title, else text."""
    return (find_date(stamp.get("datetime") or "", now)
            or find_date(stamp.get("title") or "", now) or find_date(_opening(stamp, 200), now))


def parse_item(item: lxml.html.HtmlElement, nested: set, now: datetime,
               markup: Markup | None = None) -> CommentData | None:
    """One comment: author, time, and the remaining text without the chrome around it."""
    hints = _hints(item, nested, markup)
    stamp, when, raw = _time(item, hints, now)
    author = _author(item, hints, stamp, now)
    author_text = text_of(author) if author is not None else None
    name = _name(author_text, stamp, raw, now, item)
    drop = set(nested) | _chrome(item, hints, author, stamp, raw, markup, (author_text, name))
    text = render.to_text([item], drop)
    if len(text) < MIN_COMMENT_CHARS:
        return None
    return CommentData(text=text, author=name, published_at=when, published_raw=raw)


def _chrome(item: lxml.html.HtmlElement, hints: list[tuple], author, stamp, raw: str | None,
            markup: Markup | None, said: tuple[str | None, ...]) -> set[lxml.html.HtmlElement]:
    """What a post or comment shows besides its text: its author and time elements, the
    poster's cell and the header lines around them (holding nothing but the texts `said`
    of the author, the time and header words), short elements named as chrome (reply, vote,
    signature), and lines of forum furniture."""
    drop = {e for e in (author, stamp) if e is not None}
    drop |= {e for e, parts, _ in hints
             if parts[CHROME] and e.tag not in ("p", "blockquote") and _short(e)}
    if author is not None:
        drop.add(_author_cell(item, author, stamp))
    known = [t for t in (*said, text_of(stamp) if stamp is not None else "", raw)
             if t and not t.isspace()]
    drop |= _header_lines(item, [e for e in (author, stamp) if e is not None], known)
    return drop | _furniture(item, hints, author, raw, markup)


def _author_cell(item: lxml.html.HtmlElement, author: lxml.html.HtmlElement,
                 stamp) -> lxml.html.HtmlElement:
    """The outermost author-named block around the author that holds neither the time nor
    a text longer than a name: a forum poster's cell (name, rank, "Mitglied seit", post
    count, location), a comment's "<cite>Ann</cite> says:" block; else the author."""
    cell = author
    for block in author.iterancestors():
        if block is item or not _names_author(block) or _holds(block, stamp) or next(
                islice(block.iter(), MAX_CELL_ELEMENTS, None), None) is not None or any(
                len(piece.strip()) > MAX_NAME_CHARS for piece in block.itertext()):
            break
        cell = block
    return cell


def _header_lines(item: lxml.html.HtmlElement, parts: list[lxml.html.HtmlElement],
                  known: list[str]) -> set[lxml.html.HtmlElement]:
    """The blocks around the `parts` (author, time) below the item that hold nothing but
    the `known` author and time texts and header words: "Ann says:", "Jason — July 14th,
    2012", "75 Zafir Says: November 8th" leave no "says:" or dash in the text. The two
    climbs share their upper lines, each judged once."""
    found: set[lxml.html.HtmlElement] = set()
    judged: dict[lxml.html.HtmlElement, bool] = {}
    for part in parts:
        for line in part.iterancestors():
            header = judged.get(line)
            if header is None:
                header = judged[line] = line is not item and _only_header(line, known)
            if not header:
                break
            found.add(line)
    return found


def _only_header(line: lxml.html.HtmlElement, known: list[str]) -> bool:
    """`line` holds only the `known` texts, header words, numbers and punctuation (counted
    first: the item's body blocks are not serialised)."""
    if next(islice(line.iter(), MAX_HEADER_ELEMENTS, None), None) is not None:
        return False
    rest = text_of(line)
    if len(rest) > MAX_HEADER_CHARS:
        return False
    for text in known:
        rest = rest.replace(text, " ")
    # word by word: a line that is no header fails at its first words, unread further
    return all(w.isdigit() or w.casefold() in _HEADER_WORDS
               for w in map(_MATCHED, _WORD_CHARS.finditer(rest)))


def _furniture(item: lxml.html.HtmlElement, hints: list[tuple], author, raw: str | None,
               markup: Markup | None) -> set[lxml.html.HtmlElement]:
    """Elements whose text, less the author's name and the time, is only forum furniture:
    a floor label and the time ("楼主 发表于 …"), the author's cell ("张三 积分：935").
    Chinese forums name none of it in their markup; asked only where such a word stands."""
    if markup is not None and not markup.holds_any(_FURNITURE_CUES):
        return set()  # the page's test spares most pages every item's
    text = text_of(item)
    if not any(word in text for word in _FURNITURE_CUES):
        return set()
    known = [t for t in (text_of(author).strip() if author is not None else "", raw) if t]
    found: set[lxml.html.HtmlElement] = set()
    for element, _, _ in hints:
        line = text_of(element)
        if len(line) > MAX_NAME_CHARS or found and any(a in found for a in element.iterancestors()):
            continue
        for part in known:
            line = line.replace(part, "")
        if line.strip() and _FURNITURE.fullmatch(line):
            found.add(element)
    return found


def parse_section(
    section: lxml.html.HtmlElement, now: datetime, groups: list[list],
    markup: Markup | None = None,
) -> list[CommentData]:
    """All comments of one section, nested replies as comments of their own.

    A section without repeated items is a single comment, unless it is a heading,
    a counter or sidebar list, or a reply form.
    """
    if _NOT_SECTION.search(hint_words(section)) or section.tag in ("h1", *_HEADING_TAGS):
        return []
    items = _items(section, groups, markup)
    if not items:
        return _single(section, now, markup)
    nested = _nested(items)
    found = [parse_item(item, nested[item], now, markup) for item in items]
    return [comment for comment in found if comment]


def _nested(items: list[lxml.html.HtmlElement]) -> dict:
    """For every item, the items directly nested in it (replies to it)."""
    chosen = set(items)
    nested: dict = {item: set() for item in items}
    for item in items:
        owner = next((a for a in item.iterancestors() if a in chosen), None)
        if owner is not None:
            nested[owner].add(item)
    return nested


def _single(section: lxml.html.HtmlElement, now: datetime,
            markup: Markup | None) -> list[CommentData]:
    """A section without repeated items: one comment, its headings and reply form left out.
    A short one ("支持！", "Great post!") counts when it names its author and time, as a
    comment does, and says more than a label ("Premium" under a teaser's byline); an
    unsigned notice ("No comments yet", "Comments are closed") is none."""
    if section.tag == "form":  # the reply form itself, named as the comment section
        return []
    drop = {e for e in section.iterdescendants("form", "h1", *_HEADING_TAGS, "textarea")}
    drop |= {e for e in section.iterdescendants(etree.Element) if is_named_noise(e, markup)}
    drop |= _field_lines(section)
    comment = parse_item(section, drop, now, markup)
    if comment is None:
        return []
    text, signed = comment.text, comment.author and comment.published_raw
    if len(text) >= MIN_SINGLE_CHARS:
        kept = signed or not (len(text) <= MAX_NOTICE_CHARS and _NOTICE.search(text))
    else:
        kept = signed and (len(_WORD_CHARS.findall(text)) >= 2 or _IDEOGRAPH.search(text))
    return [comment] if kept else []


def _field_lines(section: lxml.html.HtmlElement) -> set[lxml.html.HtmlElement]:
    """The lines of a reply form outside any <form> element: around each control and label,
    the largest block below the section that holds no more than a label's text ("Name
    (required)", "Mail (will not be published)", "Notify me of followup comments")."""
    found: set[lxml.html.HtmlElement] = set()
    for field in _ANY_FIELD(section):
        line = field
        for block in field.iterancestors():
            if block is section or len(text_of(block)) > MAX_NAME_CHARS:
                break
            line = block
        found.add(line)
    return found


def _post_like(member: lxml.html.HtmlElement, now: datetime) -> bool:
    """A forum post: enough text, mostly not links, and a date near its start."""
    text = text_of(member)
    if len(text.strip()) < MIN_POST_CHARS:
        return False
    links = sum(len(text_of(a)) for a in member.iter("a"))
    return links < MAX_POST_LINK_SHARE * len(text) and find_date(_opening(member, 300),
                                                                  now) is not None


def find_posts(markup: Markup, now: datetime, groups: list[list]) -> list[lxml.html.HtmlElement]:
    """The posts of a forum thread: repeated dated blocks holding most of the page's text.

    `groups` are the page's `repeated_groups(markup)`.
    """
    wanted = MIN_THREAD_SHARE * len(markup.text())
    candidates = _big_enough(markup, groups, wanted)
    # When every candidate is tried, those that cannot be posts push none out of the top:
    # they go unmeasured (often the article's paragraphs; 0.09 M instructions a page).
    if len(candidates) <= MAX_POST_GROUPS:
        candidates = [members for members in candidates if members[0].tag not in _NOT_POSTS]
    sized = sorted(((sum(len(text_of(m)) for m in g), g) for g in candidates),
                   key=lambda pair: -pair[0])
    for chars, members in sized[:MAX_POST_GROUPS]:
        if members[0].tag in _NOT_POSTS:
            continue
        thread = chars >= wanted or _follows_headline(markup, members[0])
        if thread and all(_post_like(m, now) for m in members):
            return members
    return []


def _follows_headline(markup: Markup, first: lxml.html.HtmlElement) -> bool:
    """Whether `first` stands right after the page's <h1>, only a stats or byline line
    between: a short thread's opening post (one reply holds too little of a page with
    menus and footers for the share test), where a news page has its article text."""
    headline, end = markup.headline() or (None, None)
    at = markup.position(first)
    if headline is None or at is None or at <= end:
        return False
    chars = len((headline.tail or "").strip())
    for row in islice(markup.rows, end + 1, at):  # stops at the first long text
        element = row[0]
        chars += len((element.text or "").strip()) + len((element.tail or "").strip())
        if chars > MAX_HEADLINE_GAP_CHARS:
            return False
    return True


def _big_enough(markup: Markup, groups: list[list], wanted: float) -> list[list]:
    """The groups whose parent holds at least `wanted` characters: the others can neither be
    the thread nor outrank it, and measuring one parent is cheaper than all its members.

    Parents are measured deepest first (backwards in document order): an element holds all
    the text of its descendants, so once one parent is big enough its ancestors are too,
    unmeasured; the big ancestors (the page's wrappers) were the dearest to serialise.
    <body> holds its own text, twice `wanted`.
    """
    parents = {members[0].getparent() for members in groups}
    big = {markup.body}
    for parent in sorted(parents - big, key=markup.position, reverse=True):
        if parent not in big and len(text_of(parent)) >= wanted:
            big.add(parent)
            big.update(parent.iterancestors())
    return [members for members in groups if members[0].getparent() in big]
