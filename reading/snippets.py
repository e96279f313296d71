"""Highlighted snippets: the part of a hit's text around the query's terms, terms marked.

Matching reads the text as the index does (`models.search.terms.normalise`: NFKC,
simplified, case-folded), so 臺灣 in the text is marked for a query 台湾. The snippet is
HTML: the text escaped, each match in `<mark>`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from models.search.terms import WORD_CHARACTER, is_cjk, normalise
from reading.query import Term

SNIPPET_CHARACTERS = 160
_READ_CHARACTERS = 50_000  # of a long text, the part searched for a match
_PIECE = re.compile(r"[^\W_]+")


def _pattern(terms: Sequence[Term]) -> re.Pattern[str] | None:
    """One alternation of the terms' normalised texts, separators between their pieces free."""
    alternatives = []
    for term in terms:
        pieces = _PIECE.findall(normalise(term.text))
        if pieces:
            before = "" if is_cjk(pieces[0][0]) else f"(?<!{WORD_CHARACTER})"
            after = ("" if is_cjk(pieces[-1][-1]) else f"{WORD_CHARACTER}*" if term.prefix
                     else f"(?!{WORD_CHARACTER})")
            alternatives.append(before + r"[\W_]*".join(map(re.escape, pieces)) + after)
    if not alternatives:
        return None
    return re.compile("|".join(sorted(alternatives, key=len, reverse=True)))


def _searchable(text: str) -> str:
    """The text normalised, or only case-folded when normalising changed its length (then
    positions would not map back onto the text)."""
    folded = normalise(text)
    return folded if len(folded) == len(text) else text.casefold()


def snippet(text: str | None, terms: Sequence[Term],
            width: int = SNIPPET_CHARACTERS) -> str:
    """An HTML snippet of `text` around its first match, or its beginning if none matches."""
    text = " ".join((text or "")[:_READ_CHARACTERS].split())
    pattern = _pattern(terms)
    searchable = _searchable(text)
    first = pattern.search(searchable) if pattern else None
    start = max(0, first.start() - width // 3) if first else 0
    end = min(len(text), start + width)
    marked, at = [], start
    if pattern:
        for match in pattern.finditer(searchable, start, end):
            if match.end() > match.start():
                marked += [html.escape(text[at:match.start()]),
                           f"<mark>{html.escape(text[match.start():match.end()])}</mark>"]
                at = match.end()
    marked.append(html.escape(text[at:end]))
    return ("…" if start else "") + "".join(marked) + ("…" if end < len(text) else "")


_MARK = re.compile(r"</?mark>")


def plain(snippet_html: str) -> str:
    """A snippet as plain text: matches in 【】, entities read (terminals, e-mail, chat)."""
    return html.unescape(_MARK.sub(lambda match: "】" if match[0][1] == "/" else "【",
                                   snippet_html))
