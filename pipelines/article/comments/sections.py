"""Comment sections: found by the markup that names them, by the heading that announces
them, or, unnamed, as a run of comment-like blocks after the headline; then split into
items, the most repeated shape inside (a section without repeats is one comment)."""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime

import lxml.html
from lxml import etree

from pipelines.article.boilerplate import is_named_noise
from pipelines.article.comments.items import parse_item
from pipelines.article.comments.shapes import list_entries, signature
from pipelines.article.dates.parse import find_date
from pipelines.article.markup import Coverage, Markup, hint_words, named_rows, outermost
from pipelines.lexicon import (
    COMMENT_CUE,
    COMMENT_HEADING,
    COMMENT_NOTICE,
    COMMENT_SECTION,
    COMMENT_SECTION_CJK,
    COMMENT_SECTION_STEMS,
    NOT_COMMENT_SECTION,
    NOT_READER_COMMENT,
)
from pipelines.page_text import text_of
from pipelines.params import ARTICLE_PARTS, COMMENTS, ArticlePartsParams, CommentParams
from pipelines.results import CommentData

_HEADING_TAGS = ("h2", "h3", "h4", "h5")
_NEVER_SECTION = frozenset({"html", "body", "article", "main"})
# Inline elements named "comment" are a highlighter's code tokens (`// …`, `/** … */`), icons
# or counters: a comment section is a block.
_INLINE = frozenset({"span", "a", "i", "em", "b", "strong", "font", "small", "code", "label",
                     "abbr", "sup", "sub", "img"})
# XPaths are compiled once: `element.xpath(text)` compiles again on every call.
_HOLDS_ARTICLE = etree.XPath(".//h1|.//*[@itemprop='articleBody']")
# Every control of a reply form, and the labels that name them.
_ANY_FIELD = etree.XPath(".//input[not(@type='hidden')]|.//textarea|.//select|.//button|.//label")
_FORM_FIELDS = etree.XPath(
    ".//textarea|.//input[@type='text' or @type='email' or not(@type)]")
_WORD_CHARS = re.compile(r"\w+")
_IDEOGRAPH = re.compile(r"[\u3400-\u9fff]")  # a Chinese comment of one word says something
_COMMENT_TAGS = frozenset({"li", "div", "article", "section", "dl", "table"})
# Code: listings and inline code, never a comment nor a comment's cue.
CODE_TAGS = ("pre", "code")


def _section_names(markup: Markup) -> set[str]:
    """The page's class/id word strings that name a comment section: a COMMENT_SECTION word or
    one of COMMENT_SECTION_CJK in them. Only the strings that hold a stem of the
    COMMENT_SECTION words (found for all the page's strings at once) are searched: the regex
    over all of them tried its words after every separator."""
    found = {name for name, words in markup.names_holding(COMMENT_SECTION_STEMS)
             if COMMENT_SECTION.search(" " + words)}
    found.update(name for name, _ in markup.names_holding(COMMENT_SECTION_CJK))
    return found


def _named_sections(markup: Markup, removed: set) -> list[lxml.html.HtmlElement]:
    """Outermost blocks named as a comment section that do not hold the article itself, nor
    stand in code (a highlighter names a code comment, `// …` or `/** … */`, "comment")."""
    candidates = [row[0] for row in named_rows(markup, _section_names(markup),
                                                _NEVER_SECTION | _INLINE)]
    holders = markup.holders("h1")
    code = Coverage(markup, markup.body.iter(*CODE_TAGS))
    return outermost(markup, candidates, lambda e: e not in holders and not code.covers(e)
                     and not _own_anchor(e), removed)


def _own_anchor(element: lxml.html.HtmlElement) -> bool:
    """A heading whose id is its own text made a fragment ("Discussion" → id="Discussion"), as
    Markdown and notebook renderers name every heading: the name says nothing of a section."""
    if element.tag not in _HEADING_TAGS and element.tag != "h6":
        return False
    return _slug(element.get("id") or "") == _slug(text_of(element)) != ""


def _slug(text: str) -> str:
    return "".join(_WORD_CHARS.findall(text.lower())).replace("_", "")


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
               named: set, params: CommentParams = COMMENTS) -> list[lxml.html.HtmlElement]:
    """Blocks that a comment heading ("3 Responses", "Leave a reply", 网友评论) introduces.

    A heading counts when its words say so or markup names it a comment section; merely
    being removed (site template, page furniture) does not make it one.
    """
    found: list = []
    for heading in body.iter(*_HEADING_TAGS):
        text = " ".join(text_of(heading).split())
        if len(text) > params.max_name_chars or not (
                COMMENT_HEADING.fullmatch(text) or heading in named):
            continue
        if not any(a in covered for a in heading.iterancestors()):
            blocks = [e for e in _after_heading(heading) if e not in covered]
            found += blocks
            covered.update(blocks)
    return found


def find_sections(
    markup: Markup, removed: set, now: datetime, groups: list[list],
    params: CommentParams = COMMENTS,
) -> list[lxml.html.HtmlElement]:
    """Outermost comment sections outside `removed`: named, announced, then unnamed repeats.

    `groups` are the page's `repeated_groups(markup)`.
    """
    named = _named_sections(markup, removed)
    covered = set(removed) | set(named)
    announced = _announced(markup.body, covered, set(named), params=params)
    return named + announced + unnamed_comments(markup, covered, now, groups, params=params)


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
            and not is_named_noise(e, markup) and e not in fields and not _link_back(e)]


def _link_back(element: lxml.html.HtmlElement) -> bool:
    """A pingback or trackback: another site's link to the post, shown among the comments."""
    return NOT_READER_COMMENT.search(element.get("class") or "") is not None


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


def _comment_like(member: lxml.html.HtmlElement, now: datetime,
                  params: CommentParams = COMMENTS) -> bool:
    """An unnamed comment: a short text, few links, no headline, a date or a cue near its
    start, and something said besides the date (a news page's date and "最后更新：…" lines
    under the headline are a run of dated blocks too). Code is neither cue nor date, and a
    date counts only as a header (a line that is mostly the date, as "发表于 2023-05-02
    10:00" or "by Ann on May 3, 2023"): one inside a sentence ("在 2023 年 12 月 18 日达到了
    63 TiB") is what the text says, a dated list item of the article."""
    text = text_of(member)
    size = len(text.strip())
    if not params.min_unnamed_comment_chars <= size <= params.max_unnamed_comment_chars:
        return False
    if member.tag not in _COMMENT_TAGS or next(member.iter("h1", "h2", "h3"), None) is not None:
        return False
    links = sum(len(text_of(a)) for a in member.iter("a"))
    if links >= params.max_unnamed_link_share * size:
        return False
    chunks = _opening_chunks(member, params.cue_chars)
    if COMMENT_CUE.search(" ".join(chunks)):
        return True
    for chunk in chunks:
        dated = find_date(chunk, now)
        if dated is not None:
            return (len(dated[1]) >= params.dated_name_share * len(chunk.strip())
                    and size - len(dated[1]) >= params.min_unnamed_comment_chars)
    return False


def _opening_chunks(member: lxml.html.HtmlElement, chars: int) -> list[str]:
    """The text pieces (an element's text, a tail) of the member's first `chars` characters,
    code and markup comments left out."""
    chunks: list[str] = []
    size = 0
    blocks = list(member.iter(*CODE_TAGS))
    inside = {e for block in blocks for e in block.iterdescendants()}
    for element in member.iter():
        if element in inside:
            continue
        text = element.text if isinstance(element.tag, str) and element not in blocks else None
        for piece in (text, element.tail if element is not member else None):
            if piece and not piece.isspace():
                chunks.append(piece)
                size += len(piece)
        if size >= chars:
            break
    return chunks


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
    markup: Markup, covered: Collection[lxml.html.HtmlElement], now: datetime, groups: list[list],
    params: CommentParams = COMMENTS,
) -> list[lxml.html.HtmlElement]:
    """Runs of comment-like sibling blocks after the headline that no markup names, outside
    the `covered` blocks, and neither the titled entries of a list nor a dated list inside
    the article (a changelog) that its prose goes on after."""
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
        if (_contiguous(members) and all(_comment_like(m, now, params=params) for m in members)
                and first not in holders and not list_entries(members)
                and not _prose_follows(members[-1], coverage)):
            found += members
            for member in members:
                coverage.add(member)
    return found


def _prose_follows(last: lxml.html.HtmlElement, coverage: Coverage,
                  params: ArticlePartsParams = ARTICLE_PARTS) -> bool:
    """Whether a paragraph of the article's own text (a <p>, not a link) comes after the
    run's `last` member, beside it or beside its container a few levels up: comments come
    after the article, a changelog or a dated list stands between its paragraphs."""
    node = last
    for _ in range(params.prose_levels):
        for sibling in node.itersiblings():
            if sibling.tag == "p" and not coverage.covers(sibling):
                text = len(text_of(sibling).strip())
                links = sum(len(text_of(a).strip()) for a in sibling.iter("a"))
                if text - links >= params.min_prose_chars:
                    return True
        node = node.getparent()
        if node is None or node.tag in _NEVER_SECTION:
            return False
    return False


def parse_section(
    section: lxml.html.HtmlElement, now: datetime, groups: list[list],
    markup: Markup | None = None, params: CommentParams = COMMENTS,
) -> list[CommentData]:
    """All comments of one section, nested replies as comments of their own.

    A section without repeated items is a single comment, unless it is a heading,
    a counter or sidebar list, or a reply form.
    """
    if NOT_COMMENT_SECTION.search(hint_words(section)) or section.tag in ("h1", *_HEADING_TAGS):
        return []
    items = _items(section, groups, markup)
    if not items:
        return _single(section, now, markup, params=params)
    nested = _nested(items)
    found = [parse_item(item, nested[item], now, markup, params) for item in items]
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
            markup: Markup | None, params: CommentParams = COMMENTS) -> list[CommentData]:
    """A section without repeated items: one comment, its headings and reply form left out.
    A short one ("支持！", "Great post!") counts when it names its author and time, as a
    comment does, and says more than a label ("Premium" under a teaser's byline); an
    unsigned notice ("No comments yet", "Comments are closed") is none."""
    if section.tag == "form":  # the reply form itself, named as the comment section
        return []
    drop = {e for e in section.iterdescendants("form", "h1", *_HEADING_TAGS, "textarea")}
    drop |= {e for e in section.iterdescendants(etree.Element)
             if is_named_noise(e, markup) or _link_back(e)}
    drop |= _field_lines(section, params=params)
    comment = parse_item(section, drop, now, markup, params)
    if comment is None:
        return []
    text, signed = comment.text, comment.author and comment.published_raw
    if len(text) >= params.min_single_chars:
        kept = signed or not (len(text) <= params.max_notice_chars and COMMENT_NOTICE.search(text))
    else:
        kept = signed and (len(_WORD_CHARS.findall(text)) >= params.min_said_words
                           or _IDEOGRAPH.search(text))
    return [comment] if kept else []


def _field_lines(section: lxml.html.HtmlElement,
                 params: CommentParams = COMMENTS) -> set[lxml.html.HtmlElement]:
    """The lines of a reply form outside any <form> element: around each control and label,
    the largest block below the section that holds no more than a label's text ("Name
    (required)", "Mail (will not be published)", "Notify me of followup comments")."""
    found: set[lxml.html.HtmlElement] = set()
    for field in _ANY_FIELD(section):
        line = field
        for block in field.iterancestors():
            if block is section or len(text_of(block)) > params.max_name_chars:
                break
            line = block
        found.add(line)
    return found
