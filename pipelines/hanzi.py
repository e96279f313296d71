"""Simplified and traditional Chinese forms of the words the rules look for.

Mainland pages write simplified characters; Taiwan and Hong Kong pages (often Big5) write
traditional ones: 記者 for 记者, 來源 for 来源, 發布時間 for 发布时间. The rules are
written once, in simplified characters: `either` makes a regex alternation accept both
forms, `both` adds the traditional forms to a tuple of words for plain tests, and
`simplified` maps what a pattern matched back. The table holds the characters of the
project's label and cue words only; reading them needs no full conversion table.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

# Each simplified character followed by its traditional form(s): 复 is 覆 in Taiwan's 回覆,
# 復 in 回復.
_PAIRS = ("记記 来來 编編 辑輯 责責 发發 时時 间間 对對 摄攝 讯訊 实實 习習 "
          "审審 现現 当當 条條 阅閱 览覽 评評 论論 参參 与與 员員 网網 读讀 "
          "热熱 门門 复覆復 楼樓 积積 题題 华華 币幣 册冊 录錄 后後 该該 达達 "
          "电電 举舉 说說 暂暫 还還 关關 闭閉 报報 闻聞 频頻 订訂 于於 注註 浏瀏 "
          "无無 没沒 钟鐘 个個 周週 两兩 几幾 刚剛 点點")
_TRADITIONAL = {pair[0]: pair[1:] for pair in _PAIRS.split(" ")}
_SIMPLIFIED = str.maketrans({t: s for s, ts in _TRADITIONAL.items() for t in ts})


def either(words: str) -> str:
    """A regex alternation of plain `words` ("a|b") in which each character with a
    traditional form matches either form ([记記])."""
    return "".join(f"[{c}{_TRADITIONAL[c]}]" if c in _TRADITIONAL else c for c in words)


def both(words: Iterable[str]) -> tuple[str, ...]:
    """`words` and every traditional spelling of them, for substring and equality tests."""
    found: dict[str, None] = {}
    for word in words:
        forms = [c + _TRADITIONAL.get(c, "") for c in word]
        found.update(dict.fromkeys("".join(chars) for chars in product(*forms)))
    return tuple(found)


def simplified(text: str) -> str:
    """`text` with the table's traditional characters in their simplified forms."""
    return text.translate(_SIMPLIFIED)
