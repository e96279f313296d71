"""What of a huge or hostile page is read: caps that bound the work of every later stage.

Each cap sits far above what real pages hold (params.PageBoundsParams), so a normal page is
read whole, and a hostile one is cut to its first part, which still comes out. They act
before and right after parsing, where all later work is decided:

- markup: only the first `max_markup_chars` bytes of a page are decoded and parsed;
- attributes: libxml2's HTML parser checks each attribute of a start tag against all the
  earlier ones (quadratic: docs/RELIABILITY.md, "Bounded pages"), so a start tag with more than
  `max_attributes` is cut to its first ones before parsing;
- elements and text: the tree keeps its first `max_elements` elements in document order,
  and no text node longer than `max_text_chars`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice
from typing import AnyStr

import lxml.html

from pipelines.params import PAGE_BOUNDS, PageBoundsParams

MARKUP = "markup"
ATTRIBUTES = "attributes"
ELEMENTS = "elements"
TEXT = "text"
LINKS = "links"
RECORDS = "records"

_IMPLIED_ELEMENTS = ("html", "head", "body", "p")  # what the parser adds unasked


# Elements whose content is text, not markup: a "<" in a script is no tag.
_RAW_TEXT = ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
             "noscript")
# The same names as one pattern, factored by first letters: tried at every start tag.
_RAW_TEXT_NAME = r"(?i:s(?:cript|tyle)|t(?:extarea|itle)|xmp|iframe|no(?:embed|frames|script))"


@lru_cache(maxsize=8)
def _patterns(kind: type, run: int, runs: int) -> tuple[re.Pattern, ...]:
    """For bytes or str markup: the markup up to the next start tag that is long (over `runs`
    quoted values and runs of up to `run` other characters), holds a "<" or ">" in a value,
    or opens a raw-text element; a start tag to its end; its name; one attribute.
    Possessive quantifiers: each is one linear pass, no backtracking."""
    # as HTML5 tokenizes a tag: a quote opens a value only after "=", else it is part of a name
    value = r"""=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>]*+)"""
    patterns = (
        r"(?:[^<]++|<(?![A-Za-z])|<(?!" + _RAW_TEXT_NAME + r"[\s/>])[A-Za-z]"
        + f"(?:[^<>\"']{{1,{run}}}+|\"[^\"<>]*+\"|'[^'<>]*+'){{0,{runs}}}+>)*+",
        r"<[A-Za-z](?:[^>=]++|" + value + ")*+",
        r"<([^\s/>]*+)",
        r"[\s/]*+[^\s/>][^\s/>=]*+(?:\s*+" + value + ")?+",
    )
    if kind is bytes:
        return tuple(re.compile(p.encode("ascii")) for p in patterns)
    return tuple(re.compile(p) for p in patterns)


def cap_markup(markup: AnyStr, params: PageBoundsParams = PAGE_BOUNDS) -> AnyStr:
    """The first `max_markup_chars` of the markup (bytes, or characters of a str), cut before
    a UTF-8 character's continuation bytes; the markup itself when it is shorter. Parsing is what
    a huge page costs most in memory, before any other cap can act."""
    if len(markup) <= params.max_markup_chars:
        return markup
    end = params.max_markup_chars
    if isinstance(markup, bytes):
        while end > 0 and 0x80 <= markup[end] < 0xC0:  # a UTF-8 continuation byte
            end -= 1
    return markup[:end]


def cap_attributes(markup: AnyStr, params: PageBoundsParams = PAGE_BOUNDS) -> AnyStr:
    """The markup with every start tag cut to its first `max_attributes` attributes, or the
    markup itself when none has more. One scan in C passes the usual tags; Python reads only
    long ones (see _patterns), those with a "<" or ">" in a value (where a tag ends then
    takes its quotes into account) and those of raw-text elements, whose text it skips."""
    short, tag, name, attribute = _patterns(type(markup), params.long_tag_run,
                                            params.long_tag_runs)
    close = markup[:0] + (b">" if isinstance(markup, bytes) else ">")
    pieces: list[AnyStr] = []
    at = done = 0
    while (at := short.match(markup, at).end()) < len(markup):
        end = tag.match(markup, at).end()
        tag_name = name.match(markup, at)
        attributes = attribute.finditer(markup, tag_name.end(), end)
        kept = list(islice(attributes, params.max_attributes + 1))
        if len(kept) > params.max_attributes:
            pieces += [markup[done:kept[-2].end()], close]
            done = end + len(close) if markup[end:end + 1] == close else len(markup)
        at = max(end, at + 1)
        raw = _raw_text_end(type(markup), _as_str(tag_name[1]).lower())
        if raw is not None:  # its content is text up to its end tag, or to the end
            found = raw.search(markup, at)
            at = found.start() if found else len(markup)
    return markup[:0].join([*pieces, markup[done:]]) if pieces else markup


def _as_str(name: str | bytes) -> str:
    return name.decode("latin-1") if isinstance(name, bytes) else name


@lru_cache(maxsize=32)
def _raw_text_end(kind: type, name: str) -> re.Pattern | None:
    """The end tag of a raw-text element of this name; None for other elements."""
    if name not in _RAW_TEXT:
        return None
    pattern = "</" + name + r"[\s/>]"
    return re.compile(pattern.encode("ascii") if kind is bytes else pattern, re.I)


def cap_tree(root: lxml.html.HtmlElement, markup: str | bytes,
             params: PageBoundsParams = PAGE_BOUNDS) -> set[str]:
    """Cut the tree parsed from `markup`, in place, to its first `max_elements` elements (in
    document order) and every text node to `max_text_chars` characters; the caps that cut
    something. The usual page is not walked: no text node is longer than the markup, and
    the parser makes at most two elements per "<" (a tag, and one it implies) and the
    document's own few."""
    hit: set[str] = set()
    tags = markup.count(b"<" if isinstance(markup, bytes) else "<")
    if 2 * tags + len(_IMPLIED_ELEMENTS) > params.max_elements:
        last = next(islice(root.iter(), params.max_elements - 1, None), None)
        if last is not None and _cut_after(last):
            hit.add(ELEMENTS)
    if len(markup) > params.max_text_chars and _cut_text(root, params.max_text_chars):
        hit.add(TEXT)
    return hit


def _cut_after(last: lxml.html.HtmlElement) -> bool:
    """Remove everything after `last` in document order (its children, then the following
    siblings of it and of each ancestor); whether anything was."""
    cut = len(last) > 0
    del last[:]
    node = last
    for parent in last.iterancestors():
        index = parent.index(node) + 1
        cut = cut or index < len(parent)
        del parent[index:]
        node = parent
    return cut


_LONG_TEXTS = "descendant-or-self::text()[string-length(.) > $limit]"


def _cut_text(root: lxml.html.HtmlElement, max_chars: int) -> bool:
    """Shorten every text and tail longer than `max_chars` (found in C: the usual page has
    none); whether any was."""
    found = root.xpath(_LONG_TEXTS, limit=max_chars)
    for text in found:
        parent = text.getparent()
        if text.is_tail:
            parent.tail = parent.tail[:max_chars]
        else:
            parent.text = parent.text[:max_chars]
    return bool(found)
