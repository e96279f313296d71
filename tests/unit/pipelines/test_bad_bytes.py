"""A bad byte never loses a page (issue 24): codecs that are no character set, JSON-LD
nested past the parser's recursion limit, characters XML forbids beside removed scripts,
malformed URLs. Each input failed the page with an exception before."""

from __future__ import annotations

import encodings
import json
import pkgutil
import random
import time
from encodings.aliases import aliases

import pytest

from pipelines.document import load_document, normalise_encoding
from pipelines.pagetype.rules import match_rule
from pipelines.process import process_document
from pipelines.xml_text import xml_safe

NOT_CHARACTER_SETS = ["hex", "base64", "bz2", "zip", "zlib", "uu", "quopri", "rot13", "rot_13",
                      "idna", "punycode", "undefined", "unicode_escape", "raw_unicode_escape",
                      "utf-7", "no-such-codec"]
PROSE = "市政府召开常务会议，研究部署近期重点工作，会议强调要切实做好民生保障。"
GBK_PAGE = ('<html><head><meta charset="{charset}"><title>江城新闻</title></head><body>'
            '<h1>市政府召开会议</h1><div class="content">' + f"<p>{PROSE}</p>" * 4
            + "</div></body></html>")


@pytest.mark.parametrize("charset", NOT_CHARACTER_SETS)
@pytest.mark.parametrize("where", ["meta", "header"])
def test_a_declared_codec_that_is_no_character_set_is_ignored(charset: str, where: str) -> None:
    body = GBK_PAGE.format(charset=charset if where == "meta" else "x").encode("gbk")
    header = f"text/html; charset={charset}" if where == "header" else None
    doc = load_document(body, url="http://news.example.cn/1.html", content_type=header)
    assert doc.encoding == "gb18030"
    assert doc.tree.findtext(".//title") == "江城新闻"
    article = process_document(doc, forced_type="news").article
    assert article is not None and PROSE in article.content_text


def test_every_codec_python_knows_is_refused_or_decodes_any_bytes() -> None:
    """Whatever a page declares, decoding with the codec it maps to cannot raise."""
    names = set(aliases) | set(aliases.values()) | {
        module.name for module in pkgutil.iter_modules(encodings.__path__)}
    noise = random.Random(24).randbytes(4096)
    accepted = {name: normalise_encoding(name) for name in names}
    for codec in filter(None, accepted.values()):
        noise.decode(codec, errors="replace")
    assert accepted["gbk"] == "gb18030" and accepted["utf_8"] == "utf-8"
    assert {accepted[name] for name in NOT_CHARACTER_SETS if name in accepted} == {None}


def _json_ld_page(depth: int) -> bytes:
    nested = '{"a":' * depth + "1" + "}" * depth
    ld = ('{"@context": "https://schema.org", "@type": "NewsArticle", "headline": '
          f'"深层嵌套的标题", "about": {nested}}}')
    return (f'<html><head><script type="application/ld+json">{ld}</script></head><body>'
            + f"<p>{PROSE}</p>" * 4 + "</body></html>").encode()


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_json_ld_nested_past_the_depth_limit_is_read_loosely(depth: int) -> None:
    result = process_document(load_document(_json_ld_page(depth)), forced_type="news")
    assert result.article is not None and result.article.title == "深层嵌套的标题"
    assert PROSE in result.article.content_text


def test_json_ld_within_the_depth_limit_is_parsed() -> None:
    result = process_document(load_document(_json_ld_page(20)), forced_type="news")
    assert result.article is not None and result.article.title == "深层嵌套的标题"


def test_json_ld_escapes_of_forbidden_characters_are_dropped_from_the_fields() -> None:
    ld = json.dumps({"@type": "NewsArticle", "headline": "标题\u0000含\u0001控制\ud800字符",
                     "author": "李\u0008明"})
    page = (f'<html><head><script type="application/ld+json">{ld}</script></head><body>'
            + f"<p>{PROSE}</p>" * 4 + "</body></html>")
    article = process_document(load_document(page.encode()), forced_type="news").article
    assert article is not None and article.title == "标题含控制字符"
    assert article.author == "李明"


# Every character XML 1.0 forbids that a page can carry, raw or as a character reference.
FORBIDDEN = ([chr(c) for c in (*range(0x01, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20))]
             + ["\ufffe", "\uffff"])


def _page_with(mark: str) -> str:
    items = "".join(f'<li><a href="/n/{i}.html" title="第{mark}{i}条">'
                    f"第{i}条新闻{mark}的标题文字</a><span>2024-05-{i:02d}</span></li>"
                    for i in range(1, 13))
    return (f'<html><head><title>标题{mark}</title><style>p {{}}</style>{mark}</head>'
            f'<body><div class="content" data-x="{mark}"><p>{PROSE}</p>{mark}'
            f"<script>var a = 1;</script>{mark}<p>{PROSE}</p><style>p {{}}</style>{mark}"
            f"<noscript>x</noscript>{mark}<p>{PROSE}</p></div><ul>{items}</ul></body></html>")


@pytest.mark.parametrize("char", FORBIDDEN, ids=[f"U+{ord(c):04X}" for c in FORBIDDEN])
@pytest.mark.parametrize("spelling", ["raw", "decimal", "hex", "unterminated"])
@pytest.mark.parametrize("route", ["news", "list", None])
def test_a_character_xml_forbids_beside_a_removed_script_costs_nothing(
        char: str, spelling: str, route: str | None) -> None:
    mark = {"raw": char, "decimal": f"&#{ord(char)};", "hex": f"&#x{ord(char):x};",
            "unterminated": f"&#{ord(char)} "}[spelling]
    for body in (_page_with(mark).encode(), _page_with(mark).encode("gb18030")):
        doc = load_document(body, url="http://news.example.cn/list/")
        result = process_document(doc, forced_type=route)
        if result.article is not None:
            assert result.article.content_text.count(PROSE) == 3
            assert xml_safe(result.article.content_html) == result.article.content_html
        if result.listing is not None:
            assert len(result.listing.records) == 12


def test_xml_safe_keeps_what_xml_allows() -> None:
    allowed = "tab\tnewline\ncr\r 中文 \x7f\x85 \ue000 \U0001f600 &#10; &#13; &#x9; &#65; &#xfffd;"
    assert xml_safe(allowed) is allowed
    assert xml_safe("a\x00b\x1fc&#1;d&#x1F;e&#65535;f&#xFFFE;g\ud800h&#011;i") == "abcdefghi"
    # references that dropping others made: dropped, or U+FFFD where nested
    assert xml_safe("&\x01#1;.&&#1;#x1f;") == ".\ufffd"


@pytest.mark.parametrize("url", ["http://[::1/x", "http://hostname[:port%5D/list_1.html"])
@pytest.mark.parametrize("route", ["news", "list", None])
def test_a_page_whose_own_url_no_parser_reads_is_processed(url: str, route: str | None) -> None:
    doc = load_document(_page_with("").encode(), url=url)
    assert doc.url is None
    result = process_document(doc, doc, forced_type=route)
    assert result.article is not None or result.listing is not None


def test_a_url_of_long_hyphenated_segments_is_typed_at_once() -> None:
    """The date-archive rule backtracked for seconds on such a real press-release URL (a
    worker stalled per page); archives are still read as lists."""
    slow = ("https://www.example.de/nachrichten-und-service/presse/pressemitteilungen/artikel/"
            "detail/ein-kuenstler-gestaltet-die-titelseite-fuer-die-deutschen-zeitungen/")
    started = time.process_time()
    assert match_rule(slow) is None
    assert time.process_time() - started < 0.5
    assert match_rule("https://blog.example.org/archives/2013/05/") == ("list",
                                                                      "rule:date_archive")
    assert match_rule("https://blog.example.org/2013/03/11/2012/") is None
