"""Index terms of a text: what both stores index and what a query is turned into.

Chinese (and Japanese and Korean) is written without spaces and a dictionary is a
maintenance burden that still misses new names, so CJK runs are indexed as overlapping
character pairs (疫情防控 → 疫情 情防 防控); a one-character run stays one term. A
two-character word is then one term and a longer one a phrase of pairs. Other scripts
are indexed by word. Traditional characters are folded to simplified (OpenCC's t2s) and
Latin letters to their NFKC lower-case form on both sides, so 臺灣 finds 台湾 and ＣＯＶＩＤ
finds covid. Terms are letters and digits only, separated by spaces: PostgreSQL's
`to_tsvector('simple', …)` and SQLite FTS5's unicode61 tokenizer then both read them as
the same tokens, in the same order (phrase positions).
"""

from __future__ import annotations

import operator
import re
import unicodedata
from functools import cache

import opencc

# Han (with extensions and compatibility ideographs), kana, Hangul syllables.
_CJK = ("\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
        "\U00020000-\U0003134f")
# A letter or digit of a script written with spaces: what words are made of.
WORD_CHARACTER = rf"[^\W_{_CJK}]"  # a class: not a separator, not CJK
_PIECES = re.compile(rf"([{_CJK}]+)|({WORD_CHARACTER}+)")

# Formats, not tunings: a PostgreSQL tsvector holds at most 1 MB and positions up to
# 16,383, and a lexeme at most 2,047 bytes; a text is indexed up to these lengths.
INDEXED_CHARACTERS = 200_000
WORD_CHARACTERS = 64


@cache
def _converter() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


@cache
def _separators() -> re.Pattern[str]:
    """The characters NFKC turns into separators only (full-width punctuation ，！？（）,
    the ideographic space, …): read as spaces before NFKC. NFKC leaves a text it would not
    change as it is, so without them most Chinese text skips its slow path (a full-width
    comma made NFKC rebuild the whole text: 40 % of the index's time). Characters outside
    the Basic Multilingual Plane are left to NFKC itself. (A separator is what `_PIECES`
    does not read: kana punctuation such as ・ is read, as part of a CJK run.)"""
    found = []
    for code in range(0x10000):
        character = chr(code)
        folded = unicodedata.normalize("NFKC", character)
        if (folded != character and not _PIECES.search(folded)
                and not any(map(unicodedata.combining, character + folded))):
            found.append(re.escape(character))
    return re.compile(f"[{''.join(found)}]")


def normalise(text: str) -> str:
    """The text as it is indexed: NFKC, simplified characters, case-folded; characters
    NFKC makes separators are spaces (the same terms, and the text keeps its length)."""
    spaced = _separators().sub(" ", text)
    return _converter().convert(unicodedata.normalize("NFKC", spaced)).casefold()


def is_cjk(term: str) -> bool:
    """Whether a term is (part of) a CJK run, which are indexed as character pairs."""
    return bool(re.fullmatch(f"[{_CJK}]+", term))


def terms(text: str) -> list[str]:
    """The index terms of a text, in reading order (see the module's docstring)."""
    found: list[str] = []
    for cjk, word in _PIECES.findall(normalise(text[:INDEXED_CHARACTERS])):
        if word:
            found.append(word[:WORD_CHARACTERS])
        elif len(cjk) == 1:
            found.append(cjk)
        else:
            found.extend(map(operator.add, cjk, cjk[1:]))  # each character and the next
    return found


def index_text(text: str | None) -> str:
    """The terms of a text as one space-separated string, the indexed column's value."""
    return " ".join(terms(text or ""))
