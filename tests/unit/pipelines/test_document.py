"""Decoding and parsing: charsets declared, undeclared and wrong; broken, empty, binary, huge."""

from __future__ import annotations

import codecs
import time

import pytest

from pipelines.document import NotHtmlError, decode_html, load_document
from pipelines.params import PAGE_BOUNDS
from pipelines.process import process_document

CHINESE = ("<html><head><title>新闻</title></head>"
           "<body><p>今天天气很好，我们去公园散步。</p></body></html>")


def test_gbk_without_any_charset_declaration_is_detected() -> None:
    body = (CHINESE * 3).encode("gbk")
    text, encoding = decode_html(body, content_type="text/html")
    assert encoding == "gb18030"
    assert "今天天气很好" in text


def test_meta_gb2312_decodes_with_gb18030_superset() -> None:
    # 镕 is outside GB2312 but in GBK/GB18030: real "gb2312" pages contain such characters.
    page = '<meta charset="gb2312"><p>朱镕基考察，群众欢迎。</p>'
    text, encoding = decode_html(page.encode("gb18030"))
    assert encoding == "gb18030" and "朱镕基" in text


def test_header_saying_utf8_over_a_gbk_body_is_not_trusted() -> None:
    body = (CHINESE * 3).encode("gbk")
    text, encoding = decode_html(body, content_type="text/html; charset=utf-8")
    assert encoding == "gb18030" and "公园散步" in text


def test_http_header_beats_meta_and_bom_beats_both() -> None:
    body = '<meta charset="utf-8"><p>Café crème</p>'.encode("cp1252")
    assert decode_html(body, "text/html; charset=windows-1252")[0].endswith("Café crème</p>")
    bom = codecs.BOM_UTF8 + "<p>naïve</p>".encode()
    text, encoding = decode_html(bom, "text/html; charset=iso-8859-1")
    assert encoding == "utf-8" and text == "<p>naïve</p>"


def test_a_bad_byte_never_drops_the_page() -> None:
    body = "<p>正常的文字，后面有坏字节。</p>".encode() + b"\xff\xfe\xfa" + "<p>继续。</p>".encode()
    doc = load_document(body, content_type="text/html; charset=utf-8")
    assert "继续" in doc.body.text_content()


def test_binary_bodies_are_refused() -> None:
    with pytest.raises(NotHtmlError):
        load_document(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    with pytest.raises(NotHtmlError):
        load_document(b"%PDF-1.4 ...")


@pytest.mark.parametrize("body", [b"", b"   ", b"<html></html>", b"<?xml version='1.0'?>"])
def test_empty_or_bodiless_pages_give_an_empty_body(body: bytes) -> None:
    doc = load_document(body)
    assert doc.body.tag == "body" and doc.body.text_content().strip() == ""


def test_broken_html_is_repaired() -> None:
    doc = load_document(b"<html><body><div><p>one<p>two<table><tr><td>cell</div>")
    assert [p.text for p in doc.body.iter("p")] == ["one", "two"]


def test_xml_declaration_with_encoding_is_accepted() -> None:
    body = b'<?xml version="1.0" encoding="utf-8"?><html><body><p>ok</p></body></html>'
    assert load_document(body).body.findtext("p") == "ok"


def test_ten_megabyte_page_parses_to_its_first_elements() -> None:
    """Issue 24: a page of 500,000 elements keeps its first max_elements, in order."""
    row = "<tr><td>单元格内容，测试大页面。</td></tr>"
    body = f"<html><body><table>{row * 250_000}</table></body></html>".encode()
    assert len(body) > 10_000_000
    doc = load_document(body)
    cells = doc.body.findall(".//td")
    assert len(cells) == pytest.approx(PAGE_BOUNDS.max_elements / 2, abs=5)
    assert cells[0].text == "单元格内容，测试大页面。"
    assert sum(1 for _ in doc.tree.iter()) <= PAGE_BOUNDS.max_elements
    assert "elements" in doc.capped


def test_cleaning_drops_scripts_styles_and_hidden_but_keeps_json_ld() -> None:
    doc = load_document(b"""<html><head><script>var x;</script><style>p{}</style>
        <script type="application/ld+json">{"@type": "NewsArticle"}</script></head>
        <body><p>visible</p><div hidden>secret</div><div style="display: none">gone</div>
        <p STYLE="Visibility : Hidden">shy</p>
        <noscript>enable js</noscript></body></html>""")
    text = doc.body.text_content()
    assert "visible" in text and "secret" not in text and "gone" not in text
    assert "shy" not in text
    assert "enable js" not in text
    assert doc.tree.find(".//script").get("type") == "application/ld+json"


def test_links_are_absolute_deduplicated_and_without_fragments() -> None:
    doc = load_document(b"""<html><head><base href="/news/"></head><body>
        <a href="a.html#top">a</a><a href="a.html">again</a><a href="javascript:void(0)">js</a>
        <a href="mailto:x@y">mail</a><a href="https://other.org/x">out</a></body></html>""",
                        url="https://site.cn/index.html")
    assert doc.links == ["https://site.cn/news/a.html", "https://other.org/x"]


def test_links_resolve_against_their_own_page_when_resolutions_are_shared() -> None:
    """Root-relative and absolute links are resolved once per site and reused; each page
    still gets its own host's and scheme's answer."""
    page = (b"<html><body><a href='/x/../y.html'>root</a><a href='z.html'>rel</a>"
            b"<a href='http://Other.org/p?'>other</a><a href='//cdn.cn/p'>scheme-relative</a>"
            b"</body></html>")
    links = {url: load_document(page, url=url).links
             for url in ("https://a.cn/s/1.html", "http://b.cn/t/2.html", "https://a.cn/u/3.html")}
    assert links == {
        "https://a.cn/s/1.html": ["https://a.cn/y.html", "https://a.cn/s/z.html",
                                  "http://Other.org/p?", "https://cdn.cn/p"],
        "http://b.cn/t/2.html": ["http://b.cn/y.html", "http://b.cn/t/z.html",
                                 "http://Other.org/p", "http://cdn.cn/p"],
        "https://a.cn/u/3.html": ["https://a.cn/y.html", "https://a.cn/u/z.html",
                                  "http://Other.org/p?", "https://cdn.cn/p"]}


def test_valid_utf8_is_read_as_utf8_whatever_the_page_declares() -> None:
    # Such bodies go to libxml2 as bytes: its own charset sniffing must not win.
    body = ('<?xml version="1.0" encoding="gbk"?><html><head><meta charset="gbk"></head>'
            "<body><p>中文 é 😀</p></body></html>").encode()
    doc = load_document(body, content_type="text/html; charset=gbk")
    assert doc.encoding == "utf-8" and doc.body.findtext("p") == "中文 é 😀"


def test_hidden_elements_go_with_their_tails_kept_once_per_element() -> None:
    # An element hidden twice over (attribute and style) is dropped once; shown styles stay.
    doc = load_document(b"""<html><body><p>a<span hidden style="display:none">x</span>b
        <span style="color:red">red</span><span style="DISPLAY:NONE">y</span>c</p></body></html>""")
    assert " ".join(doc.body.text_content().split()) == "ab redc"


def test_a_doubled_bom_is_not_page_text() -> None:
    body = codecs.BOM_UTF8 * 2 + "<html><body><p>中文</p></body></html>".encode()
    assert load_document(body).body.text_content() == "中文"


# A page read as a browser reads it: a Hexo theme that closes </html> before its <body>, a
# second <body>, stray markup before <html>; the text is all there.
_POST = ("<h1>编程的乐趣</h1><p>第一段正文，讲述写代码的乐趣。</p>"
         "<p>Second paragraph of the post.</p>")


@pytest.mark.parametrize("page", [
    f"<!DOCTYPE html><html lang='zh'><head><title>T</title></head></html><body>{_POST}</body>",
    f"<html><head><title>T</title></head><body></body></html>\n<body>{_POST}</body>\n",
    f"<html><head><title>T</title></head><body><h1>编程的乐趣</h1></body><body>{_POST}</body>",
    f"<div>note</div>\n<!DOCTYPE html><html><head><title>T</title></head><body>{_POST}</body>"
    "</html>",
])
@pytest.mark.parametrize("as_text", [False, True])
def test_body_after_the_end_of_html_or_a_second_body_is_read(page: str, as_text: bool) -> None:
    body = page.encode("utf-8")
    doc = load_document(body.decode("utf-8").encode("gb18030") if as_text else body)
    assert len(doc.tree.findall("body")) == 1
    text = doc.body.text_content()
    assert "第一段正文" in text and "Second paragraph of the post." in text


def test_a_page_whose_end_tags_only_close_it_is_parsed_as_it_is() -> None:
    doc = load_document(b"<html><body><p>One</p></body>\n<!-- cached -->\n</html>\n")
    assert [p.text for p in doc.body.iter("p")] == ["One"]


def test_a_malformed_link_is_skipped_not_the_page() -> None:
    doc = load_document(b'<html><head><base href="http://[::1/"></head><body>'
                        b'<a href="http://hostname[:port%5D/x">bad</a><a href="/ok">ok</a>'
                        b'</body></html>', url="http://example.org/post/1")
    assert doc.links == ["http://example.org/ok"]


@pytest.mark.parametrize("forced", [None, "list", "news"])
def test_a_page_with_a_malformed_link_is_processed_whatever_its_route(forced: str | None) -> None:
    items = "".join(f'<li><a href="/post/{i}">Post number {i} of the list</a> <span>2020-01-0{i}'
                    f"</span><p>Snippet text {i} of the post.</p></li>" for i in range(1, 9))
    page = (f'<html><body><ul>{items}<li><a href="http://hostname[:port%5D/x">A post whose'
            ' link is broken</a><span>2020-01-09</span><p>Snippet.</p></li></ul>'
            '<a href="http://h[:1%5D/page/2">下一页</a></body></html>')
    result = process_document(load_document(page.encode(), url="http://example.org/list/"),
                              None, forced)
    if result.listing is not None:
        urls = [record.url for record in result.listing.records]
        assert "http://example.org/post/8" in urls and result.listing.next_page is None


def test_many_comments_after_the_end_tags_parse_at_once() -> None:
    # A lazy comment pattern repeated over trailing comments backtracked exponentially when
    # content followed them (one page took a minute).
    trailer = "".join(f"<!-- tracker {i} -->\n" for i in range(40))
    page = f"<html><body><p>Text.</p></body></html>\n{trailer}<p>After.</p>".encode()
    started = time.process_time()
    doc = load_document(page)
    assert time.process_time() - started < 1.0
    assert [p.text for p in doc.body.iter("p")] == ["Text.", "After."]
