"""Index terms: the separator pre-pass that spares NFKC's slow path reads every text as
NFKC itself would, so the index, the queries and the snippets keep their terms."""

from __future__ import annotations

import random
import unicodedata

from models.search.terms import _PIECES, _converter, _separators, index_text, normalise, terms


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
