"""S0 node labelling: noise filter, features, Viterbi, alignment and the shipped model."""

from __future__ import annotations

import itertools
from datetime import date

import numpy as np
import pytest

from pipelines.document import load_document
from pipelines.labelling import (
    LabelledNode,
    byline_nodes,
    comment_nodes,
    label_nodes,
    load_model,
    title_node,
)
from pipelines.labelling.crf import CrfModel, viterbi
from pipelines.labelling.days import find_day
from pipelines.labelling.features import sequence_features, sign_features
from pipelines.labelling.linearise import Counts, Kind, classify, linearise
from pipelines.params import NoiseFilterParams
from pipelines.training.label_alignment import LABELS, Truth, align

NAV = "".join(f'<li><a href="/c{i}">栏目{i}</a></li>' for i in range(12))
PAGE = f"""<html><head><title>央行宣布降准0.5个百分点 - 示例新闻网</title></head><body>
<div id="nav"><ul>{NAV}</ul></div>
<form action="/search"><label>搜索</label><input name="q" placeholder="请输入关键词">
  <select><option>全部</option><option>新闻</option><option>图片</option></select>
  <button>搜索一下</button></form>
<div class="article">
  <h1>央行宣布降准0.5个百分点</h1>
  <div class="info">2023年5月1日 10:00 来源：新华网 作者：张三</div>
  <div class="content">
    <p>中国人民银行今天宣布，下调金融机构存款准备金率0.5个百分点，释放长期资金约一万亿元。</p>
    <p>央行有关负责人表示，此次降准是为了巩固经济回升向好的基础，保持流动性合理充裕。</p>
    <p>分析人士认为，降准有助于降低实体经济融资成本，<a href="/x">支持</a>小微企业发展。</p>
  </div>
</div>
<div class="footer">Copyright © 2023 示例新闻网 版权所有</div>
</body></html>"""


@pytest.fixture(scope="module")
def doc():
    return load_document(PAGE.encode("utf-8"), url="https://news.example.cn/a/1.html")


def test_classify_follows_the_seed_rules():
    params = NoiseFilterParams()
    assert classify(Counts(0, 0, 0), params) is Kind.EMPTY
    assert classify(Counts(6, 0, 0), params) is Kind.TEXT  # a short byline stays
    assert classify(Counts(500, 3, 0), params) is Kind.TEXT  # C/L ≥ T5
    assert classify(Counts(30, 4, 0), params) is Kind.LINK_TEXT  # 0 < L ≤ T2, C/L < T5
    assert classify(Counts(60, 12, 0), params) is Kind.LINK  # L > T2, C/L < T5
    assert classify(Counts(20, 0, 18), params) is Kind.FORM  # F/C > T3


def test_linearise_drops_link_farm_and_form_keeps_text(doc):
    blocks = linearise(doc.body)
    texts = [b.text for b in blocks]
    assert not any("栏目" in t for t in texts)  # 12-link nav: a link node
    assert not any("搜索" in t or "全部" in t for t in texts)  # the search form
    assert texts[0] == "央行宣布降准0.5个百分点"
    assert "2023年5月1日 10:00 来源：新华网 作者：张三" in texts
    linked = next(b for b in blocks if "小微企业" in b.text)
    assert "支持" in linked.text and linked.links == 1 and linked.link_chars == 2
    assert [b.element.tag for b in blocks].count("p") == 3


def test_linearise_cuts_at_line_breaks_and_nested_blocks():
    html = ('<html><body><div>来源：新华网<br>作者：张三<p>第一段。</p>第二段，<br><br>'
            '第三段<a href="/x">链接</a>。</div></body></html>')
    blocks = linearise(load_document(html.encode("utf-8")).body)
    assert [b.text for b in blocks] == ["来源：新华网", "作者：张三", "第一段。", "第二段，",
                                        "第三段 链接 。"]
    assert [b.element.tag for b in blocks] == ["div", "div", "p", "div", "div"]
    assert blocks[-1].links == 1 and blocks[-1].link_chars == 2


def test_features_of_a_chinese_byline():
    feats = sign_features("2023年5月1日 10:00 来源：新华网 作者：张三", None)
    for name in ("sign:date", "sign:clock", "sign:year", "sign:label_colon", "cue:source",
                 "cue:author"):
        assert name in feats, name
    assert "cue:time" in sign_features("发布时间：2023-05-01 08:00", None)
    assert "sign:date" not in sign_features("中国人民银行今天宣布下调存款准备金率", None)


def test_sequence_features_carry_neighbours(doc):
    blocks = linearise(doc.body)
    feats = sequence_features(blocks, ["央行宣布降准05个百分点"])
    assert feats[0]["title=eq"] == 1.0 and feats[0]["p:BOS"] == 1.0
    assert feats[1]["p:tag=h1"] == 1.0 and feats[-1]["n:EOS"] == 1.0


def test_find_day_reads_western_and_chinese_days():
    assert find_day("19. Oktober 2019, 10:00 Uhr")[0] == date(2019, 10, 19)
    assert find_day("19.10.2019")[0] == date(2019, 10, 19)
    assert find_day("2023年5月1日")[0] == date(2023, 5, 1)
    assert find_day("version 1.2.3") is None


def test_viterbi_equals_brute_force():
    rng = np.random.default_rng(7)
    for steps, labels in ((1, 3), (4, 3), (5, 2)):
        emissions = rng.normal(size=(steps, labels))
        transitions = rng.normal(size=(labels, labels))

        def score(path, e=emissions, t=transitions):
            return sum(e[i, y] for i, y in enumerate(path)) + sum(
                t[a, b] for a, b in itertools.pairwise(path))

        best = max(itertools.product(range(labels), repeat=steps), key=score)
        assert viterbi(emissions, transitions) == list(best)
    assert viterbi(np.zeros((0, 3)), np.zeros((3, 3))) == []


def test_model_json_round_trip_and_attribute_values():
    model = CrfModel.from_crfsuite(
        ["a", "b"],
        {("x", "a"): 1.0, ("x", "b"): -1.0, ("y", "b"): 0.001},
        {("a", "b"): 0.5},
        min_weight=0.01,
    )
    assert list(model.attributes) == ["x"]  # y's weights are all tiny: pruned
    again = CrfModel.from_json(model.to_json({"trained": "test"}))
    assert np.allclose(again.state, model.state)
    assert np.allclose(again.transitions, model.transitions)
    assert again.tag([{"x": 1.0}, {"x": -1.0}, {"unknown": 1.0}])[:2] == ["a", "b"]
    with pytest.raises(ValueError):
        CrfModel.from_json({"format_version": 0})


def test_align_labels_body_title_byline(doc):
    blocks = linearise(doc.body)
    truth = Truth(
        body="中国人民银行今天宣布，下调金融机构存款准备金率0.5个百分点，释放长期资金约一万亿元。"
             "央行有关负责人表示，此次降准是为了巩固经济回升向好的基础，保持流动性合理充裕。",
        titles=["央行宣布降准0.5个百分点 - 示例新闻网"], authors=["张三"], day=date(2023, 5, 1))
    labels = dict(zip((b.text[:6] for b in blocks), align(blocks, truth), strict=True))
    assert labels["央行宣布降准"] == "title"
    assert labels["2023年5"] == "author"  # names the author: author wins over time
    assert labels["中国人民银行"] == labels["央行有关负责"] == "content"
    assert labels["分析人士认为"] == "other"  # not in this (shortened) body
    assert set(labels.values()) <= set(LABELS)


def test_shipped_model_labels_a_chinese_page(doc):
    model = load_model()
    assert load_model() is model  # read once per process
    nodes = label_nodes(doc)
    assert all(isinstance(n, LabelledNode) and n.label in LABELS for n in nodes)
    assert title_node(nodes).text == "央行宣布降准0.5个百分点"
    assert [n.label for n in nodes if n.text.startswith(("中国人民银行", "央行有关"))] == [
        "content", "content"]
    assert nodes[-1].label == "other"  # the copyright footer
    assert comment_nodes(nodes) == []
    # A byline on so small a page is not reliably labelled (time F1 ≈ 0.4): only check the helper.
    assert all(n.label in ("author", "time") for n in byline_nodes(nodes))
