"""The search query language, one for both stores, parsed into a small tree.

    疫情 防控            both (AND is implied between terms)
    "climate change"     a phrase: its words in this order
    疫情 OR 肺炎          either
    疫情 -谣言, 疫情 NOT 谣言   the first without the second
    (a OR b) c           grouping
    educat*              a word beginning so

A term is read as the index reads text (`models.search.terms`): a CJK term of two or more
characters is a phrase of character pairs, a single CJK character finds the words it
begins. NOT only excludes: a query, and each side of an OR, must find something by itself,
the rule both stores can run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models.search.terms import is_cjk, terms


class QueryError(ValueError):
    """A query that cannot be run; the message says why, in the user's terms."""


@dataclass(frozen=True)
class Term:
    """Index terms in a row (one term, or a phrase), the last one a prefix when `prefix`."""

    words: tuple[str, ...]
    prefix: bool
    text: str  # as the user wrote it, for highlighting


@dataclass(frozen=True)
class Not:
    item: Node


@dataclass(frozen=True)
class And:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Node, ...]


Node = Term | Not | And | Or

_TOKENS = re.compile(r'\s*(?:(\()|(\))|"([^"]*)"?|(-?)([^\s()"]+))')
_OPERATORS = {"AND", "OR", "NOT"}


def _lex(query: str) -> list[tuple[str, str]]:
    """(kind, text) pairs: '(' ')' 'OP' 'PHRASE' 'WORD' 'MINUS'."""
    tokens: list[tuple[str, str]] = []
    for opening, closing, phrase, minus, word in _TOKENS.findall(query):
        if opening or closing:
            tokens.append((opening or closing, opening or closing))
        elif phrase:
            tokens.append(("PHRASE", phrase))
        elif word:
            if minus:
                tokens.append(("MINUS", "-"))
            tokens.append(("OP", word) if word in _OPERATORS and not minus else ("WORD", word))
    return tokens


def _term(text: str, quoted: bool) -> Term | None:
    prefix = not quoted and text.endswith("*")
    words = tuple(terms(text.rstrip("*") if prefix else text))
    if not words:
        return None
    if len(words) == 1 and len(words[0]) == 1 and is_cjk(words[0]):
        prefix = True
    return Term(words, prefix, text.rstrip("*"))


class _Parser:
    def __init__(self, query: str) -> None:
        self.tokens = _lex(query)
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def parse(self) -> Node | None:
        node = self.either()
        if self.peek() is not None:
            raise QueryError(f"unexpected {self.peek()[1]!r} in the query")  # type: ignore[index]
        return node

    def either(self) -> Node | None:
        items = [self.both()]
        while self.peek() == ("OP", "OR"):
            self.take()
            items.append(self.both())
        kept = tuple(item for item in items if item is not None)
        return kept[0] if len(kept) == 1 else Or(kept) if kept else None

    def both(self) -> Node | None:
        items: list[Node | None] = []
        while (token := self.peek()) is not None and token != ("OP", "OR") and token[0] != ")":
            if token == ("OP", "AND"):
                self.take()
                continue
            items.append(self.unary())
        kept = tuple(item for item in items if item is not None)
        return kept[0] if len(kept) == 1 else And(kept) if kept else None

    def unary(self) -> Node | None:
        kind, text = self.take()
        if kind == "MINUS" or (kind, text) == ("OP", "NOT"):
            if self.peek() is None:
                raise QueryError(f"{text!r} at the end of the query excludes nothing")
            item = self.unary()
            return Not(item) if item is not None else None
        if kind == "(":
            node = self.either()
            if self.peek() is None or self.take()[0] != ")":
                raise QueryError("a '(' is not closed")
            return node
        if kind == ")" or kind == "OP":
            raise QueryError(f"unexpected {text!r} in the query")
        return _term(text, quoted=kind == "PHRASE")


def _check(node: Node) -> None:
    """Every query and every side of an OR finds something by itself (NOT only excludes)."""
    if isinstance(node, Not):
        raise QueryError("a query needs something to find: NOT and '-' only exclude")
    if isinstance(node, And):
        if all(isinstance(item, Not) for item in node.items):
            raise QueryError("a query needs something to find: NOT and '-' only exclude")
        for item in node.items:
            _check(item.item if isinstance(item, Not) else item)
    if isinstance(node, Or):
        for item in node.items:
            _check(item)


def parse(query: str) -> Node:
    """The tree of a query, or QueryError saying what is wrong with it."""
    node = _Parser(query).parse()
    if node is None:
        raise QueryError("the query has nothing to search for (no letters or digits)")
    _check(node)
    return node


def positive_terms(node: Node) -> list[Term]:
    """The terms a hit may contain (not those under NOT): what a snippet highlights."""
    if isinstance(node, Term):
        return [node]
    if isinstance(node, Not):
        return []
    return [term for item in node.items for term in positive_terms(item)]
