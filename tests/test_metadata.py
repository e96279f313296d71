"""Metadata: declared values (JSON-LD, meta) beat the page; the page fills the gaps."""

from datetime import UTC, datetime, timedelta

import lxml.html

from pipelines.metadata import detect_language, extract_metadata, strip_site_name

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)
JSON_LD = """<script type="application/ld+json">{"@context": "https://schema.org",
 "@graph": [{"@type": "WebSite", "name": "Example Site"},
  {"@type": "NewsArticle", "headline": "Declared headline",
   "author": [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chen"}],
   "datePublished": "2023-05-01T10:00:00+08:00"}]}</script>"""
PAGE = """<html lang="en"><head><title>Page headline | Example Site</title>{head}</head>
<body><h1>Page headline</h1><p class="byline">By Carl Diaz</p>
<p>Posted 2 May 2023</p><p>Text.</p></body></html>"""


def _meta(html: str, url: str | None = None):
    tree = lxml.html.document_fromstring(html)
    return extract_metadata(tree, tree.find("body"), url, NOW)


def test_json_ld_beats_the_page() -> None:
    meta = _meta(PAGE.format(head=JSON_LD))
    assert meta.author == "Ann Lee; Bo Chen"
    assert meta.published_at.utcoffset() == timedelta(hours=8)
    assert meta.published_at.day == 1


def test_page_fills_in_without_structured_data() -> None:
    meta = _meta(PAGE.format(head=""))
    assert meta.title == "Page headline"
    assert meta.author == "Carl Diaz"
    assert meta.language == "en"


def test_open_graph_and_meta_tags() -> None:
    head = ('<meta property="og:title" content="OG headline - Example Site">'
            '<meta name="author" content="Dee Evans">'
            '<meta property="article:published_time" content="2023-04-30T22:00:00Z">')
    html = PAGE.format(head=head).replace("<h1>Page headline</h1>", "")
    meta = _meta(html)
    assert meta.title == "OG headline"
    assert meta.author == "Dee Evans"
    assert meta.published_at == datetime(2023, 4, 30, 22, 0, tzinfo=UTC)


def test_site_name_suffixes_are_stripped() -> None:
    assert strip_site_name("经济运行总体平稳 - 新浪新闻") == "经济运行总体平稳"
    assert strip_site_name("武汉的声音：有英勇的你！-新华网") == "武汉的声音：有英勇的你！"
    assert strip_site_name("A long headline here | Site") == "A long headline here"


def test_language_from_script_and_stopwords() -> None:
    assert detect_language("今天，本市召开新闻发布会，介绍经济运行情况。" * 3) == "zh"
    assert detect_language("Der Rat hat die Pläne nicht mit der Stadt und den Bürgern") == "de"
