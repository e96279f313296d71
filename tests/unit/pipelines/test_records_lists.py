"""Record mining on blog-theme list pages: the main list beside a large sidebar, posts shown
whole or as long excerpts, lists too short to mine, two-level archives, and every form of
the next-page link (hand-written pages)."""

from __future__ import annotations

from datetime import datetime

import pytest

from pipelines.document import load_document
from pipelines.records import mine_records

NOW = datetime(2023, 6, 1, 12, 0)
BASE = "https://blog.example.org"


def _mine(html: str, url: str = f"{BASE}/tags/rust/"):
    return mine_records(load_document(html.encode("utf-8"), url=url, fetched_at=NOW))


def _sidebar() -> str:
    """A theme's sidebar: categories, a tag cloud, monthly archives, recent posts."""
    categories = "".join(f'<li><a href="/categories/c{i}/">Category number {i} (12)</a></li>'
                         for i in range(15))
    tags = "".join(f'<a class="tag-cloud-link" href="/tags/t{i}/">tag{i}</a> ' for i in range(40))
    months = "".join(f'<li><a href="/archives/2022/{i:02d}/">2022 month {i:02d} archive</a></li>'
                     for i in range(1, 13))
    recent = "".join(f'<li><a href="/posts/recent-{i}/">A recent post that is elsewhere {i}</a>'
                     f"</li>" for i in range(8))
    return (f'<div id="secondary" class="widget-area"><section class="widget"><h4>Categories</h4>'
            f'<ul>{categories}</ul></section><section class="widget"><h4>Tags</h4>'
            f'<div class="tagcloud">{tags}</div></section><section class="widget"><h4>Archives'
            f'</h4><ul>{months}</ul></section><section class="widget"><h4>Recent posts</h4>'
            f'<ul>{recent}</ul></section></div>')


def _page(main: str, body_class: str = "archive tag type-tags") -> str:
    return (f'<html><body class="{body_class}"><header class="site-header"><h1><a href="/">'
            f'My blog</a></h1><nav><a href="/">Home</a> <a href="/about/">About</a></nav>'
            f'</header><div class="content-area"><main><h1>Tag: rust</h1>{main}</main></div>'
            f'{_sidebar()}<footer>© 2023</footer></body></html>')


def _teaser(i: int, words: int = 30) -> str:
    text = " ".join(f"word{j}" for j in range(words))
    return (f'<article class="post-{i} post type-post tag-rust tag-t{i}"><header '
            f'class="entry-header"><h2 class="entry-title"><a href="/posts/p{i}/">Post title '
            f'number {i} about things</a></h2><time>2023-0{i % 9 + 1}-1{i % 9}</time></header>'
            f'<div class="entry-content"><p>{text} <a href="https://other.example.com/x{i}">a '
            f'reference inside the excerpt</a>.</p></div></article>')


def test_tag_page_takes_its_short_list_not_the_longer_sidebar() -> None:
    data = _mine(_page("".join(_teaser(i) for i in range(4))))
    assert [r.url for r in data.records] == [f"{BASE}/posts/p{i}/" for i in range(4)]
    assert data.records[1].title == "Post title number 1 about things"
    assert data.next_page is None  # a list without pagination


def test_posts_shown_whole_or_as_long_excerpts_of_different_sizes_are_one_list() -> None:
    whole = "".join(f"<p>Paragraph {j} of the whole post, with <b>bold</b> and <i>words</i>"
                    f"</p><pre><code>line {j}</code></pre>" for j in range(12))
    main = "".join(_teaser(i).replace("</div></article>", f"{whole * (i % 3)}</div></article>")
                   + '<div class="separator"></div>' for i in range(6))
    data = _mine(_page(main, body_class="home"), url=f"{BASE}/")
    assert [r.url for r in data.records] == [f"{BASE}/posts/p{i}/" for i in range(6)]


@pytest.mark.parametrize("count", [1, 2])
def test_a_list_too_short_to_mine_is_read_from_its_linked_headings(count: int) -> None:
    data = _mine(_page("".join(_teaser(i, words=60) for i in range(count))))
    assert [r.url for r in data.records] == [f"{BASE}/posts/p{i}/" for i in range(count)]


def test_a_two_level_archive_yields_every_post_of_every_month() -> None:
    months = "".join(
        f'<div class="archive-month"><h3>2022-{m:02d}</h3><div class="month-list">'
        + "".join(f'<article class="archive-entry"><a href="/posts/{m}-{i}/">A post of month '
                  f'{m}, number {i}</a><span>2022-{m:02d}-{i + 1:02d}</span></article>'
                  for i in range(m % 3 + 2))
        + "</div></div>" for m in range(1, 7))
    main = f'<div class="archive-year"><h2>2022</h2>{months}</div>'
    data = _mine(_page(main, body_class="archives"), url=f"{BASE}/archives/")
    expected = [f"{BASE}/posts/{m}-{i}/" for m in range(1, 7) for i in range(m % 3 + 2)]
    assert [r.url for r in data.records] == expected


def _paged(pager: str, url: str) -> str | None:
    main = "".join(_teaser(i) for i in range(5)) + pager
    return _mine(_page(main, body_class="home"), url=url).next_page


@pytest.mark.parametrize(("pager", "url", "expected"), [
    # numbers only: the one after the current page
    ('<div class="pages"><a href="/page/1/">1</a><span class="current">2</span>'
     '<a href="/page/3/">3</a><a href="/page/4/">4</a></div>', "/page/2/", "/page/3/"),
    ('<div class="nav"><a href="/page/2/">Next »</a></div>', "/", "/page/2/"),
    ('<div class="nav"><a href="/page/3/">Older posts</a><a href="/page/1/">Newer posts</a>'
     "</div>", "/page/2/", "/page/3/"),
    # Pelican: the older page is class="prev" ("← Past"), the newer one class="next"
    ('<nav class="pagination"><a class="prev" href="/index4.html">&#8592; Past</a>'
     '<a class="next" href="/index2.html">Future &#8594;</a></nav>', "/index3.html",
     "/index4.html"),
    ('<nav class="pagination"><a class="prev" href="/index2.html">&#8592; Past</a></nav>',
     "/", "/index2.html"),
    ('<div class="pages"><a href="list_1.html">上一页</a><a href="list_3.html">下一页</a></div>',
     "/list_2.html", "/list_3.html"),
    ('<div class="pages"><a href="list_3.html">下页</a></div>', "/list_2.html", "/list_3.html"),
    ('<div class="pages"><a href="list_3.html">后一页</a></div>', "/list_2.html",
     "/list_3.html"),
    ('<ul class="pager"><li><a href="?p=1">‹</a></li><li><a href="?p=3">›</a></li></ul>',
     "/news?p=2", "/news?p=3"),
    ('<link rel="next" href="/page/3/"><a rel="prev" href="/page/1/">back</a>', "/page/2/",
     "/page/3/"),
])
def test_next_page_forms(pager: str, url: str, expected: str) -> None:
    assert _paged(pager, f"{BASE}{url}") == f"{BASE}{expected}"


@pytest.mark.parametrize(("pager", "url"), [
    # the last page: only the way back
    ('<nav class="pagination"><a class="next" href="/index6.html">Future &#8594;</a></nav>',
     "/index7.html"),
    # the pager has no Next link; its number link after the current one is marked Last
    ('<nav class="pagination"><a href="/page/1/" aria-label="First">1</a>'
     '<a href="/page/13/" aria-label="Previous">13</a><span class="active">14</span>'
     '<a href="/page/15/" aria-label="Last" title="Last page">15</a></nav>', "/page/14/"),
    # the latest of a post's comment pages has no number; its "« 上一页" leads to page 15
    ('<div class="nav-links"><a class="prev page-numbers" href="/about/comment-page-15/">'
     "&laquo; 上一页</a></div>", "/about/"),
])
def test_no_next_page_where_the_pager_has_none(pager: str, url: str) -> None:
    assert _paged(pager, f"{BASE}{url}") is None


def test_a_series_box_inside_an_excerpt_is_not_the_pager() -> None:
    series = ('<div class="series"><a rel="prev" href="/posts/part-1/">上一篇</a>'
              '<a rel="next" href="/posts/part-3/">下一篇</a></div>')
    main = "".join(_teaser(i).replace("</div></article>", f"{series}</div></article>")
                   for i in range(4))
    assert _mine(_page(main)).next_page is None
