"""The author and the source (来源) of an article: the declared author, byline elements and
lines ("By X", "Von X", "Autor: X"), links to an author's page, and Chinese 作者：/来源：/编辑：
lines; a declared author that is only the publisher gives way to a person the page names."""

from __future__ import annotations

import re
from itertools import islice

import lxml.html
from lxml import etree

from pipelines.article.blocks import Block
from pipelines.article.dates.clock import Clock
from pipelines.article.dates.cn_fields import cn_fields, is_field_line
from pipelines.article.markup import hint_words
from pipelines.article.metadata.structured import Declared
from pipelines.article.metadata.titles import is_site_name
from pipelines.lexicon import (
    AUTHOR_HREF,
    AUTHOR_LINK_SEPARATORS,
    BY_AFTER_DATE,
    BY_PREFIX,
    BYLINE_WORD,
    CN_AUTHOR_LABELS,
    CN_EDITOR_LABELS,
    CN_FIELD,
    CN_SOURCE_LABEL,
    CREDIT_CLASS,
    DATE_LEAD_WORDS,
    EDITOR_CREDIT,
    GLUED_WEEKDAY,
    LABELLED_AUTHOR,
    LONE_BY,
    NAME_CLASS,
    NAME_CONJUNCTION,
    NAME_COUNT,
    NAME_END,
    NAME_LIST,
    NAME_PARTICLES,
    NOT_NAMES,
    ONLY_DATE,
    ORGANISATION,
    WEEKDAY,
)
from pipelines.page_text import (
    clean,
    fold,
    hint_test,
    host_keys,
    name_key,
    text_of,
)
from pipelines.params import BYLINE, TITLES, BylineParams, TitleParams

# An e-mail address is no name: "name, email@gmail.com" is a template's placeholder.
_EMAIL = re.compile(r"\S+@\S+\.\w+")
_names_credit = hint_test(CREDIT_CLASS)


def clean_name(text: str, clock: Clock, handles: bool = False) -> str | None:
    """A byline reduced to the name: prefix ("By", "Von") and role cut, and the date with
    what follows it (or, for a leading date, what precedes it). Initials ("S.W.") are a
    name; an @handle only where asked (a commenter's, not a byline's follow link)."""
    text = BY_PREFIX.sub("", GLUED_WEEKDAY.sub(" ", text))
    found = clock.find(text)
    if found and found[1] in text:
        before, _, after = text.partition(found[1])
        before = WEEKDAY.sub("", before)
        after = after.lstrip(" ,·|-–:")
        marked = BY_PREFIX.match(after)  # "DESIGN | 7 Hours Ago By Richard Darell"
        after = BY_PREFIX.sub("", after)
        text = after if marked or ONLY_DATE.fullmatch(before) else before
    previous = None
    while previous != text:
        previous, text = text, NAME_END.sub("", text.strip(" |,-–—·:→»›")).strip()
    usable = re.search(r"\w{2}|\w\.", text) and (handles or not text.startswith("@"))
    return text if usable and text.casefold() not in NOT_NAMES else None


def _is_byline(block: Block, text: str, clock: Clock, params: BylineParams = BYLINE) -> bool:
    """Named as a byline (class/id, rel=author), or a "By …" line that is not a link: short,
    or a name and its date opening a longer meta line ("Started by jane_doe · 2009-11-06
    11:44 UTC · 1 replies · topic #1002")."""
    if CN_FIELD.search(text):
        return False
    if block.marked:
        return True
    if not BY_PREFIX.match(text) or block.element.tag == "a":
        return False
    if len(text) <= params.max_by_line:
        return True
    found = clock.find(text)
    name = found and BY_PREFIX.sub("", text.partition(found[1])[0]).strip(" ·|,;-–—:")
    return (bool(name) and not any(c in name for c in "|·•") and _names_only(name)
            and len(name.split()) <= params.max_name_words)


def _byline_name(block: Block, clock: Clock, params: BylineParams = BYLINE) -> str | None:
    """The name in one block: a byline element, a link to an author page, "Autor: X", or
    "<date> von X"; for a longer byline element, the name before its date."""
    text = block.text
    if text is None:
        return _head_name(block, clock, params=params) if block.head else None
    if _is_byline(block, text, clock, params=params):
        name = clean_name(text, clock)
        return name if block.marked or not name or _names_only(name) else None
    if _is_author_link(block.element, text):
        return clean_name(_author_links(block.element, params=params) or text, clock)
    labelled = LABELLED_AUTHOR.search(text)
    if labelled:
        return clean_name(labelled.group(1), clock)
    after = BY_AFTER_DATE.search(text)
    before = text[: after.start()] if after else ""
    found = after and clock.find(before)
    if found and _dated_only(WEEKDAY.sub("", before.replace(found[1], ""))):
        return clean_name(after.group(1), clock)
    return None


def _names_only(names: str) -> bool:
    """Whether what a "By …" line names reads as names, not as a sentence that opens with
    "By" ("By default, this option is disabled."): one word (a handle: "fred_tomke"), or
    words that are capitalised but for the particles of names ("Ludwig van Beethoven")."""
    for name in NAME_LIST.split(names.rstrip(".")):
        words = name.split()
        if len(words) > 1 and any(w[:1].islower() and w not in NAME_PARTICLES for w in words):
            return False
    return True


def _dated_only(rest: str) -> bool:
    """What stands before "by X" besides the date holds no prose ("@ 10:26am (PT)", "Posted
    on", not "Auf den Spuren"): no longer word but a date's lead-in."""
    return all(w.casefold() in DATE_LEAD_WORDS for w in re.findall(r"[^\W\d_]{4,}", rest))


def _head_name(block: Block, clock: Clock, params: BylineParams = BYLINE) -> str | None:
    """The name opening a longer text: an element of its own right after an author label at
    its start ("Autor: <a>Klausmartin Friedrich</a> Tags: 1907, …"), or the name before the
    date in a byline element."""
    labelled = LABELLED_AUTHOR.match(block.head)
    if labelled:
        names = _marked_names(block.element, labelled.group(1), params=params)
        return clean_name(names, clock) if names else None
    found = block.marked and clock.find(block.head)
    name = found and clean_name(block.head.partition(found[1])[0], clock)
    return name if name and _name_like(name, params=params) else None


def _name_like(names: str, params: BylineParams = BYLINE) -> bool:
    """Short enough to be names, not a headline run into the byline."""
    return all(len(name.split()) <= params.max_name_words for name in NAME_LIST.split(names))


def _marked_names(element: lxml.html.HtmlElement, value: str,
                  params: BylineParams = BYLINE) -> str | None:
    """The start of `value` made of names that are elements of their own, one after the
    other between list separators ("<a>A</a>, <a>B</a> Tags: …" → "A, B")."""
    end = 0
    for inner in islice(element.iterdescendants(etree.Element), params.inner_name_elements):
        name = clean(text_of(inner))
        at = value.find(name, end) if name else -1
        gap = value[end:at]
        if at >= 0 and AUTHOR_LINK_SEPARATORS.fullmatch(gap) and (not end or gap.strip()):
            end = at + len(name)
        elif end:
            break
    return value[:end] if end and not value[end: end + 1].isalnum() else None


def _is_author_link(element: lxml.html.HtmlElement, text: str) -> bool:
    """A link to an author's page that shows a name (not "9 articles"), maybe with the
    author's post count after it ("Jo Hinchliffe (77)")."""
    return _links_author(element) and not any(c.isdigit() for c in NAME_COUNT.sub("", text))


def _links_author(element: lxml.html.HtmlElement) -> bool:
    """A link to an author's page ("/author/jane-doe/")."""
    return element.tag == "a" and bool(AUTHOR_HREF.search(element.get(b"href") or ""))


def _author_links(link: lxml.html.HtmlElement, params: BylineParams = BYLINE) -> str | None:
    """The text of the link's parent when it holds only author-page links between
    separators ("<a>Clara Löw</a>, <a>Siddharth Prakash</a> & <a>Klaus Jacob</a>")."""
    parent = link.getparent()
    links = list(parent.iter("a"))
    if len(links) < 2 or not all(AUTHOR_HREF.search(a.get("href") or "") for a in links):
        return None
    whole = clean(text_of(parent)) or ""
    rest = whole
    for a in links:
        rest = rest.replace(clean(text_of(a)) or "", "", 1)
    short = len(whole) <= params.max_author_links_chars
    return whole if short and AUTHOR_LINK_SEPARATORS.fullmatch(rest) else None


def _is_credit(element: lxml.html.HtmlElement, params: BylineParams = BYLINE) -> bool:
    """Within a picture credit or licence line: the photographer is no byline."""
    for node in (element, *islice(element.iterancestors(), params.credit_depth)):
        hint = hint_words(node)
        if node.tag in ("figcaption", "figure") or _names_credit(hint):
            return True
    return False


def page_byline(blocks: list[Block], clock: Clock, wanted: bool = True, cn_labels: bool = True,
                params: BylineParams = BYLINE):
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
        if fields and ("：" in block.text or ":" in block.text) and not is_field_line(block.text):
            fields = ()  # a field named in passing in a sentence: no byline
        for label, value in fields:
            if label in CN_AUTHOR_LABELS and not author:
                author = value
            elif label == CN_SOURCE_LABEL and not source:
                source = value
            elif label in CN_EDITOR_LABELS and not editor:
                editor = value
        if wanted and not author and not fields and _may_name(block):
            author = _byline_name(block, clock, params=params) or _name_after_by(
                block, opened[index + 1: index + 1 + params.lone_by_reach], clock, params=params)
            author = author and not _is_credit(block.element, params=params) and _inner_name(
                opened[index + 1:], block.element, author, clock, params=params)
        if (author or not wanted) and source:
            break
    shut = (_byline_name(b, clock, params=params) for b in blocks if wanted and _is_shut_byline(b,
                                                                                                params=params))
    return author or editor or next((name for name in shut if name), None), source


def _may_name(block: Block) -> bool:
    """Whether the block can name anyone at all: a marked byline, a link to an author's page
    or a line with a byline word, which BY_PREFIX, LABELLED_AUTHOR, BY_AFTER_DATE and LONE_BY all
    need. One search spares nearly every block all of those rules. Asking of a link its
    author href, not only its tag, spares the rules the page's many other links, which were
    most of the blocks that went on to them."""
    line = block.text or block.head
    return bool(line) and (bool(BYLINE_WORD.search(" " + line)) or block.marked
                           or _links_author(block.element))


def _name_after_by(block: Block, next_blocks: list[Block], clock: Clock,
                   params: BylineParams = BYLINE) -> str | None:
    """The name in the next text after a lone "by" or "Published by" element, where the layout
    parts the two: a link to the author's profile (<span> by </span><h3><a>delta201</a></h3>),
    not a line of prose."""
    if not (block.text and LONE_BY.fullmatch(block.text)):
        return None
    after = next((b for b in next_blocks if b.text), None)
    name = after and after.element.tag == "a" and clean_name(after.text, clock)
    return name if name and _name_like(name, params=params) and not name[0].isdigit() else None


def _is_shut_byline(block: Block, params: BylineParams = BYLINE) -> bool:
    """A byline in a removed block that surely names a person: rel=author, a name-marked
    element (vcard, "fn", "author-name") or a "By …" line, and no picture credit."""
    if not block.shut or not block.text:
        return False
    named = block.element.get("rel") == "author" or NAME_CLASS.search(block.hint)
    return bool(named or BY_PREFIX.match(block.text)) and not _is_credit(block.element,
                                                                          params=params)


def _inner_name(blocks: list[Block], outer: lxml.html.HtmlElement, name: str,
                clock: Clock, params: BylineParams = BYLINE) -> str:
    """`name` replaced by a byline block's inside `outer` where the outer text runs on into
    the next element without a space ("Michael Hingstonfacebooktwitter": share links) or on
    into a label that cut the name short ("Mark Newton: EN Übersetzung …")."""
    for block in blocks:
        if not any(ancestor is outer for ancestor in block.element.iterancestors()):
            break
        inner = block.text and _byline_name(block, clock, params=params)
        if inner and name.startswith(inner) and name[len(inner): len(inner) + 1].isalnum():
            return inner
        if inner and inner.startswith(name + " "):  # the outer text ran on and was cut short
            return inner
    return name


def page_declared_author(found: Declared, url: str | None,
                         titles: TitleParams = TITLES) -> tuple[str | None, bool]:
    """(the declared author, whether it is weak): the site's own name, an organisation or an
    editor credit ("Revised Edition Edited by …") there stands in for a byline, so a person
    in the page beats it."""
    author = clean(_EMAIL.sub("", BY_PREFIX.sub("", found.author or "")).strip(" ,;"))
    if not author or not re.search(r"[^\W\d_]", author) or author.casefold() in NOT_NAMES:
        return None, False  # CMS user ids and placeholders are not names
    key, site = name_key(author), name_key(found.site_name or "")
    publisher = is_site_name(author, found.site_name, url, loose=True, params=titles) or any(
        k in key or key in k for k in host_keys(url) | {site} if len(k) >= titles.min_site_key)
    return author, publisher or bool(ORGANISATION.search(author) or EDITOR_CREDIT.search(author))


def pick_author(author: str | None, weak: bool, byline: str | None) -> str | None:
    """The declared author unless it is weak and the page names someone else (not the
    declared name cut short: "AFP" of "AFP/The Local")."""
    cut_short = byline and author and fold(author).startswith(fold(byline))
    chosen = byline if byline and (weak or not author) and not cut_short else author
    return _join_names(chosen) if chosen else None


def _join_names(names: str) -> str:
    """A list of names joined with ", " whatever its last conjunction ("A, B y C")."""
    return NAME_CONJUNCTION.sub(", ", names) if "," in names else names
