"""Page-type decisions: rule precedence, site overrides, the shipped model on small pages."""

from __future__ import annotations

import json
from math import log1p, sqrt

import numpy as np
import pytest

from bench.pagetype import article_folds, pushes
from pipelines.document import load_document
from pipelines.pagetype import SiteRule, classify_page
from pipelines.pagetype.model import ListGate, PageTypeModel, Scaling, load_model
from pipelines.pagetype.page_features import PageScan, dominant_prose, page_features, weight
from pipelines.pagetype.rules import match_rule
from pipelines.params import PAGE_TYPE_TRAINING, PageTypeParams
from pipelines.results import ARTICLE_TYPES, PAGE_TYPES
from pipelines.training.pagetype import (
    ARTICLE,
    DECLARATIONS,
    article_weight,
    fit_model,
    load_articles,
    trained,
)
from pipelines.training.pagetype import main as train_main
from pipelines.training.sites import connected, site_of

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
    """A news page as portals build it: menu, headline, body, related links, goes to the
    article route (news or blog: the model learns that boundary from real sites too, whose
    Chinese prose pages are mostly blogs)."""
    decision = classify_page(_doc(ARTICLE_WITH_MENUS,
                                  "https://www.example.cn/shehui/2023-05-01/88231.html"))
    assert decision.decided_by == "classifier"
    assert decision.page_type in ARTICLE_TYPES
    assert 0.0 <= decision.confidence <= 1.0
    # plain floats: the store's driver renders a numpy scalar as "np.float64(…)"
    assert {type(decision.confidence)} | {type(p) for _, p in decision.candidates} == {float}


def test_shipped_model_classifies_a_list_page() -> None:
    decision = classify_page(_doc(LIST, "https://www.example.cn/guonei/"))
    assert (decision.page_type, decision.decided_by) == ("list", "classifier")


def test_low_confidence_falls_back_to_other_with_both_candidates() -> None:
    page = _doc(NEWS, None)  # a bare page: the model ranks 'other' and an article type
    # the rules for an unsure 'other' off: the page shows a date and prose, which they read as
    # a post
    decision = classify_page(page, params=PageTypeParams(min_confidence=1.01,
                                                         other_unsure_below=0.0))
    assert "list" not in (c for c, _ in decision.candidates)  # else the list rescue applies
    assert decision.page_type == "other"
    assert len(decision.candidates) == 2
    assert decision.candidates[0][1] >= decision.candidates[1][1]


class _UnsureModel:
    """A stand-in model that is never sure: ranks `ranked` whatever the page."""

    features: frozenset[str] = frozenset()

    def __init__(self, ranked: list[tuple[str, float]]) -> None:
        self.ranked = ranked

    def rank(self, features: dict[str, float]) -> list[tuple[str, float]]:
        return self.ranked


def test_a_page_declaring_its_publication_stays_an_article() -> None:
    """A head that declares a publication date outweighs a list-like body: on the
    labelled pages only articles declare one."""
    declared = LIST.replace("<head>", '<head><meta property="article:published_time" '
                                      'content="2023-05-26T08:00:00+08:00">')
    decision = classify_page(_doc(declared, "https://www.example.cn/guonei/"))
    assert decision.page_type in ARTICLE_TYPES
    assert decision.decided_by == "declared_publication"
    assert decision.candidates[0][0] == "list"  # what the model said stays on record
    assert classify_page(_doc(LIST, "https://www.example.cn/guonei/")).page_type == "list"


def test_the_classifier_does_not_learn_from_publication_declarations() -> None:
    """The declared-publication rule decides pages that declare one; trained on the
    declaration, the classifier read its absence as "no article" on other sites."""
    assert not any(map(trained, DECLARATIONS))
    assert DECLARATIONS.isdisjoint(load_model().features)  # the rule still reads one


@pytest.mark.parametrize(("ranked", "expected"), [
    ([("news", 0.40), ("list", 0.35), ("other", 0.25)], "news"),  # the likelier reading
    ([("other", 0.40), ("list", 0.35), ("news", 0.25)], "list"),  # crawl safety
    ([("list", 0.45), ("blog", 0.30), ("other", 0.25)], "list"),
    ([("news", 0.40), ("other", 0.35), ("list", 0.25)], "other"),
    ([("news", 0.40), ("blog", 0.35), ("list", 0.25)], "news"),  # an article either way
    ([("forum", 0.45), ("news", 0.30), ("other", 0.25)], "forum"),
])
def test_unsure_page_keeps_list_and_article_candidates(ranked, expected) -> None:
    # a page with no block of prose: the prose check leaves a list decision alone
    decision = classify_page(_doc(LIST, None), model=_UnsureModel(ranked))  # type: ignore[arg-type]
    assert decision.page_type == expected
    assert decision.candidates == ranked[:2]


_THREAD = """<html><head><title>求助：电脑蓝屏怎么办</title></head><body>{}</body></html>""".format(
    "".join(f'<div class="post"><a href="/member.php?u={n}">网友{n}</a> <a href="#p{n}">#{n}</a>'
            f"<span>2023-05-01 1{n}:2{n}</span><p>回复：先检查一下内存条，再看看硬盘。</p>"
            f'<a href="/reply?p={n}">回复</a> <a href="/quote?p={n}">引用</a></div>'
            for n in range(1, 7)))


def test_post_features_count_repeated_post_blocks() -> None:
    thread = page_features(_doc(_THREAD, None).tree)
    article = page_features(_doc(NEWS, None).tree)
    assert thread["post_clock_times"] == pytest.approx(log1p(6))  # one "1n:2n" stamp per post
    assert thread["post_numbers"] == pytest.approx(log1p(6))  # "#1" … "#6"
    assert thread["post_user_links"] == pytest.approx(log1p(6))  # one member.php link per post
    assert thread["post_user_link_share"] == pytest.approx(6 / 24)
    assert thread["post_actions"] == pytest.approx(log1p(12))  # 回复 and 引用 buttons
    assert article["post_numbers"] == article["post_user_links"] == article["post_actions"] == 0
    assert article["post_clock_times"] == pytest.approx(log1p(1))  # "10:00", the dateline


def test_only_requested_post_features_are_computed() -> None:
    features = page_features(_doc(_THREAD, None).tree, ["post_numbers"])
    assert [name for name in features if name.startswith("post_")] == ["post_numbers"]


def test_meta_features_read_what_head_meta_says() -> None:
    head = ('<head><meta property="og:type" content="article">'
            '<meta property="article:published_time" content="2023-05-01T10:00:00Z">'
            '<meta name="author" content="张三"></head>')
    article = page_features(_doc(f"<html>{head}<body><p>正文</p></body></html>", None).tree)
    assert (article["meta_published"], article["meta_author"], article["meta_og_article"]) == (
        1.0, 1.0, 1.0)
    assert article["meta_modified"] == article["meta_og_website"] == 0.0
    bare = page_features(_doc(NEWS, None).tree)
    assert not any(value for name, value in bare.items() if name.startswith("meta_"))
    assert "meta_og_article" not in bare  # no og:type: no evidence, not "not an article"
    website = page_features(_doc(f"<html>{head.replace('article', 'website', 1)}<body></body>"
                                 "</html>", None).tree)
    assert (website["meta_og_article"], website["meta_og_website"]) == (0.0, 1.0)


def test_weight_ignores_all_whitespace_kinds() -> None:
    assert weight(" a\tb\n\u3000中\xa0".encode()) == 2 + 3


def test_model_loads_once_and_probabilities_sum_to_one() -> None:
    model = load_model()
    assert model is load_model()
    ranked = model.rank({})
    assert sum(p for _, p in ranked) == pytest.approx(1.0)
    assert {c for c, _ in ranked} == set(model.classes)


def test_page_features_ignore_form_text_and_measure_link_text() -> None:
    html = ('<html><body><form><p>登录 2023-05-01 12:30 用户 3楼 #2</p>'
            '<select><option>12:45</option></select></form>'
            '<p>正文一段。</p><a href="/a">链接文字</a></body></html>')
    features = page_features(_doc(html, None).tree)
    assert features["lst_dates"] == features["post_clock_times"] == 0  # only inside <form>
    assert features["post_numbers"] == 0
    # UTF-8 bytes without whitespace: "链接文字" 12 of "正文一段。链接文字" 27 (form text left out)
    assert features["txt_chars"] == pytest.approx(log1p(27))
    assert features["lst_link_share"] == pytest.approx(sqrt(12 / 27))  # shares enter as sqrt


def test_tag_shares_are_square_roots_of_element_shares() -> None:
    html = "<html><head></head><body><div><p>a</p><p>b</p></div><p>c</p></body></html>"
    features = page_features(_doc(html, None).tree, ["tag_p", "tag_div", "tag_li"])
    # 7 elements (html, head, body, div, 3 p); the two most common tags come from XPath counts
    assert features["tag_p"] == pytest.approx(sqrt(3 / 7))
    assert features["tag_div"] == pytest.approx(sqrt(1 / 7))
    assert features["tag_li"] == 0


_DATED_LINKS = "".join(
    f'<li><a href="/guonei/2023-05-{d:02d}/{d}.html">本市推进老旧小区改造第{d}批项目开工</a>'
    f"<span>2023-05-{d:02d}</span></li>" for d in range(1, 21))
SECTION_INDEX = f"""<html><head><title>国内新闻</title></head><body>
<div class="nav"><a href="/">首页</a><a href="/guonei/">国内</a><a href="/caijing/">财经</a></div>
<ul>{_DATED_LINKS}</ul>
<div class="pages"><a href="/guonei/">1</a><a href="/guonei/list_2.html">2</a>
<a href="/guonei/list_3.html">3</a><a href="/guonei/list_2.html">下一页</a></div></body></html>"""

_MENU = "".join(f'<li><a href="/c{i}/">栏目{i}</a></li>' for i in range(30))
_RELATED = "".join(f'<li><a href="/a/2023/{i}.html">相关阅读：城市更新第{i}期</a></li>'
                   for i in range(8))
ARTICLE_WITH_MENUS = f"""<html><head><title>我市新建充电桩一万余个</title></head><body>
<ul class="menu">{_MENU}</ul><h1>我市新建充电桩一万余个</h1>
<div class="content">{"".join(f"<p>{_PARAGRAPH}</p>" for _ in range(8))}</div>
<div class="related"><h3>相关新闻</h3><ul>{_RELATED}</ul></div></body></html>"""

BOARD = """<html><head><title>江城杂谈 - 论坛</title></head><body><table class="threadlist">
<tr><th>标题</th><th>作者</th><th>回复/查看</th><th>最后发表</th></tr>{}</table>
<div class="pg"><a href="?page=2">2</a><a href="?page=2">下一页</a></div></body></html>""".format(
    "".join(f'<tr><th><a href="/t/{t}">大家说说周末去哪儿玩比较好第{t}帖</a></th>'
            f"<td><cite>网友{t}</cite></td><td>{t}/{t * 37}</td>"
            f"<td>2023-05-0{t % 9 + 1} 12:00</td></tr>"
            for t in range(1, 21)))


def test_list_features_separate_lists_from_articles() -> None:
    index = page_features(_doc(SECTION_INDEX, None).tree)
    article = page_features(_doc(ARTICLE_WITH_MENUS, None).tree)
    assert index["lst_run_share"] < 0.1 < 0.5 < article["lst_run_share"]
    assert index["lst_page_numbers"] == pytest.approx(log1p(3))  # the links "1", "2" and "3"
    assert index["lst_pager_words"] > 0
    assert index["lst_dates"] > article["lst_dates"]


def test_only_requested_families_are_computed() -> None:
    features = page_features(_doc(SECTION_INDEX, None).tree, ["lst_run", "tag_li"])
    assert "lst_run" in features and "tag_li" in features
    assert not any(name.startswith(("post_", "txt_", "head_kw_")) for name in features)


@pytest.mark.parametrize(("html", "url"), [
    (SECTION_INDEX, "https://www.example.cn/guonei/"),
    (BOARD, "https://bbs.example.cn/board.php?id=7"),
])
def test_shipped_model_calls_chinese_lists_list(html: str, url: str) -> None:
    assert classify_page(_doc(html, url)).page_type == "list"


def test_article_with_heavy_menus_is_not_a_list() -> None:
    decision = classify_page(_doc(ARTICLE_WITH_MENUS, "https://www.example.cn/a/2023/88231.html"))
    assert decision.page_type != "list"


_SENTENCES = ("We drove the new model for six months and kept a log of every trip, every "
              "fill-up and every <a href=\"/faults\">fault</a> we found along the way. ")
_SIDEBAR = "".join(f'<li><a href="/{y}/{m:02d}/">{y} month {m}</a></li>'
                   for y in (2011, 2012) for m in range(1, 13))
_POST_PARAGRAPHS = "".join(f"<p>{_SENTENCES * 3}</p>" for _ in range(4))
BLOG_POST = f"""<html><head><title>Six months with the hatchback</title></head><body>
<div class="sidebar"><h3>Archives</h3><ul>{_SIDEBAR}</ul></div>
<div class="post"><h2>Six months with the hatchback</h2>{_POST_PARAGRAPHS}
<a href="/older">Older Post</a> <a href="/newer">Newer Post</a></div></body></html>"""
BLOG_FRONT = f"""<html><head><title>The road test blog</title></head><body>
<div class="sidebar"><h3>Archives</h3><ul>{_SIDEBAR}</ul></div>{"".join(
    f'<div class="post"><h2><a href="/p/{n}">Road test {n}</a></h2>{_POST_PARAGRAPHS}</div>'
    for n in range(4))}<a href="/page/2">Older Posts</a></body></html>"""


def test_dominant_prose_is_one_block_in_an_article_and_one_per_record_in_a_list() -> None:
    """Inline links stay inside their paragraph's block; a blog front page's posts and a
    list's records each make their own block."""
    post = dominant_prose(PageScan(_doc(BLOG_POST, None).tree))
    front = dominant_prose(PageScan(_doc(BLOG_FRONT, None).tree))
    assert post.weight == front.weight > 800
    assert post.share > 0.9 and front.share == pytest.approx(0.25, abs=0.02)
    assert dominant_prose(PageScan(_doc(LIST, None).tree)).weight == 0  # links and dates only
    assert dominant_prose(PageScan(_doc(ARTICLE_WITH_MENUS, None).tree)).share > 0.9
    # a page inside one <form> (ASP.NET): its text is not counted as visible, its prose is
    in_form = (f"<html><body><form><div>{_POST_PARAGRAPHS * 2}</div><div>{_POST_PARAGRAPHS}"
               f"</div><ul>{_SIDEBAR}</ul></form></body></html>")
    assert dominant_prose(PageScan(_doc(in_form, None).tree)).share == pytest.approx(2 / 3)


@pytest.mark.parametrize(("html", "params", "expected"), [
    (BLOG_POST, PageTypeParams(), ("blog", "prose_block")),
    (BLOG_FRONT, PageTypeParams(), ("list", "classifier")),
    (SECTION_INDEX, PageTypeParams(), ("list", "classifier")),
    (BLOG_POST, PageTypeParams(prose_block_bytes=10_000), ("list", "classifier")),
])
def test_a_page_called_list_whose_prose_is_one_block_goes_to_articles(html, params,
                                                                      expected) -> None:
    """Old blog posts amid archives and older/newer links were read as lists on other sites."""
    sure_list = _UnsureModel([("list", 0.90), ("blog", 0.06), ("news", 0.04)])
    decision = classify_page(_doc(html, None), params=params, model=sure_list)  # type: ignore[arg-type]
    assert (decision.page_type, decision.decided_by) == expected
    assert decision.candidates == sure_list.ranked[:2]


def test_dates_of_both_centuries_and_chinese_form_are_counted() -> None:
    html = ("<html><body><p>1998年5月1日 发布</p><p>更新 2023-05-01</p><p>编号 2023-5</p>"
            "<p>20230-05-01</p></body></html>")
    features = page_features(_doc(html, None).tree, ["lst_dates"])
    assert features["lst_dates"] == pytest.approx(log1p(2))


def test_ascii_weight_skips_wide_spaces() -> None:
    assert weight(b" a b\r\n") == 2


def test_link_pieces_keep_document_order_through_nested_elements() -> None:
    html = ('<html><body><a href="/1">one<span>two<b>three</b></span>four</a> mid '
            '<a href="/2"> </a><a href="/3"><i>five</i></a></body></html>')
    assert PageScan(_doc(html, None).tree).link_pieces == ["one", "two", "three", "four", "five"]


def _toy_model(gate_intercept: float) -> PageTypeModel:
    """Two features, classes news/list; the gate reads only the second feature."""
    scaling = Scaling(("a", "b"), np.array([0.0, 0.0]), np.array([2.0, 4.0]), np.array([1.0, 2.0]))
    gate = ListGate(Scaling(("b",), np.array([0.0]), np.array([4.0]), np.array([2.0])),
                    np.array([1.0]), gate_intercept, 0.7)
    return PageTypeModel(("list", "news"), scaling, np.array([[1.0, -1.0], [-1.0, 2.0]]),
                         np.array([0.0, 0.5]), 1.0, gate)


def test_rank_is_the_softmax_of_normalised_linear_scores() -> None:
    ranked = dict(_toy_model(-10.0).rank({"a": 2.0, "b": 0.0}))  # gate far below threshold
    z = np.array([(2.0 - 1.0) / 2.0, (0.0 - 2.0) / 4.0])
    scores = np.array([[1.0, -1.0], [-1.0, 2.0]]) @ z + np.array([0.0, 0.5])
    expected = np.exp(scores) / np.exp(scores).sum()
    assert ranked["list"] == pytest.approx(expected[0])
    assert ranked["news"] == pytest.approx(expected[1])


def test_sure_list_gate_puts_list_first() -> None:
    ranked = _toy_model(10.0).rank({"a": 0.0, "b": 4.0})  # classifier says news
    assert ranked[0][0] == "list"
    assert ranked[0][1] == pytest.approx(1.0 / (1.0 + np.exp(-(10.0 + 0.5))))
    assert sum(p for _, p in ranked) == pytest.approx(1.0)


def test_pushes_are_each_features_lift_of_the_chosen_type_over_the_best_article() -> None:
    z = np.array([(2.0 - 1.0) / 2.0, (0.0 - 2.0) / 4.0])
    expected = (np.array([1.0, -1.0]) - np.array([-1.0, 2.0])) * z  # list minus news
    assert pushes(_toy_model(-10.0), {"a": 2.0, "b": 0.0}, "list") == pytest.approx(
        dict(zip(("a", "b"), expected.tolist(), strict=True)))
    assert pushes(_toy_model(-10.0), {}, "list") == {"a": 0.0, "b": 0.0}  # absent: no push


def test_site_of_groups_archived_copies_with_their_site() -> None:
    assert site_of("https://www.example.com/a/1.html") == "example.com"
    assert site_of("https://web.archive.org/web/20190717140047/http://www.example.de/x") == (
        "example.de")
    assert site_of("hard::example.html") is None
    assert site_of(None) is None
    assert site_of("http://[bad/feed") is None  # a hand-written href that does not parse



def _page_linking(head: str, *hrefs: str) -> str:
    links = "".join(f'<a href="{href}">x</a>' for href in hrefs)
    return f"<html><head>{head}</head><body><p>Post.</p>{links}</body></html>"


def test_pages_without_url_are_grouped_by_the_sites_their_html_names(tmp_path) -> None:
    share = '<link rel="canonical" href="https://news.example.co.uk/2012/post">'
    pages = {  # hubs (twitter, facebook) and rare hosts (other.org in "b") name no site
        "a": _page_linking(share),
        "b": _page_linking("", *["https://www.example.co.uk/x"] * 5, "https://other.org/x",
                           *["https://twitter.com/share"] * 9),
        "c": _page_linking("", "http://other.org/", "http://other.org/about", "/relative",
                           "https://www.facebook.com/share", "http://[broken"),
        "d": _page_linking("", "/only/relative", "https://twitter.com/share"),
        "e": _page_linking(share),
    }
    (tmp_path / "html").mkdir()
    for name, html in pages.items():
        (tmp_path / "html" / f"{name}.html").write_text(html)
    truth = tmp_path / "ground-truth.json"
    truth.write_text(json.dumps({name: {} for name in pages} | {"e": {"url": "https://x.cn/1"}}))
    groups = {p.name: p.group for p in load_articles(truth, tmp_path / "html")}
    assert groups == {"a": "example.co.uk", "b": "example.co.uk", "c": "other.org",
                      "d": f"{truth}:d", "e": "x.cn"}


def test_article_pages_without_url_weigh_less() -> None:
    weights = PAGE_TYPE_TRAINING
    assert article_weight({"url_depth": 2.0, "lst_run": 0.5}) == weights.article_weight
    assert (article_weight({"lst_run": 0.5}) == weights.urlless_article_weight
            < weights.article_weight)

def test_connected_joins_items_sharing_a_key() -> None:
    assert connected([{"a"}, {"b"}, {"c"}, {"b", "a"}, set()]) == [0, 0, 2, 0, 4]


def test_article_sites_share_folds_by_registrable_domain() -> None:
    groups = ["cnn.com", "bbc.co.uk bbc.com", "bbc.co.uk", "news.bbc.co.uk", "a.org", "a.org"]
    folds = article_folds(groups, {"money.cnn.com": 3, "gne:tests/x": 1}, 5, seed=0)
    assert folds[0] == 3  # a labelled site's fold
    assert folds[1] == folds[2] == folds[3] and folds[4] == folds[5]


def _rows(label: str, xs: list[float], **fixed: float) -> list[tuple[dict[str, float], str]]:
    """Feature rows of one label along lst_x (list-ness), with other features fixed."""
    return [({"lst_x": x, **fixed}, label) for x in xs]


# news and blog differ in head_y, forum in post_f, other in tag_o; lists sit at lst_x >= 0.8.
_LABELLED = (_rows("list", [0.8, 0.85, 0.9, 0.95, 1.0, 1.0], head_y=0.5, post_f=0, tag_o=0)
             + _rows("news", [0.0, 0.1, 0.2, 0.3], head_y=0.0, post_f=0, tag_o=0)
             + _rows("blog", [0.0, 0.1, 0.2, 0.3], head_y=1.0, post_f=0, tag_o=0)
             + _rows("forum", [0.2, 0.3, 0.4], head_y=0.5, post_f=1, tag_o=0)
             + _rows("other", [0.2, 0.3, 0.4], head_y=0.5, post_f=0, tag_o=1))


def _fit(extra: list[tuple[dict[str, float], str]]) -> PageTypeModel:
    pairs = _LABELLED + extra
    return fit_model([r for r, _ in pairs], [t for _, t in pairs],
                     [f"site{i}" for i in range(len(pairs))])


def test_article_pages_move_the_article_list_boundary() -> None:
    """Articles of unknown subtype (news or blog) where the labelled pages put lists."""
    probe = {"lst_x": 0.7, "head_y": 0.0, "post_f": 0.0, "tag_o": 0.0}
    assert _fit([]).rank(probe)[0][0] == "list"
    model = _fit(_rows(ARTICLE, [0.6, 0.65, 0.7, 0.75] * 3, head_y=0.0, post_f=0, tag_o=0))
    assert set(model.classes) == set(PAGE_TYPES)  # "article" is no class of its own
    assert model.rank(probe)[0][0] in ("news", "blog")


def test_article_pages_leave_scaling_and_list_gate_alone() -> None:
    """Their min/max/mean would shift every labelled page's features; the gate learnt URL
    habits of the article sets' sites from them (docs/BENCHMARKS.md)."""
    plain = _fit([])
    mixed = _fit(_rows(ARTICLE, [5.0, 6.0, 0.7], head_y=3.0, post_f=0, tag_o=0))
    assert mixed.scaling.features == plain.scaling.features
    for stat in ("minimum", "maximum", "mean"):
        assert np.array_equal(getattr(mixed.scaling, stat), getattr(plain.scaling, stat))
    assert mixed.gate is not None and plain.gate is not None
    assert np.array_equal(mixed.gate.coef, plain.gate.coef)


def test_train_command_learns_from_article_sets(tmp_path) -> None:
    pages = {"list": LIST, "news": NEWS, "blog": NEWS.replace("新闻中心", "博客"),
             "forum": FORUM, "other": "<html><body><p>关于我们</p></body></html>"}
    labels, folder = {}, tmp_path / "html"
    folder.mkdir()
    for kind, html in pages.items():
        for n in range(3):
            (folder / f"{kind}{n}.html").write_text(html.replace("</body>", f"<p>{n}</p></body>"))
            labels[f"{kind}{n}.html"] = {"type": kind, "group": f"{kind}{n}"}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    articles = tmp_path / "articles"
    (articles / "html").mkdir(parents=True)
    (articles / "html" / "a1.html").write_text(ARTICLE_WITH_MENUS)
    (articles / "ground-truth.json").write_text(json.dumps(
        {"a1": {"url": "https://www.example.cn/a/1.html"}, "missing": {}}))
    out = tmp_path / "model.json"
    assert train_main([str(tmp_path / "labels.json"), str(folder), "--out", str(out),
                       "--articles", str(articles / "ground-truth.json"),
                       str(articles / "html")]) == 0
    training = json.loads(out.read_text())["training"]
    assert (training["article_sets"], training["article_pages"]) == (["articles"], 1)
    assert load_model(str(out)).classes == tuple(sorted(PAGE_TYPES))
