"""Index terms: the separator pre-pass that spares NFKC's slow path reads every text as
NFKC itself would, and the array-made terms (`index_texts`) are those the loop over pieces
made, so the index, the queries and the snippets keep their terms."""

from __future__ import annotations

import operator
import random
import unicodedata

from models.search.terms import (
    _PIECES,
    INDEXED_CHARACTERS,
    WORD_CHARACTERS,
    _converter,
    _separators,
    index_text,
    index_texts,
    normalise,
    terms,
)


def _plain_terms(text: str) -> list[str]:
    """The terms by the definition: NFKC, t2s, case-folded, then pieces and pairs."""
    folded = _converter().convert(unicodedata.normalize("NFKC", text)).casefold()
    found: list[str] = []
    for cjk, word in _PIECES.findall(folded):
        if word:
            found.append(word[:64])
        elif len(cjk) == 1:
            found.append(cjk)
        else:
            found.extend(cjk[start:start + 2] for start in range(len(cjk) - 1))
    return found


def test_every_character_read_as_a_separator_gives_the_terms_nfkc_gives() -> None:
    """Each character the pre-pass makes a space (the others are NFKC's own work) alone,
    between Latin letters, between Han characters and before a combining mark: the terms
    are those of the plain definition."""
    replaced = [chr(code) for code in range(0x10000) if not 0xD800 <= code < 0xE000
                and _separators().fullmatch(chr(code))]
    assert "，" in replaced and "\u3000" in replaced and "･" not in replaced
    for character in replaced:
        for text in (character, f"a{character}b", f"疫{character}情", f"{character}\u0301"):
            assert terms(text) == _plain_terms(text), (hex(ord(character)), text)


def test_mixed_texts_give_the_same_terms_and_keep_their_length() -> None:
    rng = random.Random(7)
    pieces = ["疫情防控", "臺灣", "ＣＯＶＩＤ", "，", "！", "…", "\u3000", "・", "･", "é\u0301",
              "x" * 70, "１２３", "㎏", " ", "新冠"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(12)))
        assert terms(text) == _plain_terms(text), text
        assert index_text(text) == " ".join(_plain_terms(text))
    assert len(normalise("疫情，防控…！")) == len("疫情，防控…！")  # snippets map positions
    assert terms("疫情防控，臺灣ＣＯＶＩＤ") == ["疫情", "情防", "防控", "台湾", "covid"]


def _loop_index_text(text: str | None) -> str:
    """The terms as the store made them before `index_texts` (the reference: one Python
    string a pair, one loop turn a piece)."""
    found: list[str] = []
    for cjk, word in _PIECES.findall(normalise((text or "")[:INDEXED_CHARACTERS])):
        if word:
            found.append(word[:WORD_CHARACTERS])
        elif len(cjk) == 1:
            found.append(cjk)
        else:
            found.extend(map(operator.add, cjk, cjk[1:]))
    return " ".join(found)


_CORPUS_PIECES = [
    "疫情防控", "新冠肺炎疫情", "臺灣", "乾隆", "發展與變革", "國務院辦公廳", "頭髮", "疫",
    "，", "。", "！", "？", "（", "）", "、", "：", "；", "「", "」", "《", "》", "…", "——",
    "\u3000", "・", "･", "ー", "ひらがな", "カタカナ", "한국어", "ｶﾀｶﾅ", "ＣＯＶＩＤ", "ｃｏｖｉｄ",
    "１２３", "㎏", "Ⅻ", "ﬁ", "Straße", "İstanbul", "café", "e\u0301", "Ελληνικά", "Москва",
    "العربية", "हिन्दी", "ꭰꭱ", "x" * 70, "h5n1", "covid-19", "U.S.", "a_b", "2026年11月29日",
    "😀", "👩\u200d💻", "🇨🇳", "𠀋𠮷", "\U0002a6e0", "\u0000", "\n", "\t", " ", "  ", "",
    "\ufeff", "\u200b", "½", "²", "①", "〇", "々", "〆", "ㄅㄆ", "\uf900\ufa6e",
]


def test_array_made_terms_are_the_loop_made_terms() -> None:
    """Simplified and traditional Chinese, full-width punctuation, kana and Hangul, Latin
    with accents, other scripts, emoji, astral characters and NULs, alone,
    mixed and in batches of any size: `index_texts` gives what the loop gave, text by text."""
    rng = random.Random(29)
    texts: list[str | None] = [None, "", *_CORPUS_PIECES]
    for _ in range(3000):
        texts.append("".join(rng.choice(_CORPUS_PIECES) for _ in range(rng.randrange(16))))
    texts += ["疫情防控，" * 50_000, "word " * 50_000, "新冠" * (INDEXED_CHARACTERS // 2 + 3)]
    expected = [_loop_index_text(text) for text in texts]
    assert index_texts(texts) == expected
    for text, terms_of_text in zip(texts, expected, strict=True):
        assert index_text(text) == terms_of_text
        assert terms(text or "") == (terms_of_text.split(" ") if terms_of_text else [])
    start = 0
    while start < len(texts):  # batches of the sizes a store's chunk makes, and odd ones
        size = rng.choice((1, 2, 9, 50, 430))
        assert index_texts(texts[start:start + size]) == expected[start:start + size]
        start += size
    assert index_texts([]) == []
