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

The store makes the terms of many texts in one call (`index_texts`): pieces and pairs by
array operations over all their code points, where a Python string a pair and a loop turn a
piece were about three quarters of the terms' time (0.22 → 0.11 ms a demo page).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Sequence
from functools import cache

import numpy as np
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
    return index_text(text).split()  # a term holds no white space: none is a piece's


def index_text(text: str | None) -> str:
    """The terms of a text as one space-separated string, the indexed column's value."""
    return index_texts([text])[0]


_SEPARATOR, _WORD, _CJK_CHARACTER = 0, 1, 2
_SPACE = ord(" ")


@cache
def _classes() -> np.ndarray:
    """Each code point's class (separator, word character, CJK), as `_PIECES` reads it: a
    piece is a longest run of one class, whatever its neighbours (built once, ≈ 0.3 s)."""
    everything = "".join(map(chr, range(sys.maxunicode + 1)))
    classes = np.full(sys.maxunicode + 1, _SEPARATOR, dtype=np.uint8)
    for piece in _PIECES.finditer(everything):
        classes[piece.start():piece.end()] = _WORD if piece.group(2) else _CJK_CHARACTER
    return classes


def index_texts(texts: Sequence[str | None]) -> list[str]:
    """`index_text` of each text, made for all of them together: one array operation a
    step over their code points (see the module's docstring) instead of Python a piece."""
    if not texts:
        return []
    cut = [text[:INDEXED_CHARACTERS] if text else "" for text in texts]
    joined = "\0".join(cut)  # a separator: no piece crosses from one text to the next
    if joined.count("\0") == len(cut) - 1:  # none holds it: all normalised in one call each
        # NFKC, t2s (a phrase has no NUL) and case-folding leave each side of a NUL as it is
        normalised = normalise(joined).split("\0")
    else:
        normalised = list(map(normalise, cut))
    joined = "\0".join(normalised)
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    kind = _classes()[points]
    word, cjk = kind == _WORD, kind == _CJK_CHARACTER
    before_word, before_cjk, after_cjk = (np.zeros_like(word) for _ in range(3))
    before_word[1:], before_cjk[1:], after_cjk[:-1] = word[:-1], cjk[:-1], cjk[1:]
    position = np.arange(len(points))
    word_start = word & ~before_word
    word_offset = position - np.maximum.accumulate(np.where(word_start, position, 0))
    pair = cjk & after_cjk  # a CJK character and the next: a pair starts here
    alone = cjk & ~before_cjk & ~after_cjk  # a one-character run: one term
    # What each code point writes: a space if a term starts there, then its characters.
    starts = (word_start | pair | alone).astype(np.int64)
    written = starts + (word & (word_offset < WORD_CHARACTERS)) + 2 * pair + alone
    ends = np.cumsum(written)
    source = np.repeat(position, written)
    offset = np.arange(len(source)) - np.repeat(ends - written, written) - starts[source]
    out = np.where(offset < 0, _SPACE, points[source + offset])  # offset -1: the space
    written_text = out.astype(np.uint32).tobytes().decode("utf-32-le")
    lengths = np.array(list(map(len, normalised)), dtype=np.int64)
    firsts = np.concatenate(([0], np.cumsum(lengths[:-1] + 1)))  # each text's first point
    written_before = np.concatenate(([0], ends))
    # Each text's terms, after the space its first term wrote (no term: an empty slice).
    return [written_text[start + 1:end] for start, end in zip(
        written_before[firsts].tolist(), written_before[firsts + lengths].tolist(), strict=True)]
