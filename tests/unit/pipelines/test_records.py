"""Record mining (S1) on small hand-written list pages."""

from __future__ import annotations

import time
from dataclasses import asdict
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.document import load_document
from pipelines.params import RECORD_MINING, PageBoundsParams
from pipelines.records import mine_records
from pipelines.records.regions import find_regions
from pipelines.records.tree_match import TreeMatcher
from pipelines.records.tree_stats import annotate
from pipelines.results import RecordData, record_json

NOW = datetime(2023, 6, 1, 12, 0)


def _mine(html: str, url: str = "https://example.com/list/"):
    return mine_records(load_document(html.encode("utf-8"), url=url, fetched_at=NOW))


def _news_items(count: int) -> str:
    return "".join(
        f'<li class="item"><h3><a href="/news/{i}.html">Council approves budget plan number {i}'
        f'</a></h3><span class="date">2023-04-{i % 28 + 1:02d}</span>'
        f"<p>Summary of the story {i} with enough words to read like a real snippet.</p></li>"
        for i in range(count)
    )


NEWS = f"""<html><body>
<nav><ul>{''.join(f'<li><a href="/c/{i}">Sec{i}</a></li>' for i in range(8))}</ul></nav>
<div class="main"><ul class="list">{_news_items(12)}</ul></div>
<div class="sidebar most-read"><h4>Most read</h4><ol>
{''.join(f'<li><a href="/hot/{i}.html">A popular story headline {i}</a></li>' for i in range(5))}
</ol></div>
<footer><a href="/about">About</a> <a href="/contact">Contact</a></footer>
</body></html>"""


def test_main_list_beats_menu_and_most_read_box() -> None:
    data = _mine(NEWS)
    assert [r.url for r in data.records] == [
        f"https://example.com/news/{i}.html" for i in range(12)
    ]
    first = data.records[0]
    assert first.title == "Council approves budget plan number 0"
    assert first.date == datetime(2023, 4, 1)
    assert first.snippet and first.snippet.startswith("Summary of the story 0")


FORUM = """<html><body><table class="threads">
<tr><th>Thread</th><th>Author</th><th>Replies</th><th>Views</th></tr>
{rows}
</table></body></html>""".format(rows="".join(
    f'<tr><td><a href="thread.php?t={i}">Question about my laptop battery {i}</a></td>'
    f'<td><a href="user.php?u={i}">user{i}</a></td><td>{i * 3}</td><td>{i * 97 + 5}</td></tr>'
    for i in range(1, 9)
))


def test_forum_board_keeps_author_replies_views_as_extra_fields() -> None:
    data = _mine(FORUM, url="https://bbs.example.com/forum.php?f=2")
    assert len(data.records) == 8
    record = data.records[1]
    assert record.url == "https://bbs.example.com/thread.php?t=2"
    assert record.extra == {"author": "user2", "replies": "6", "views": "199"}


CHINESE = """<html><body><div class="news-list"><ul>{items}</ul></div>
<div class="pages"><span class="current">1</span><a href="?page=2">2</a>
<a href="?page=3">3</a><a href="list_2.html">下一页</a></div></body></html>""".format(items="".join(
    f'<li><a href="/a/{i}.shtml">市政府召开第{i}次常务会议研究部署重点工作</a>'
    f"<span>2023-05-01</span></li>" for i in range(10)
))


def test_chinese_list_dates_and_next_page() -> None:
    data = _mine(CHINESE, url="https://www.example.gov.cn/xw/list.html")
    assert len(data.records) == 10
    assert data.records[3].title == "市政府召开第3次常务会议研究部署重点工作"
    beijing = ZoneInfo("Asia/Shanghai")  # a .cn page's times, written without a zone
    assert all(r.date == datetime(2023, 5, 1, tzinfo=beijing) and r.date_raw == "2023-05-01"
               for r in data.records)
    assert data.next_page == "https://www.example.gov.cn/xw/list_2.html"


def test_next_page_from_page_numbers_alone() -> None:
    html = CHINESE.replace('<a href="list_2.html">下一页</a>', "")
    data = _mine(html, url="https://www.example.gov.cn/xw/list.html")
    assert data.next_page == "https://www.example.gov.cn/xw/list.html?page=2"


DEFINITIONS = """<html><body><dl class="archive">{pairs}</dl></body></html>""".format(pairs="".join(
    f'<dt><a href="/post/{i}">Notes from the river survey, part {i}</a></dt>'
    f"<dd><em>May {i + 1}, 2023</em> Field notes on water levels and {i} bird counts.</dd>"
    for i in range(6)
))


def test_records_spanning_two_sibling_elements() -> None:
    data = _mine(DEFINITIONS)
    assert [r.url for r in data.records] == [f"https://example.com/post/{i}" for i in range(6)]
    assert data.records[2].date == datetime(2023, 5, 3)
    assert data.records[2].snippet == "Field notes on water levels and 2 bird counts."


def test_two_thousand_items_are_mined_quickly() -> None:
    html = f"<html><body><ul>{_news_items(2000)}</ul></body></html>"
    doc = load_document(html.encode(), url="https://example.com/", fetched_at=NOW)
    start = time.process_time()
    data = mine_records(doc)
    # a bound against a quadratic miner (minutes), not a speed goal: bench.records measures
    # that (2 s failed at 3.4 on a loaded machine)
    assert time.process_time() - start < 8.0
    assert len(data.records) == 2000


def test_a_list_past_the_records_cap_is_cut_at_its_first_records() -> None:
    """A parent's children past max_records records of max_record_span siblings are not
    compared (a hostile list's cost), and the list keeps its first max_records records."""
    html = f"<html><body><ul>{_news_items(200)}</ul></body></html>"
    bounds = PageBoundsParams(max_records=20)
    doc = load_document(html.encode(), url="https://example.com/", fetched_at=NOW, bounds=bounds)
    body = doc.body
    [whole] = find_regions(body, annotate(body))
    [cut] = find_regions(body, annotate(body), max_records=20)
    assert len(whole.records) == 200
    assert len(cut.records) == 20 * RECORD_MINING.max_record_span
    data = mine_records(doc)
    assert [r.url for r in data.records] == [r.url for r in _mine(html).records[:20]]
    assert "records" in doc.capped


ARTICLE = """<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<h1>A quiet afternoon</h1><p>It rained all day and nobody came to the shop.</p>
<p>In the evening the sky cleared and the street filled with people again.</p>
<p>We closed late, tired but content with the small sales of the day.</p></body></html>"""


def test_page_without_a_list_yields_nothing() -> None:
    assert _mine(ARTICLE).records == []


def test_simple_tree_matching_counts_aligned_nodes() -> None:
    root = lxml.html.fromstring(
        "<div><ul><li><a>x</a></li><li><b>y</b></li></ul>"
        "<ul><li><a>x</a><i>z</i></li></ul></div>"
    )
    first, second = root
    matcher = TreeMatcher(annotate(root))
    assert matcher.stm(first, second) == 3  # ul, li, a
    assert matcher.stm(first, first) == 5


def test_a_record_s_json_holds_every_field_with_the_date_in_iso_form() -> None:
    """record_json is written field by field (for speed): it must not drop a field."""
    record = RecordData(title="标题", url="https://a.cn/1.html",
                        date=datetime(2026, 11, 21, 8, 30, tzinfo=UTC), date_raw="11-21 08:30",
                        snippet="摘要", extra={"作者": "张三"})
    expected = {**asdict(record), "date": "2026-11-21T08:30:00+00:00"}
    assert record_json(record) == expected
    assert record_json(record)["extra"] is not record.extra  # a copy, as asdict made
