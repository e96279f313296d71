"""The shared markup table: positions, subtree spans, covered blocks and outermost finds."""

import lxml.html

from pipelines.article.boilerplate import find_noise, is_named_noise
from pipelines.article.comments import repeated_groups
from pipelines.article.markup import (
    Coverage,
    Markup,
    hint_words,
    named_rows,
    outermost,
    read_markup,
)
from pipelines.lexicon import FURNITURE_NAME

PAGE = """<html><body>
<div id="a"><p id="a1">one</p><div id="a2"><span id="a21">two</span></div></div>
<nav id="n"><ul id="n1"><li id="n11">x</li></ul></nav>
<div id="b"><p id="b1">three</p></div>
</body></html>"""


def _markup():
    body = lxml.html.document_fromstring(PAGE).find("body")
    return read_markup(body), {e.get("id"): e for e in body.iter() if e.get("id")}


def test_span_is_the_subtree_in_document_order() -> None:
    markup, by_id = _markup()
    assert markup.position(by_id["a"]) == 0
    assert markup.span(by_id["a"]) == (0, 3)  # a, a1, a2, a21
    assert markup.span(by_id["a21"]) == (3, 3)
    assert markup.position(markup.body) is None and markup.span(markup.body) is None
    assert markup.span(by_id["n11"]) == (6, 6)  # the end of the page: no element after it
    for element, *_ in markup.rows:  # as the last descendant's position says
        last = [element, *element.iterdescendants()][-1]
        assert markup.span(element) == (markup.position(element), markup.position(last))


def test_rows_below_are_the_descendants_without_the_skipped_subtrees() -> None:
    markup, by_id = _markup()
    assert [row[0] for row in markup.rows_below(by_id["a"])] == [
        by_id["a1"], by_id["a2"], by_id["a21"]]
    assert [row[0] for row in markup.rows_below(by_id["a"], {by_id["a2"], by_id["a21"]})] == [
        by_id["a1"]]
    assert markup.rows_below(by_id["a"], {by_id["b"]}) == markup.rows_below(by_id["a"])
    assert markup.rows_below(markup.body) is None


def test_coverage_covers_blocks_and_their_descendants_only() -> None:
    markup, by_id = _markup()
    coverage = Coverage(markup, [by_id["a2"], by_id["n"]])
    assert coverage.covers(by_id["a21"]) and coverage.covers(by_id["a2"])
    assert coverage.covers(by_id["n11"])
    assert not coverage.covers(by_id["a"]) and not coverage.covers(by_id["a1"])
    assert not coverage.covers(by_id["b1"]) and not coverage.covers(markup.body)
    coverage.add(by_id["a"])  # swallows the covered a2
    assert coverage.covers(by_id["a1"]) and not coverage.covers(by_id["b"])


def test_outermost_never_asks_inside_a_found_or_skipped_block() -> None:
    markup, by_id = _markup()
    asked = []

    def wanted(element) -> bool:
        asked.append(element.get("id"))
        return element.tag in ("div", "li")

    rows = [row[0] for row in markup.rows]
    found = outermost(markup, rows, wanted, skip={by_id["n"]})
    assert [e.get("id") for e in found] == ["a", "b"]
    assert asked == ["a", "b"]


def test_named_furniture_is_found_unless_it_holds_the_headline() -> None:
    body = lxml.html.document_fromstring(
        "<html><body><div class='sidebar'><h1>Title</h1><p>text</p></div>"
        "<div class='share-bar'><a>x</a></div><nav><a>y</a></nav></body></html>").find("body")
    found = find_noise(read_markup(body))
    assert [e.get("class") or e.tag for e in found] == ["share-bar", "nav"]


def test_repeated_groups_merge_alternating_classes_in_document_order() -> None:
    body = lxml.html.document_fromstring(
        "<html><body><ul><li class='c odd'>1</li><li class='c even'>2</li>"
        "<li class='c odd'>3</li><li class='other'>4</li></ul>"
        "<p class='x'>a</p><p class='y'>b</p><div>only</div></body></html>").find("body")
    markup = read_markup(body)
    groups = [[e.text for e in members] for members in repeated_groups(markup)]
    assert groups == [["1", "2", "3"]]  # 'other' and the differently named <p>s stay apart
    assert [row[0].text for row in markup.siblings[(body.find("ul"), "li")]] == ["1", "2", "3", "4"]


def test_roles_and_declared_article_bodies_are_read_with_the_markup() -> None:
    body = lxml.html.document_fromstring(
        "<html><body><div role='navigation'><a>home</a></div>"
        "<div class='sidebar'><div itemprop='articleBody'><p>story</p></div></div>"
        "<div role='main' class='promo'><p>teaser</p></div></body></html>").find("body")
    markup = read_markup(body)
    assert [row[5] for row in markup.rows if row[5]] == ["navigation", "main"]
    assert [e.get("itemprop") for e in markup.article_bodies] == ["articleBody"]
    found = find_noise(markup)  # the sidebar holds the declared body: kept
    assert [e.get("class") or e.get("role") for e in found] == ["navigation", "promo"]


def test_list_items_differing_only_by_alternation_words_are_one_shape() -> None:
    body = lxml.html.document_fromstring(
        "<html><body><ol><li class='comment even thread-even depth-1'>a</li>"
        "<li class='comment odd thread-odd depth-1 bypostauthor comment-author-x'>b</li>"
        "<li class='comment even thread-even depth-2'>c</li></ol></body></html>").find("body")
    groups = [[e.text for e in members] for members in repeated_groups(read_markup(body))]
    assert groups == [["a", "b", "c"]]  # digits, odd/even, thread-*, *author* ignored


def test_the_table_answers_hint_words_under_body_and_reads_them_elsewhere() -> None:
    root = lxml.html.document_fromstring(
        "<html><body class='page'><div class='postBody' id='main'><p>x</p></div></body></html>")
    body = root.find("body")
    markup = read_markup(body)
    div = body.find("div")
    assert markup.words(div) == hint_words(div) == "post Body main"
    assert markup.words(body.find(".//p")) == ""
    assert markup.words(body) == "page "  # <body> is not a row: read from the element


def test_named_rows_keep_document_order_and_leave_out_tags() -> None:
    body = lxml.html.document_fromstring(
        '<html><body><div class="menu"><p class="menu">a</p></div><main class="menu">b</main>'
        '<span itemprop="author">c</span></body></html>').find("body")
    markup = read_markup(body)
    rows = named_rows(markup, ["menu "], ("main",))
    assert [row[2] for row in rows] == ["div", "p"]
    assert [e.tag for e in markup.authors] == ["span"]


def test_named_noise_reads_the_same_off_the_table_as_off_the_element() -> None:
    body = lxml.html.document_fromstring(
        '<html><body><div role="navigation"><p>a</p></div><div class="shareBar">b</div>'
        '<div id="main-story" class="x">c</div></body></html>').find("body")
    markup = read_markup(body)
    elements = list(body.iter())
    assert [is_named_noise(e) for e in elements] == [is_named_noise(e, markup) for e in elements]
    assert [is_named_noise(e, markup) for e in elements] == [False, True, False, True, False]


def test_names_where_answers_as_one_search_per_name() -> None:
    """The joined search finds exactly the names a search of " " + each name finds: no
    match runs from one name into the next, and each is reported once, in page order."""
    names = ["xnav", "a nav", "nav-x", "adx", "slot", "top-ad-slot", "İnav Nav", "menu2",
             "sub\nmenu", "", " ", "NAVBAR", "ad", "sidebar\n", "x\tfooter y"]
    body = lxml.html.document_fromstring("<html><body></body></html>").find("body")
    markup = Markup(body, [], named={name: [] for name in names})
    expected = [name for name in names if FURNITURE_NAME.search(" " + name.lower())]
    assert markup.names_where(FURNITURE_NAME) == expected
    assert "adx" not in expected and "top-ad-slot" in expected


def test_names_holding_answers_as_one_test_per_name() -> None:
    """Each name holding a part is reported once, in page order, with its lowercased words,
    however often the parts stand in it and in the names before it."""
    names = ["comment", "x", "Comment-1 comment-2", "", "talk", "评论区", "no", "talkcomment",
             "a comment" * 50, "COMMENT"]
    body = lxml.html.document_fromstring("<html><body></body></html>").find("body")
    markup = Markup(body, [], named={name: [] for name in names})
    parts = ("comment", "talk", "评论")
    expected = [(name, name.lower()) for name in names
                if any(part in name.lower() for part in parts)]
    assert markup.names_holding(parts) == expected
    assert markup.names_holding(()) == []
