"""One comment or forum post read as an item: its author, its time and its text without the
chrome around them (author cell, header line, reply and vote buttons, forum furniture)."""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from itertools import islice
from operator import itemgetter
from typing import NamedTuple

import lxml.html
from lxml import etree

from pipelines.article.body import render
from pipelines.article.comments.identity import comment_anchor
from pipelines.article.dates.clock import Clock
from pipelines.article.dates.comment import comment_time
from pipelines.article.dates.parse import find_date
from pipelines.article.markup import Markup, hint_words
from pipelines.article.metadata.byline import clean_name
from pipelines.lexicon import (
    COMMENT_AUTHOR_CLASS,
    COMMENT_CHROME_CLASS,
    COMMENT_CUE,
    COMMENT_HEADER_HINT,
    COMMENT_HEADER_WORDS,
    COMMENT_TIME_CLASS,
    FORUM_FURNITURE,
    FORUM_FURNITURE_CUES,
)
from pipelines.page_text import text_of
from pipelines.params import COMMENTS, CommentParams
from pipelines.results import CommentData

AUTHOR, TIME, CHROME = range(3)  # the order of _parts' answer
# Digits to "0", on UTF-8 bytes (an ASCII byte is never part of a longer character).
_ZERO_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")
_DECLARED_AUTHORS = etree.XPath(".//*[@itemprop='author']")
_WORD_CHARS = re.compile(r"\w+")
_MATCHED = itemgetter(0)  # a match's text
_LETTER = re.compile(r"[^\W\d_]")
# A comment's number before its author's name ("75 Zafir").
_COMMENT_NUMBER = re.compile(r"^\d+\s+")
_NAME_EDGES = " |,-–—·•"  # a header's separators beside a name ("Ryan —"); a colon is a label


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
    where a walk and a table lookup per element cost far more on comment-heavy pages."""
    rows = markup.rows_below(item, nested) if markup is not None else None
    if rows is None:
        authors = set(_DECLARED_AUTHORS(item))
        return [(e, _parts(hint_words(e)), e in authors) for e in _outside(item, nested)]
    authors = markup.authors
    return [(row[0], _parts(row[4]), row[0] in authors) for row in rows]


def _short(element: lxml.html.HtmlElement, params: CommentParams = COMMENTS) -> bool:
    return len(text_of(element).strip()) <= params.max_name_chars


@lru_cache(maxsize=8192)
def _parts(words: str) -> tuple[bool, ...]:
    """Whether class words name an author, a time and chrome. Cached: every comment of a list
    repeats the class words of its author, date and chrome. Ids like comment-123 miss (nine
    in ten of the distinct words hold digits): those are answered by the words with every
    ASCII digit made 0, which no part of the patterns matches, so the answer is the same
    (see docs/DECISIONS.md, 'Article route speed')."""
    return _parts_of(words.encode().translate(_ZERO_DIGITS).decode())


@lru_cache(maxsize=4096)
def _parts_of(words: str) -> tuple[bool, ...]:
    """_parts on lowercased words (re.I makes the search several times slower)."""
    words = words.lower()
    return (COMMENT_AUTHOR_CLASS.search(words) is not None,
            COMMENT_TIME_CLASS.search(words) is not None,
            COMMENT_CHROME_CLASS.search(words) is not None)


def _named_author(hints: list[tuple],
                  params: CommentParams = COMMENTS) -> lxml.html.HtmlElement | None:
    """The first short element whose class words name an author (or declared one); a long
    one (the whole comment body) is not it."""
    for element, parts, declared in hints:
        if (declared or parts[AUTHOR]) and _short(element, params=params):
            return element
    return None


def _named_time(hints: list[tuple],
                params: CommentParams = COMMENTS) -> lxml.html.HtmlElement | None:
    """The first short element named as a date that is not empty: an avatar's "comment_meta"
    box may come before the "cm-meta" line (an empty one with a datetime or title attribute
    still counts). Its text is read once for both tests."""
    for element, parts, _ in hints:
        if parts[TIME]:
            text = text_of(element).strip()
            if len(text) <= params.max_name_chars and (
                    text or element.get("datetime") or element.get("title")):
                return element
    return None


def _author(item: lxml.html.HtmlElement, hints: list[tuple], stamp: lxml.html.HtmlElement | None,
            now: datetime, loose: bool = True,
            params: CommentParams = COMMENTS) -> lxml.html.HtmlElement | None:
    """Named as the author (its innermost named part: a "user" block holds the name link,
    a rank and counters), else a short <cite>, else (`loose`) the first short link or bold
    name in the item that is not its time (a commenter without a profile link is plain text
    beside a time link: "Jason — <a>July 14th, 2012</a>")."""
    found = _named_author(hints, params=params)
    if found is not None:
        return _innermost(found, params=params)  # short, as found, and so is what it holds
    found = next(iter(item.iter("cite")), None)
    if found is not None or not loose:
        return found if found is not None and _short(found, params=params) else None
    return next((e for e in item.iter("a", "b", "strong")
                 if _name_like(e, params=params) and not _holds(e, stamp)
                 and not _dated(e, now, params=params)), None)


def _innermost(found: lxml.html.HtmlElement,
               params: CommentParams = COMMENTS) -> lxml.html.HtmlElement:
    """The deepest author-named element with a name's text at the start of `found`:
    <div class="comment-author"><cite class="fn">Ann</cite> says:</div> names Ann, and
    <div class="message-userDetails"><h4 class="message-name">… a rank.</div> its <h4>."""
    while (inner := next((e for e in found.iterdescendants()
                          if _names_author(e) and _name_like(e, params=params)), None)) is not None:
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


def _dated(element: lxml.html.HtmlElement, now: datetime, params: CommentParams = COMMENTS) -> bool:
    """Mostly a date: a time link ("July 14th, 2012, 6:34 pm") is no name."""
    text = text_of(element).strip()
    found = find_date(text, now)
    return found is not None and len(found[1]) >= params.dated_name_share * len(text)


def _name(author_text: str | None, stamp: lxml.html.HtmlElement | None, raw: str | None,
          now: datetime, item: lxml.html.HtmlElement,
          params: CommentParams = COMMENTS) -> str | None:
    """The author's name (`author_text`: its element's text), without what a comment header
    sets beside it: the time, "says:", a comment number ("75 Zafir Says: November 8th, 2012
    at 5:33 pm"). Without an author element, the name written before the time in the
    time's element or line ("Jason — <a>July 14th, 2012</a>", "by james on January 31,
    2011"). A web address is no name."""
    if author_text is not None:
        text = author_text
    elif stamp is None or not raw or (text := _written_before(stamp, raw, item,
                                                              params=params)) is None:
        return None
    text = " ".join(text.split()).strip(_NAME_EDGES)
    if "/" in text and " " not in text:  # a link's address, "bit.ly/SUYASa"
        return None
    if COMMENT_HEADER_HINT.search(text) is None:  # most names: taken as written
        return text if _LETTER.search(text) else None
    name = clean_name(text, Clock(now), handles=True)
    return _COMMENT_NUMBER.sub("", name) or None if name else None


def _written_before(stamp: lxml.html.HtmlElement, raw: str, item: lxml.html.HtmlElement,
                    params: CommentParams = COMMENTS
                    ) -> str | None:
    """A name's length of text before the time as written, in the time's element or in the
    line around it (never the item's text: that is the comment)."""
    for line in (stamp, stamp.getparent()):
        if line is None or line is item:
            return None
        before, found, _ = text_of(line).partition(raw)
        if found and before.strip():
            return before if len(before) <= params.max_name_chars else None
    return None


class OpeningPost(NamedTuple):
    """What a forum thread's opening post says besides its text, and its chrome."""

    author: str | None
    raw: str | None  # its time as written, for the caller to read on the page's clock
    chrome: set[lxml.html.HtmlElement]


def opening_post(item: lxml.html.HtmlElement, now: datetime, markup: Markup,
                 params: CommentParams = COMMENTS) -> OpeningPost:
    """A forum thread's opening post: its author, its time and its chrome (left out of the
    body; its time element stays, which on a news page read as posts is the dateline).

    Only an author that the markup names (class words, itemprop=author) or cites counts: the
    opening post is long, and unlike a comment's, its first link or bold words are seldom
    its author.
    """
    hints = _hints(item, set(), markup)
    stamp, _, raw = comment_time(item, lambda: _named_time(hints, params=params), now,
                                 params=params)
    author = _author(item, hints, stamp, now, loose=False, params=params)
    author_text = text_of(author) if author is not None else None
    return OpeningPost(_name(author_text, None, None, now, item, params=params), raw,
                       _chrome(item, hints, author, None, raw, markup, (author_text,),
                               params=params))


def _name_like(element: lxml.html.HtmlElement, params: CommentParams = COMMENTS) -> bool:
    """Short, opening with no digit, holding a letter (a "#" permalink is none), no cue."""
    text = text_of(element).strip()
    return 0 < len(text) <= params.max_name_chars // 2 and not text[0].isdigit() \
        and _LETTER.search(text) is not None and not COMMENT_CUE.fullmatch(text)


def parse_item(item: lxml.html.HtmlElement, nested: set, now: datetime,
               markup: Markup | None = None,
               params: CommentParams = COMMENTS) -> CommentData | None:
    """One comment: author, time, and the remaining text without the chrome around it."""
    hints = _hints(item, nested, markup)
    stamp, when, raw = comment_time(item, lambda: _named_time(hints, params=params), now,
                                    params=params)
    author = _author(item, hints, stamp, now, params=params)
    author_text = text_of(author) if author is not None else None
    name = _name(author_text, stamp, raw, now, item, params=params)
    drop = set(nested) | _chrome(item, hints, author, stamp, raw, markup, (author_text, name),
                                 params=params)
    text = render.to_text([item], drop)
    if len(text) < params.min_comment_chars:
        return None
    return CommentData(text=text, author=name, published_at=when, published_raw=raw,
                       anchor=comment_anchor(item))


def _chrome(item: lxml.html.HtmlElement, hints: list[tuple], author, stamp, raw: str | None,
            markup: Markup | None, said: tuple[str | None, ...],
            params: CommentParams = COMMENTS) -> set[lxml.html.HtmlElement]:
    """What a post or comment shows besides its text: its author and time elements, the
    poster's cell and the header lines around them (holding nothing but the texts `said`
    of the author, the time and header words), short elements named as chrome (reply, vote,
    signature), and lines of forum furniture."""
    drop = {e for e in (author, stamp) if e is not None}
    drop |= {e for e, parts, _ in hints
             if parts[CHROME] and e.tag not in ("p", "blockquote") and _short(e, params=params)}
    if author is not None:
        drop.add(_author_cell(item, author, stamp, params=params))
    known = [t for t in (*said, text_of(stamp) if stamp is not None else "", raw)
             if t and not t.isspace()]
    drop |= _header_lines(item, [e for e in (author, stamp) if e is not None], known, params=params)
    return drop | _furniture(item, hints, author, raw, markup, params=params)


def _author_cell(item: lxml.html.HtmlElement, author: lxml.html.HtmlElement,
                 stamp, params: CommentParams = COMMENTS) -> lxml.html.HtmlElement:
    """The outermost author-named block around the author that holds neither the time nor
    a text longer than a name: a forum poster's cell (name, rank, "Mitglied seit", post
    count, location), a comment's "<cite>Ann</cite> says:" block; else the author."""
    cell = author
    for block in author.iterancestors():
        if block is item or not _names_author(block) or _holds(block, stamp) or next(
                islice(block.iter(), params.max_cell_elements, None), None) is not None or any(
                len(piece.strip()) > params.max_name_chars for piece in block.itertext()):
            break
        cell = block
    return cell


def _header_lines(item: lxml.html.HtmlElement, parts: list[lxml.html.HtmlElement],
                  known: list[str], params: CommentParams = COMMENTS) -> set[lxml.html.HtmlElement]:
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
                header = judged[line] = line is not item and _only_header(line, known,
                                                                          params=params)
            if not header:
                break
            found.add(line)
    return found


def _only_header(line: lxml.html.HtmlElement, known: list[str],
                 params: CommentParams = COMMENTS) -> bool:
    """`line` holds only the `known` texts, header words, numbers and punctuation (counted
    first: the item's body blocks are not serialised)."""
    if next(islice(line.iter(), params.max_header_elements, None), None) is not None:
        return False
    rest = text_of(line)
    if len(rest) > params.max_header_chars:
        return False
    for text in known:
        rest = rest.replace(text, " ")
    # word by word: a line that is no header fails at its first words, unread further
    return all(w.isdigit() or w.casefold() in COMMENT_HEADER_WORDS
               for w in map(_MATCHED, _WORD_CHARS.finditer(rest)))


def _furniture(item: lxml.html.HtmlElement, hints: list[tuple], author, raw: str | None,
               markup: Markup | None,
               params: CommentParams = COMMENTS) -> set[lxml.html.HtmlElement]:
    """Elements whose text, less the author's name and the time, is only forum furniture:
    a floor label and the time ("楼主 发表于 …"), the author's cell ("张三 积分：935").
    Chinese forums name none of it in their markup; asked only where such a word stands."""
    if markup is not None and not markup.holds_any(FORUM_FURNITURE_CUES):
        return set()  # the page's test spares most pages every item's
    text = text_of(item)
    if not any(word in text for word in FORUM_FURNITURE_CUES):
        return set()
    known = [t for t in (text_of(author).strip() if author is not None else "", raw) if t]
    found: set[lxml.html.HtmlElement] = set()
    for element, _, _ in hints:
        line = text_of(element)
        if len(line) > params.max_name_chars or found and any(
                a in found for a in element.iterancestors()):
            continue
        for part in known:
            line = line.replace(part, "")
        if line.strip() and FORUM_FURNITURE.fullmatch(line):
            found.add(element)
    return found
