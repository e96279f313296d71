"""Upserts on real PostgreSQL: a re-crawl updates, never duplicates; unchanged is skipped.
The set-wise batch is also written to SQLite, the embedded default of a first run."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from crawler.migrate import upgrade
from models import Article, Comment, CrawlRun, ListRecord, Page
from models.db import session_factory
from models.store import finish_run, save_pages, start_run, stored_details
from models.stored import FetchFacts, stored_page
from pipelines.document import load_document
from pipelines.process import process_document
from tests.factories import article_page, list_page

URL = "https://news.example.cn/2026/11/20/1.html"


def _count(sessions, model) -> int:  # type: ignore[no-untyped-def]
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(model))


def test_new_then_unchanged_then_updated(pg_url: str) -> None:
    sessions = session_factory(pg_url)
    with sessions.begin() as session:
        counts = save_pages(session, [article_page(URL)])
    assert (counts.new, counts.updated, counts.unchanged) == (1, 0, 0)
    with sessions.begin() as session:
        counts = save_pages(session, [article_page(URL)])
    assert (counts.new, counts.updated, counts.unchanged) == (0, 0, 1)
    with sessions.begin() as session:
        rewritten = article_page(URL, body="改写后的正文。", comments=("新评论",))
        counts = save_pages(session, [rewritten])
    assert (counts.new, counts.updated, counts.unchanged) == (0, 1, 0)
    assert _count(sessions, Page) == 1 and _count(sessions, Article) == 1
    with sessions() as session:
        article = session.scalars(select(Article)).one()
        assert article.body_text == "改写后的正文。"
        assert [c.text for c in article.comments if c.gone_at is None] == ["新评论"]
        assert sorted(c.text for c in article.comments if c.gone_at) == ["同意楼上。", "好文章！"]
        assert article.published_at.utcoffset() is not None


def test_replaying_the_same_batch_twice_stores_each_page_once(pg_url: str) -> None:
    sessions = session_factory(pg_url)
    batch = [article_page(f"https://a.cn/{i}.html") for i in range(5)]
    batch.append(list_page("https://a.cn/list.html", tuple(f"https://a.cn/{i}.html"
                                                           for i in range(5))))
    for _ in range(2):
        with sessions.begin() as session:
            save_pages(session, batch)
    assert _count(sessions, Page) == 6
    assert _count(sessions, Comment) == 10
    assert _count(sessions, ListRecord) == 5
    with sessions() as session:
        urls = session.scalars(select(ListRecord.url).order_by(ListRecord.position)).all()
    assert urls == [f"https://a.cn/{i}.html" for i in range(5)]


def test_duplicate_urls_within_one_batch_keep_the_last(pg_url: str) -> None:
    sessions = session_factory(pg_url)
    with sessions.begin() as session:
        batch = [article_page(URL, body="旧。"), article_page(URL, body="新。")]
        counts = save_pages(session, batch)
    assert counts.new == 1
    with sessions() as session:
        assert session.scalars(select(Article.body_text)).one() == "新。"


@pytest.fixture(params=["postgresql", "sqlite"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    upgrade(url)
    return url


def test_a_mixed_batch_keeps_each_page_its_own_children(store_url: str) -> None:
    """The batch is written set-wise: every article must still get its own comments, every
    list its own records, and an unchanged page only its new fetch facts."""
    sessions = session_factory(store_url)
    first = [article_page(f"https://a.cn/{i}.html", body=f"正文{i}。",
                          comments=tuple(f"评论{i}-{n}" for n in range(i))) for i in range(4)]
    with sessions.begin() as session:
        save_pages(session, [*first, list_page("https://a.cn/l.html", ("https://a.cn/0.html",))])
    again = article_page("https://a.cn/0.html", body="正文0。", comments=())
    again["fetched_at"], again["status"] = "2030-01-01T00:00:00+00:00", 203
    batch = [again, article_page("https://a.cn/1.html", body="改写1。", comments=("新1",)),
             article_page("https://a.cn/9.html", body="正文9。", comments=("评论9",)),
             list_page("https://a.cn/l.html", ("https://a.cn/1.html", "https://a.cn/9.html"))]
    with sessions.begin() as session:
        counts = save_pages(session, batch)
    assert (counts.new, counts.updated, counts.unchanged) == (1, 2, 1)
    with sessions() as session:
        pages = {p.url.rsplit("/", 1)[1]: p for p in session.scalars(select(Page))}
        bodies = {name: (p.article.body_text,
                         [c.text for c in p.article.comments if c.gone_at is None])
                  for name, p in pages.items() if p.article}
        records = [r.url for r in pages["l.html"].records]
        touched = pages["0.html"]
    assert bodies == {"0.html": ("正文0。", []), "1.html": ("改写1。", ["新1"]),
                      "2.html": ("正文2。", ["评论2-0", "评论2-1"]),
                      "3.html": ("正文3。", ["评论3-0", "评论3-1", "评论3-2"]),
                      "9.html": ("正文9。", ["评论9"])}
    assert records == ["https://a.cn/1.html", "https://a.cn/9.html"]
    assert touched.status == 203 and touched.fetched_at.year == 2030
    # 1.html's old comment is kept, marked gone: 7 shown, 8 stored
    assert _count(sessions, Comment) == 8 and _count(sessions, ListRecord) == 2


def test_an_unsure_list_keeps_its_records_and_its_text(pg_url: str) -> None:
    """A list the classifier was unsure of is stored with both: records and an article row
    (an article misread as a list keeps its body); a new fetch replaces both."""
    sessions = session_factory(pg_url)
    url = "https://a.cn/maybe-list.html"
    with sessions.begin() as session:
        save_pages(session, [list_page(url, ("https://a.cn/1.html",), body="正文。")])
    with sessions.begin() as session:
        save_pages(session, [list_page(url, ("https://a.cn/2.html", "https://a.cn/3.html"),
                                       body="改写后的正文。")])
    with sessions() as session:
        page = session.scalars(select(Page).where(Page.url == url)).one()
        assert page.page_type == "list" and page.article.body_text == "改写后的正文。"
        assert [r.url for r in page.records] == ["https://a.cn/2.html", "https://a.cn/3.html"]
    assert _count(sessions, Article) == 1


def test_stored_details_are_the_stored_articles_with_their_next_visit(pg_url: str) -> None:
    sessions = session_factory(pg_url)
    with sessions.begin() as session:
        save_pages(session, [article_page(URL), list_page("https://a.cn/l.html", ())])
    with sessions() as session:
        found = stored_details(session, [URL, "https://a.cn/l.html", "https://a.cn/new.html"])
    assert found == {URL: None}  # no revisit policy in the record: never due


def test_crawl_run_start_and_finish(pg_url: str) -> None:
    sessions = session_factory(pg_url)
    with sessions.begin() as session:
        run_id = start_run(session, "site", None)
    with sessions.begin() as session:
        finish_run(session, run_id, "finished", {"pages/new": 3})
    with sessions() as session:
        run = session.get(CrawlRun, run_id)
        assert run.status == "finished" and run.stats == {"pages/new": 3}
        assert run.finished_at >= run.started_at


def test_a_chinese_pages_time_is_stored_as_the_instant_it_names(pg_url: str) -> None:
    """"发布时间：2023-05-01 10:00" on a Chinese page is 02:00 UTC; written without a zone,
    PostgreSQL read it in its session's zone and stored it eight hours late."""
    html = ("<html><head><title>市场改造全面完成</title></head><body><h1>市场改造全面完成</h1>"
            "<div class='info'>发布时间：2023-05-01 10:00　来源：示例日报</div>"
            + "<p>本市的便民菜市场改造工作已经全面完成，市民买菜更加方便，指标平稳。</p>" * 4
            + "</body></html>")
    url = "https://example.com/news/1.html"
    doc = load_document(html.encode(), url=url)
    result = process_document(doc, forced_type="news")
    facts = FetchFacts(url=url, final_url=url, status=200, fetched_at=doc.fetched_at,
                       encoding="utf-8")
    sessions = session_factory(pg_url)
    with sessions.begin() as session:
        save_pages(session, [stored_page(facts, result)])
    with sessions() as session:
        stored = session.scalars(select(Article.published_at)).one()
    assert stored == datetime(2023, 5, 1, 2, 0, tzinfo=UTC)


# One instant written on three clocks; SQLite once stored each as its wall clock, offset lost.
INSTANTS = ("2022-10-30T17:05:30+08:00", "2022-10-30T17:05:30-05:00", "2022-10-30T17:05:30Z")


def _dated_batch() -> list[dict[str, object]]:
    """An article per clock (its fetch, publish and comment times on that clock) and a list
    whose records are dated on each clock in turn."""
    pages = []
    for i, when in enumerate(INSTANTS):
        page = article_page(f"https://a.cn/{i}.html", comments=("一", "二"))
        page["fetched_at"] = page["article"]["published_at"] = when
        for comment in page["article"]["comments"]:
            comment["published_at"] = when
        pages.append(page)
    listing = list_page("https://a.cn/l.html", tuple(f"https://a.cn/{i}.html"
                                                     for i in range(len(INSTANTS))))
    for record, when in zip(listing["records"], INSTANTS, strict=True):
        record["date"] = when
    return [*pages, listing]


def _is_instant(value: datetime | None, iso: str) -> bool:
    return value is not None and value.utcoffset() is not None and \
        value == datetime.fromisoformat(iso)


def test_times_read_back_as_the_instants_stored(store_url: str) -> None:
    """Pages, articles, comments, list records and crawl runs: every time comes back aware
    and the same instant, on either store."""
    sessions = session_factory(store_url)
    before = datetime.now(UTC)
    with sessions.begin() as session:
        save_pages(session, _dated_batch())
        run_id = start_run(session, "site", None)
    with sessions.begin() as session:
        finish_run(session, run_id, "finished", {})
    after = datetime.now(UTC)
    with sessions() as session:
        pages = {page.url: page for page in session.scalars(select(Page))}
        for i, when in enumerate(INSTANTS):
            page = pages[f"https://a.cn/{i}.html"]
            times = [page.fetched_at, page.first_seen_at, page.article.published_at,
                     *(comment.published_at for comment in page.article.comments)]
            assert all(_is_instant(value, when) for value in times), (when, times)
        dates = [record.date for record in pages["https://a.cn/l.html"].records]
        assert all(map(_is_instant, dates, INSTANTS)), dates
        run = session.get(CrawlRun, run_id)
        assert run.started_at.utcoffset() is not None and run.finished_at.utcoffset() is not None
        assert before <= run.started_at <= run.finished_at <= after


def test_sqlite_holds_utc_so_its_text_sorts_as_the_instants_do(tmp_path: Path) -> None:
    """A user's own SQL on the embedded file compares the stored text: it must be UTC."""
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    upgrade(url)
    with session_factory(url).begin() as session:
        save_pages(session, _dated_batch())
    with session_factory(url)() as session:
        stored = session.execute(text(
            "SELECT a.published_at FROM article a JOIN page p ON p.id = a.page_id "
            "ORDER BY p.url")).scalars().all()
    assert [value[:19] for value in stored] == [
        "2022-10-30 09:05:30", "2022-10-30 22:05:30", "2022-10-30 17:05:30"]
