"""Chinese labelled fields: 作者：X, 来源：Y, 发布时间：Z, as news pages write their byline,
source and date lines, often run together without spaces ("来源：证券时报网作者：李在山").

The metadata reads authors, sources and dates from them; the article route drops the lines
themselves (and the breadcrumb above them) from the body.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from itertools import takewhile
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from pipelines.hanzi import both, either, simplified
from pipelines.page_text import text_of
from pipelines.params import CN_FIELDS, CnFieldParams

# A field's value ends at a space, a separator, a bracket ("（责任编辑：系统管理员）") or the
# next label run into it ("来源：证券时报网作者：李在山", "李跃群校对：刘威").
_NEXT_LABEL = "(?:" + either("作者|记者|来源|编辑|责任编辑|责编|校对|摄影|通讯员|实习生|审核|"
                              "发布时间|时间") + ")[:：]"
# … or at a counter run into it ("来源：东森新闻云4人参与2评论").
_COUNTER = r"\d+(?:" + either("人|条|次") + ")?(?:" + either("参与|评论|阅读|浏览") + ")"
CN_FIELD = re.compile("(" + either("作者|记者|来源|编辑|责任编辑|发布时间|发表时间|时间|日期")
                      + r")\s*[:：]\s*"
                      rf"((?:(?!{_NEXT_LABEL}|{_COUNTER})[^\s|丨｜/（）()【】\[\]])+"
                      r"(?:\s\d{1,2}:\d{2}(?::\d{2})?)?)")
CN_DATE_LABELS = ("发布时间", "发表时间", "时间", "日期")
# A reporter's byline as print news sets it, a space and no colon after the label, an outlet
# often before it: "本报记者 张三", "新华社记者 李四 王五", "澎湃新闻记者 贺梨萍",
# "【文/观察者网专栏作者 王文】". The names are 2–6 Chinese characters (a "·" inside foreign
# ones) and end the line, but for a word after them that is none (_AFTER_NAMES); a label
# run into the text ("据记者了解") is prose.
_SPACED_BYLINE = re.compile(r"(?:^|[\s【\[（(])[^\s【\[（(]{0,12}?(" + either("记者|作者")
                            + r")[ \u3000]+"
                            r"([\u4e00-\u9fff·]{2,6}(?:[ \u3000、，,]+[\u4e00-\u9fff·]{2,6}){0,3})"
                            r"\s*(?:$|[】\]）)])")
_SPACED_LABELS = both(("记者", "作者"))
_NAME_SEPARATORS = re.compile(r"[ \u3000、，,]+")
# What follows the names on such a line and is none ("新华社记者 李四 王五 报道").
_AFTER_NAMES = frozenset({"报道", "报道称", "报导", "综合报道", "编译", "整理", "摄影", "通讯员",
                          "实习生", "发自"})
_LABEL_ENDS = "者源辑輯间間期"  # the last character of every CN_FIELD label


def cn_fields(text: str | None, params: CnFieldParams = CN_FIELDS) -> list[tuple[str, str]]:
    """The (label, value) pairs of Chinese 作者：/来源：/发布时间： fields in a short line (an
    interview's "记者：" question is no field), or of a spaced reporter's byline ("本报记者
    张三 李四": their names joined with 、)."""
    if not text:
        return []
    if ":" in text or "：" in text:
        return [(simplified(label), value) for label, value in CN_FIELD.findall(text)
                if len(value) <= params.max_value_chars]
    if not any(label in text for label in _SPACED_LABELS):
        return []
    found = [(simplified(label), _names(names))
             for label, names in _SPACED_BYLINE.findall(text)]
    return [(label, names) for label, names in found if names]


def _names(names: str) -> str:
    """The names of a spaced byline joined with 、, up to the first word that is none."""
    kept = takewhile(lambda name: name not in _AFTER_NAMES, _NAME_SEPARATORS.split(names))
    return "、".join(kept)


def has_cn_labels(text: str) -> bool:
    """Whether a Chinese field label stands anywhere in the page's `text`: one search of the
    whole text spares reading every block for one (a block's text is a part of it). Every
    label ends in one of a few characters, which a plain search finds faster than the pattern."""
    if not any(c in text for c in _LABEL_ENDS):
        return False
    return CN_FIELD.search(text) is not None or (
        any(label in text for label in _SPACED_LABELS)
        and _SPACED_BYLINE.search(text) is not None)


_BREADCRUMB = re.compile("(?:" + either("您现在的|您所在的|您的|当前|所在") + r")位置\s*[:：]")


def _is_field_line(text: str, params: CnFieldParams = CN_FIELDS) -> bool:
    """Only labelled fields (and the dates beside them), or a breadcrumb."""
    if _BREADCRUMB.match(text):
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
            if text and _is_field_line(text, params=params):
                found.add(element)
    return found
