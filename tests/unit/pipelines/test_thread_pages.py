"""A forum thread's next page, and which of its links are its later pages."""

from __future__ import annotations

from pipelines import later_thread_pages, load_document
from pipelines.article.thread_pages import thread_next_page


def _thread(url: str, pager: str) -> str | None:
    html = f"<html><body><h1>讨论</h1><div class=pager>{pager}</div><p>正文</p></body></html>"
    return thread_next_page(load_document(html.encode(), url=url))


def test_the_next_page_is_taken_only_where_the_page_numbers_go_forward() -> None:
    pager = '<b>1</b> <a href="/t/7?page=2">2</a> <a class="next" href="/t/7?page=2">下一页</a>'
    assert _thread("http://a.cn/t/7", pager) == "http://a.cn/t/7?page=2"
    assert _thread("http://a.cn/t/7?page=2",
                   '<a href="/t/7">1</a> <b>2</b>') is None  # the last page
    assert _thread("http://a.cn/t/7.html", '<a href="/t/8.html">下一篇</a>') is None


def test_the_pager_s_later_pages_are_reached_through_next_pages_not_as_links() -> None:
    links = ["http://a.cn/t/7?page=2", "http://a.cn/t/7?page=3", "http://a.cn/t/7?page=9",
             "http://a.cn/t/8", "http://a.cn/t/8?page=3", "http://a.cn/news/1.html"]
    later = later_thread_pages("http://a.cn/t/7", "http://a.cn/t/7?page=2", links)
    assert later == {"http://a.cn/t/7?page=3", "http://a.cn/t/7?page=9"}
