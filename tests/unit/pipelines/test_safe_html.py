"""Stored article HTML is safe to show: published XSS vectors leave no active content, and
the article's own structure (code, tables, figures, lists, quotes, headings, links) stays."""

from __future__ import annotations

import lxml.html
import pytest

from pipelines.article.body.render import to_html
from pipelines.safe_html import sanitise, url_scheme
from tests.xss import PAYLOADS, PAYLOADS_FILE, problems


def test_the_payload_list_is_a_published_one_of_some_size() -> None:
    assert len(PAYLOADS) >= 100
    assert "cheatsheetseries.owasp.org" in PAYLOADS_FILE.read_text(encoding="ascii")


@pytest.mark.parametrize("payload", PAYLOADS)
def test_no_payload_survives_the_sanitiser(payload: str) -> None:
    assert problems(sanitise(payload)) == []


@pytest.mark.parametrize("payload", PAYLOADS)
def test_no_payload_survives_the_body_html(payload: str) -> None:
    """The route's own path: libxml2's tree of the page, copied and serialised, sanitised."""
    content = lxml.html.fragment_fromstring(payload, create_parent="div")
    assert problems(to_html([content])) == []


def test_the_checker_sees_the_variants_of_the_issue() -> None:
    """The test's own reading finds what the crawler stored before (a test that cannot fail
    is no test)."""
    for unsafe in ('<a href="  javascript:alert(1)">x</a>', '<a href="&#32;javascript:x">x</a>',
                   '<a href="\njavascript:x">x</a>', '<a href="vbscript:x">x</a>',
                   '<a href="data:text/html,x">x</a>', '<base href="http://evil.example/">',
                   '<img src="mailto:a@b.c">', '<p onclick="x">p</p>'):
        assert problems(unsafe), unsafe


def test_whitespace_and_references_before_a_scheme_are_read_as_a_browser_reads_them() -> None:
    assert url_scheme(" \n\x01javascript:x") == "javascript"
    assert url_scheme("java\tscr\nipt:x") == "javascript"
    assert url_scheme("/a/b.html") is None
    assert url_scheme("HTTPS://x.example/") == "https"


def test_code_blocks_keep_their_text_and_line_breaks() -> None:
    code = "def f(x):\n    return x < 1 && y > 2\n\n\tindented"
    html = to_html([lxml.html.fragment_fromstring(
        "<div><pre><code>def f(x):\n    return x &lt; 1 &amp;&amp; y &gt; 2\n\n\tindented"
        "</code></pre></div>")])
    assert lxml.html.fragment_fromstring(html).find(".//code").text == code


def test_a_blank_first_line_of_a_code_block_stays() -> None:
    page = lxml.html.fragment_fromstring("<div><pre>\n\nline two\n</pre></div>")
    html = to_html([page])
    assert html == "<div><pre>\n\nline two\n</pre></div>"


def test_the_article_structure_stays() -> None:
    article = ("<div><h2>Heading</h2><p>A <a href=\"https://ok.example/x\">link</a>, a "
               "<a href=\"/relative/y.html\">relative one</a> and "
               "<a href=\"mailto:desk@ok.example\">mail</a>.</p>"
               "<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>"
               "<blockquote><p>quoted</p></blockquote>"
               "<table><thead><tr><th colspan=\"2\">head</th></tr></thead>"
               "<tbody><tr><td rowspan=\"2\">cell</td><td>c</td></tr></tbody></table>"
               "<figure><img src=\"https://ok.example/a.png\" alt=\"photo\">"
               "<figcaption>caption</figcaption></figure>"
               "<p><img src=\"/img/b.png\" alt=\"relative\"><time datetime=\"2024-01-02\">"
               "Jan 2</time></p></div>")
    assert to_html([lxml.html.fragment_fromstring(article)]) == article


def test_what_is_dropped_keeps_its_text() -> None:
    html = to_html([lxml.html.fragment_fromstring(
        '<div><p class="x" style="color:red" onclick="x()">kept <font color=red>text</font>'
        '<a href="javascript:x()">link text</a></p></div>')])
    assert html == "<div><p>kept text<a>link text</a></p></div>"


def test_images_load_over_the_web_only() -> None:
    assert sanitise('<img src="mailto:a@b.example" alt="a">') == '<img alt="a">'
    assert sanitise('<img src="data:image/png;base64,AAAA" alt="a">') == '<img alt="a">'
