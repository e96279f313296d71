"""Density extraction on small hand-written pages: all three variants find the article."""

from dataclasses import replace

import lxml.html
import pytest

from pipelines.article.body import density, render
from pipelines.article.markup import read_markup
from pipelines.params import DENSITY

ARTICLE = "".join(
    f"<p>第{i}段：今天，记者从市政府获悉，全市共有{i}个项目开工，总投资约百亿元。"
    f"This is sentence {i}, with commas, and a full stop.</p>" for i in range(8)
)
PAGE = f"""<html><body>
<div class="top"><a href="/a">首页</a> <a href="/b">新闻</a> <a href="/c">体育</a>
  <a href="/d">财经</a> <a href="/e">科技</a></div>
<div class="main"><div class="text">{ARTICLE}</div>
  <ul><li><a href="/x">相关新闻一则标题很长很长</a></li><li><a href="/y">相关新闻二则</a></li></ul>
</div>
<div class="links">{"".join(f'<a href="/l{i}">友情链接{i}</a> ' for i in range(30))}</div>
</body></html>"""


def _body(html: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(html).find("body")


def test_counts_are_bottom_up() -> None:
    body = _body("<html><body><div><p>Hi, you.</p><a href='#'>link</a></div></body></html>")
    stats = density.count(body)
    div = body.find("div")
    assert stats[div].chars == len("Hi,you.") + len("link")
    assert stats[div].link_chars == 4
    assert stats[div].punct == 2
    assert stats[div].tags == 2
    assert stats[body].tags == 3


@pytest.mark.parametrize("variant", ["text", "composite", "punctuation"])
def test_every_variant_finds_the_article(variant: str) -> None:
    body = _body(PAGE)
    found = density.extract(body, params=replace(DENSITY, density=variant))
    text = render.to_text(found.content, found.dropped)
    assert "第0段" in text and "第7段" in text
    assert "友情链接" not in text and "首页" not in text


def test_excluded_subtrees_count_as_absent_and_tree_is_unchanged() -> None:
    body = _body(PAGE)
    before = lxml.html.tostring(body)
    text_div = body.find(".//div[@class='text']")
    found = density.extract(body, exclude={text_div})
    assert text_div not in found.stats
    assert lxml.html.tostring(body) == before


def test_link_farm_yields_little() -> None:
    farm = "".join(f'<li><a href="/p{i}">Some headline number {i}</a></li>' for i in range(200))
    body = _body(f"<html><body><ul>{farm}</ul><p>Copyright 2024</p></body></html>")
    found = density.extract(body)
    assert len(render.to_text(found.content, found.dropped)) < 100


def test_punctuation_counts_chinese_and_western_marks() -> None:
    assert density.count_punctuation("你好，世界。Hello, world!") == 4


def test_counts_leave_out_invisible_and_excluded_subtrees_with_the_routes_markup() -> None:
    body = _body("<html><body><div><p>Hi, you.</p><a href='#'>link</a></div>"
                 "<script>x</script><nav><a>menu</a></nav></body></html>")
    fresh = density.count(body, exclude={body.find("nav")})
    shared = density.count(body, exclude={body.find("nav")}, markup=read_markup(body))
    assert [(e.tag, s.chars, s.tags) for e, s in fresh.items()] == \
        [(e.tag, s.chars, s.tags) for e, s in shared.items()]
    assert [e.tag for e in shared] == ["body", "div", "p", "a"]  # script and nav left out
