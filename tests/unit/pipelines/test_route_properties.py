"""Property: no page, however broken, fails the route. Generated and mutated HTML (random
bytes, declared charsets that are no character set, deep nesting, characters XML forbids,
crowds of attributes, broken tags and links, JSON-LD nested past any parser) goes through
`load_document` and `process_document` (what the crawler runs: the page-type decision, the
template diff against a sibling, the article or the list): nothing raises but NotHtmlError
for a binary body, every example returns within the deadline, and the outputs keep their
types. Derandomised, so the suite is repeatable; raise `max_examples` to explore."""

from __future__ import annotations

import json
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.cli import result_json
from pipelines.document import Document, NotHtmlError, load_document
from pipelines.process import PageResult, process_document
from pipelines.results import PAGE_TYPES
from pipelines.xml_text import xml_safe

ROUTE = settings(max_examples=200, deadline=timedelta(seconds=5), derandomize=True,
                 database=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])

CHARSETS = ["utf-8", "gbk", "gb2312", "big5", "shift_jis", "euc-kr", "iso-8859-1", "utf-16",
            "hex", "base64", "bz2", "zip", "uu", "quopri", "rot13", "idna", "punycode",
            "undefined", "unicode_escape", "utf-7", "x-no-such", ""]
ENCODINGS = ["utf-8", "gb18030", "big5", "cp1252", "utf-16"]
FORBIDDEN = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1f", "\ufffe", "&#1;", "&#x1f;",
             "&#65535", "&#0;", "&#xd800;"]
LINKS = ["http://[::1/x", "http://hostname[:port%5D/x", "http://a.cn:99999/", "//[", "http:",
         "javascript:alert(1)", "file:///etc/passwd", "/ok/1.html", "?page=2", "#top",
         "http://例子.测试/", "http://a.cn/\x01", "&#1;/x"]
TAGS = ["div", "p", "span", "a", "ul", "li", "table", "tr", "td", "h1", "h2", "article",
        "section", "script", "style", "noscript", "b", "br", "img", "font", "form", "title",
        "meta", "body", "html", "head", "svg", "template", "iframe", "time"]
WORDS = ["市政府召开会议", "发布时间：2024年5月1日 10:00", "来源：江城日报", "作者：李明", "下一页",
         "评论", "回复", "The council met on Monday.", "Posted by Ann", "Next »", "2024-05-01",
         "3 hours ago", "、。，", "©"]

ARTICLE = """<html><head><meta charset="utf-8"><title>市政府召开会议 - 江城新闻网</title>
<script type="application/ld+json">{"@type": "NewsArticle", "headline": "市政府召开会议",
"datePublished": "2024-05-01T10:00:00+08:00", "author": {"name": "李明"}}</script></head>
<body><div class="nav"><a href="/">首页</a> <a href="/news/">新闻</a></div>
<h1>市政府召开会议</h1><div class="info">发布时间：2024年5月1日 10:00　来源：江城日报</div>
<div class="content"><p>五月一日，市政府召开常务会议，研究部署近期重点工作。</p>
<p>会议强调，要切实做好民生保障，确保各项政策落到实处，让群众得到实惠。</p></div>
<div class="comments"><h3>评论</h3><div class="c"><span>网友A</span> 2024-05-01 11:00
<p>支持，希望落实到位。</p></div></div><div class="footer">版权所有 江城新闻网</div>
</body></html>"""
LISTING = ("<html><head><title>新闻列表</title></head><body><ul>" + "".join(
    f'<li><a href="/news/2024/05/{i:02d}/{1000 + i}.html">第{i}条新闻的标题文字</a>'
    f"<span>2024-05-{i:02d}</span><p>摘要{i}。</p></li>" for i in range(1, 13))
    + '</ul><a href="/news/list_2.html">下一页</a></body></html>')
THREAD = ("<html><head><title>Re: broken router - Forum</title></head><body>"
          "<h1>broken router</h1>" + "".join(
              f'<div class="post"><div class="author">user{i}</div><div class="date">'
              f"2024-05-0{i} 1{i}:00</div><div class=\"msg\"><p>Post {i}: the router drops "
              f"the line every evening, tried a reset.</p></div></div>" for i in range(1, 6))
          + "</body></html>")
FIXTURES = [ARTICLE, LISTING, THREAD]


def _attributes(draw: st.DrawFn) -> str:
    count = draw(st.sampled_from([0, 1, 2, 3, 200, 2_000]))
    value = draw(st.sampled_from(["x", "display:none", *LINKS, *FORBIDDEN]))
    names = draw(st.lists(st.sampled_from(["class", "id", "href", "style", "hidden", "src",
                                           "content", "charset", "type", "rel"]),
                          min_size=min(count, 3), max_size=min(count, 3)))
    named = "".join(f' {name}="{value}"' for name in names)
    return named + "".join(f" a{i}={i}" for i in range(count - len(names)))


@st.composite
def _snippet(draw: st.DrawFn) -> str:
    """One hostile piece of markup."""
    kind = draw(st.sampled_from(["element", "deep", "ld", "meta", "link", "text", "broken"]))
    tag = draw(st.sampled_from(TAGS))
    text = draw(st.sampled_from(WORDS)) + draw(st.sampled_from(["", *FORBIDDEN]))
    if kind == "element":
        return f"<{tag}{_attributes(draw)}>{text}</{tag}>"
    if kind == "deep":
        depth = draw(st.sampled_from([50, 300, 3_000]))
        return f"<{tag}>" * depth + text + f"</{tag}>" * draw(st.sampled_from([0, depth]))
    if kind == "ld":
        depth = draw(st.sampled_from([1, 40, 2_000]))
        return ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": '
                f'"{text}", "x": ' + "[" * depth + "1" + "]" * draw(
                    st.sampled_from([0, depth])) + "}</script>")
    if kind == "meta":
        return f'<meta charset="{draw(st.sampled_from(CHARSETS))}">'
    if kind == "link":
        return f'<a href="{draw(st.sampled_from(LINKS))}">{text}</a>'
    if kind == "text":
        return text
    return draw(st.sampled_from(["<a href=", "</", "<!--", "<![CDATA[", "<?xml ?>", "<p <p>",
                                 "</html><p>after</p>", "<body><body>", "&#", "&", "<>"]))


@st.composite
def _page(draw: st.DrawFn) -> bytes:
    """A fixture page mutated, or generated from snippets, or random bytes; then encoded
    in some charset that may differ from the one it declares."""
    source = draw(st.sampled_from(["fixture", "generated", "bytes"]))
    if source == "bytes":
        return draw(st.binary(max_size=4_000))
    if source == "generated":
        markup = "".join(draw(st.lists(_snippet(), max_size=12)))
    else:
        markup = draw(st.sampled_from(FIXTURES))
        for _ in range(draw(st.integers(0, 6))):
            at = draw(st.integers(0, len(markup)))
            edit = draw(st.sampled_from(["insert", "delete", "repeat"]))
            if edit == "insert":
                markup = markup[:at] + draw(_snippet()) + markup[at:]
            elif edit == "delete":
                markup = markup[:at] + markup[at + draw(st.integers(1, 200)):]
            else:
                markup = markup[:at] + markup[at:at + 300] * draw(st.integers(2, 20)) + markup[at:]
    body = markup.encode(draw(st.sampled_from(ENCODINGS)), errors="replace")
    for _ in range(draw(st.integers(0, 4))):  # a few bad bytes
        at = draw(st.integers(0, len(body)))
        body = body[:at] + draw(st.binary(min_size=1, max_size=4)) + body[at:]
    return body


def _check_types(result: PageResult) -> None:
    assert result.decision.page_type in PAGE_TYPES
    assert 0.0 <= result.decision.confidence <= 1.0
    output = result_json(result)
    json.dumps(output, ensure_ascii=False).encode("utf-8")  # storable: no lone surrogate
    for name in ("title", "author", "source", "published_at", "published_raw", "language",
                 "next_page"):
        assert output[name] is None or isinstance(output[name], str), name
    assert isinstance(output["content_text"], str) and isinstance(output["content_html"], str)
    for name in ("title", "author", "content_text", "content_html"):
        assert output[name] is None or xml_safe(output[name]) == output[name], name
    assert all(isinstance(record["title"], str | None) and isinstance(record["url"], str | None)
               for record in output["records"])
    assert all(isinstance(comment["text"], str) for comment in output["comments"])


def _load(body: bytes, url: str, charset: str) -> Document | None:
    try:
        return load_document(body, url=url, content_type=f"text/html; charset={charset}")
    except NotHtmlError:
        return None


@ROUTE
@given(body=_page(), charset=st.sampled_from(CHARSETS),
       url=st.sampled_from(["http://news.example.cn/2024/05/01/1001.html",
                            "https://blog.example.org/post/hello/", "http://[::1/x", ""]),
       forced=st.sampled_from([None, None, "news", "list", "forum", "other"]),
       sibling=st.one_of(st.none(), _page()))
def test_no_page_fails_the_route(body: bytes, charset: str, url: str, forced: str | None,
                                 sibling: bytes | None) -> None:
    doc = _load(body, url, charset)
    if doc is None:
        return
    assert isinstance(doc.text, str) and xml_safe(doc.text) == doc.text
    assert all(isinstance(link, str) for link in doc.links)
    sibling_doc = _load(sibling, url, charset) if sibling is not None else None
    _check_types(process_document(doc, sibling_doc, forced))
