"""Page-type decisions: rule precedence, site overrides, the shipped model on small pages."""

from __future__ import annotations

import pytest

from pipelines.document import load_document
from pipelines.pagetype import SiteRule, classify_page
from pipelines.pagetype.model import load_model
from pipelines.pagetype.page_features import page_features
from pipelines.pagetype.rules import match_rule
from pipelines.params import PageTypeParams

_PARAGRAPH = ("记者从有关部门获悉，今年以来全市新建充电桩一万余个，覆盖主要城区和高速公路服务区。"
              "相关负责人表示，下一步将继续完善配套设施，方便市民绿色出行。")

NEWS = f"""<html><head><title>我市新建充电桩一万余个_新闻中心</title></head><body>
<div class="nav"><a href="/">首页</a><a href="/news/">新闻</a><a href="/sports/">体育</a></div>
<h1>我市新建充电桩一万余个</h1>
<div class="info">2023-05-01 10:00 来源：本报 记者 张三</div>
<div class="content">{"".join(f"<p>{_PARAGRAPH}</p>" for _ in range(6))}</div>
<div class="editor">责任编辑：李四</div></body></html>"""

LIST = """<html><head><title>国内新闻_列表</title></head><body>
<div class="nav"><a href="/">首页</a><a href="/news/">新闻</a></div><ul class="list">{}</ul>
<div class="pages"><a href="/news/2.html">下一页</a><a href="/news/9.html">尾页</a></div>
</body></html>""".format("".join(
    f'<li><a href="/news/2023-05-{d:02d}/{d}.html">城市交通建设持续推进第{d}期工程顺利完工</a>'
    f"<span>2023-05-{d:02d}</span></li>" for d in range(1, 26)))

FORUM = """<html><head><title>求助：电脑蓝屏怎么办 - 电脑论坛</title></head><body>
<div class="post"><div class="author">楼主 小王</div>
<p>电脑最近经常蓝屏，重装系统也没有用，大家帮忙看看？</p></div>
<div class="post"><div class="author">2楼 老李</div>
<p>回复：先检查一下内存条，再看看硬盘有没有坏道。</p></div>
</body></html>"""


def _doc(html: str, url: str | None):
    return load_document(html.encode("utf-8"), url)


def test_site_rule_from_json_and_validation() -> None:
    rules = SiteRule.from_json('[{"pattern": "/kuaixun/", "type": "news"}]')
    assert rules == (SiteRule("/kuaixun/", "news"),)
    assert SiteRule.from_json(None) == ()
    with pytest.raises(ValueError):
        SiteRule("/x/", "video")


def test_builtin_rule_decides_before_classifier() -> None:
    decision = classify_page(_doc(FORUM, "https://bbs.example.cn/viewthread.php?tid=42"))
    assert (decision.page_type, decision.decided_by) == ("forum", "rule:forum_thread")


def test_site_rule_overrides_builtin_rule() -> None:
    site = SiteRule.from_json([{"pattern": r"example\.cn/viewthread", "type": "news"}])
    decision = classify_page(_doc(FORUM, "https://bbs.example.cn/viewthread.php?tid=42"), site)
    assert (decision.page_type, decision.decided_by) == ("news", r"site:example\.cn/viewthread")


def test_pagination_is_checked_before_article_patterns() -> None:
    assert match_rule("https://news.sina.com.cn/china/index_2.shtml") == ("list", "rule:pagination")
    assert match_rule("https://example.com/about") is None


def test_shipped_model_classifies_a_chinese_news_article() -> None:
    decision = classify_page(_doc(NEWS, "https://www.example.cn/shehui/2023-05-01/88231.html"))
    assert decision.decided_by == "classifier"
    assert decision.page_type == "news"
    assert 0.0 <= decision.confidence <= 1.0


def test_shipped_model_classifies_a_list_page() -> None:
    decision = classify_page(_doc(LIST, "https://www.example.cn/guonei/"))
    assert (decision.page_type, decision.decided_by) == ("list", "classifier")


def test_low_confidence_falls_back_to_other_with_both_candidates() -> None:
    decision = classify_page(_doc(NEWS, None), params=PageTypeParams(min_confidence=1.01))
    assert decision.page_type == "other"
    assert len(decision.candidates) == 2
    assert decision.candidates[0][1] >= decision.candidates[1][1]


def test_model_loads_once_and_probabilities_sum_to_one() -> None:
    model = load_model()
    assert model is load_model()
    ranked = model.rank({})
    assert sum(p for _, p in ranked) == pytest.approx(1.0)
    assert {c for c, _ in ranked} == set(model.classes)


def test_page_features_ignore_form_text_and_measure_link_text() -> None:
    html = ('<html><body><form><p>登录 用户名 密码 回复 回复 回复</p></form>'
            '<p>正文一段。</p><a href="/a">链接文字</a></body></html>')
    features = page_features(_doc(html, None).tree)
    assert features["txt_kw_forum"] == 0  # "回复" only appears inside <form>
    assert features["link_text_share"] == pytest.approx(4 / 10)  # "正文一段。\n链接文字"
