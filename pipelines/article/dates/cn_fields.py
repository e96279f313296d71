"""Chinese labelled fields: 作者：X, 来源：Y, 发布时间：Z, as news pages write their byline,
source and date lines, often run together without spaces ("来源：证券时报网作者：李在山").

The metadata reads authors, sources and dates from them; the article route drops the lines
themselves (and the breadcrumb above them) from the body.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from itertools import takewhile
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from pipelines.hanzi import simplified
from pipelines.lexicon import (
    CN_AFTER_NAMES,
    CN_BREADCRUMB,
    CN_FIELD,
    CN_LABEL_ENDS,
    CN_NAME_SEPARATORS,
    CN_SPACED_BYLINE,
    CN_SPACED_LABELS,
)
from pipelines.page_text import text_of
from pipelines.params import CN_FIELDS, CnFieldParams


def cn_fields(text: str | None, params: CnFieldParams = CN_FIELDS) -> list[tuple[str, str]]:
    """The (label, value) pairs of Chinese 作者：/来源：/发布时间： fields in a short line (an
    interview's "记者：" question is no field), or of a spaced reporter's byline ("本报记者
    张三 李四": their names joined with 、)."""
    if not text:
        return []
    if ":" in text or "：" in text:
        return [(simplified(label), value) for label, value in CN_FIELD.findall(text)
                if len(value) <= params.max_value_chars]
    if not any(label in text for label in CN_SPACED_LABELS):
        return []
    found = [(simplified(label), _names(names))
             for label, names in CN_SPACED_BYLINE.findall(text)]
    return [(label, names) for label, names in found if names]


def _names(names: str) -> str:
    """The names of a spaced byline joined with 、, up to the first word that is none."""
    kept = takewhile(lambda name: name not in CN_AFTER_NAMES, CN_NAME_SEPARATORS.split(names))
    return "、".join(kept)


def has_cn_labels(text: str) -> bool:
    """Whether a Chinese field label stands anywhere in the page's `text`: one search of the
    whole text spares reading every block for one (a block's text is a part of it). Every
    label ends in one of a few characters, which a plain search finds faster than the pattern."""
    if not any(c in text for c in CN_LABEL_ENDS):
        return False
    return CN_FIELD.search(text) is not None or (
        any(label in text for label in CN_SPACED_LABELS)
        and CN_SPACED_BYLINE.search(text) is not None)




def is_field_line(text: str, params: CnFieldParams = CN_FIELDS) -> bool:
    """Only labelled fields (and the dates beside them), or a breadcrumb: not a sentence
    that names its source in passing ("…检查类型(作者：某人)，我们可以…")."""
    if CN_BREADCRUMB.match(text):
        return True
    found = list(CN_FIELD.finditer(text))
    if not found or any(len(match[2]) > params.max_value_chars for match in found):
        return False
    rest = CN_FIELD.sub("", text)
    return len(rest) <= params.max_value_chars


def field_lines(content: Iterable[HtmlElement], chars: Mapping[HtmlElement, Any],
                removed: Collection[HtmlElement],
                params: CnFieldParams = CN_FIELDS) -> set[HtmlElement]:
    """The byline, date and source lines and the breadcrumb inside an extracted body
    ("2019-09-26 12:11来源：证券时报网作者：李在山", "（责任编辑：王五）", "当前位置：首页 > 快讯"):
    the metadata is read from them, the body is the article. `chars` are the density
    counters (an element's `chars`), so long blocks are never read."""
    found: set[HtmlElement] = set()
    for root in content:
        for element in root.iter(etree.Element):
            counted = chars.get(element)
            if (counted is None or counted.chars > params.max_line_chars or element is root
                    or element in removed
                    or found and any(a in found for a in element.iterancestors())):
                continue
            text = " ".join(text_of(element).split())
            if text and is_field_line(text, params=params):
                found.add(element)
    return found
