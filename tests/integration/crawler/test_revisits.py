"""Revisits of stored articles, end to end: real crawls of a local site whose comments,
bodies and thread pages change between runs, into real PostgreSQL."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from models import Article, ArticleVersion, Comment, Page, Source
from models.db import session_factory
from tests.crawling import latest_run_stats, run_crawl
from tests.revisit_site import PARAGRAPH, RevisitSite, Served, news_page, thread_page, thread_url
from tests.revisit_site import Comment as Said

RULES = [{"pattern": "/news/", "type": "news"}, {"pattern": "/thread/", "type": "forum"}]
# Every stored article is due again a second after each visit, changed or not.
ALWAYS_DUE = {"REVISIT_MIN_INTERVAL": 1, "REVISIT_BACKOFF": 1}


def _root() -> Served:
    return Served('<html><body><a href="/news/1.html">城市更新一</a> '
                  '<a href="/news/2.html">城市更新二</a> <a href="/thread/7">讨论</a>'
                  "</body></html>")


def _source(url: str, site: RevisitSite, settings: dict[str, Any]) -> None:
    with session_factory(url).begin() as session:
        session.add(Source(name="revisits", start_urls=[site.url + "/"], allowed_domains=[],
                           max_depth=2, page_type_rules=RULES, settings=settings))


def _crawl(url: str, journal: Path) -> dict[str, Any]:
    done = run_crawl(None, url, journal, "-a", "source=revisits")
    assert done.returncode == 0, done.stderr[-3000:]
    assert " ERROR: " not in done.stderr, done.stderr[-3000:]
    return latest_run_stats(url)


def _comments(url: str, path: str, site: RevisitSite) -> list[Comment]:
    """The article's comment rows in their stored order, gone ones included."""
    with session_factory(url)() as session:
        page = session.scalars(select(Page).where(Page.url == site.url + path)).one()
        return list(page.article.comments)


def _shown(comments: list[Comment]) -> list[str]:
    return [c.text for c in comments if c.gone_at is None]


def _rows(url: str) -> list[tuple[Any, ...]]:
    """Every article, version and comment row, whole: what a write would change."""
    with session_factory(url)() as session:
        return [tuple(getattr(row, column.key) for column in type(row).__table__.columns)
                for model in (Article, ArticleVersion, Comment)
                for row in session.scalars(select(model).order_by(model.id))]


NEWS_ONE = [Said("张三", "2026-11-20 10:00", "我觉得这个改造很好，希望继续推进。", "comment-11"),
            Said("李四", "2026-11-20 11:00", "我们小区什么时候能改造？等了好久了。", "comment-12"),
            Said("王五", "2026-11-20 12:00", "停车问题也要解决一下才行啊。", "comment-13")]
NEWS_TWO = [Said("赵六", "2026-11-21 08:00", "支持政府的这项工作，做得很实在。"),
            Said("钱七", "2026-11-21 09:00", "加装电梯的进度能不能快一点？"),
            Said("孙八", "2026-11-21 10:00", "老城区的管网也该换一换了。")]
POSTS = [Said(f"用户{n}", f"2026-11-2{n} 10:0{n}", f"这是第{n}楼的回复内容，说说我的看法和意见。",
              f"post_{n}") for n in range(1, 8)]


def _publish_first_edition(site: RevisitSite) -> None:
    site.pages.update({
        "/": _root(),
        "/news/1.html": Served(news_page("城市更新行动一", PARAGRAPH, NEWS_ONE), etag=True),
        "/news/2.html": Served(news_page("城市更新行动二", PARAGRAPH, NEWS_TWO)),
        thread_url(1): Served(thread_page(1, 2, POSTS[:2])),
        thread_url(2): Served(thread_page(2, 2, POSTS[2:4]))})


def _publish_second_edition(site: RevisitSite) -> None:
    """News one: comments reordered, one edited, one deleted, one new (all with ids). News
    two: its body rewritten, a comment deleted and one added (no ids). The thread: a
    new post on its last page, and a third page (of two posts: a page of one post is read
    as an article, not as posts)."""
    edited = Said("张三", "2026-11-20 10:00", "我觉得这个改造很好，希望继续推进。（已编辑）",
                  "comment-11")
    new = Said("周九", "2026-11-22 10:00", "我家楼下终于开始施工了。", "comment-14")
    later = Said("吴十", "2026-11-22 11:00", "希望施工期间注意噪音。")
    site.pages.update({
        "/news/1.html": Served(news_page("城市更新行动一", PARAGRAPH, [NEWS_ONE[2], edited, new]),
                               etag=True),
        "/news/2.html": Served(news_page("城市更新行动二", "更正：" + PARAGRAPH,
                                         [*NEWS_TWO[1:], later])),
        thread_url(1): Served(thread_page(1, 3, POSTS[:2])),
        thread_url(2): Served(thread_page(2, 3, POSTS[2:5])),
        thread_url(3): Served(thread_page(3, 3, POSTS[5:7]))})


def test_revisits_store_each_comment_once_keep_versions_and_follow_thread_pages(
        pg_url: str, tmp_path: Path) -> None:
    with RevisitSite() as site:
        _source(pg_url, site, ALWAYS_DUE)
        _publish_first_edition(site)
        first = _crawl(pg_url, tmp_path)
        assert "revisits/fetched" not in first
        thread = _comments(pg_url, thread_url(1), site)
        assert [(c.text[:4], c.page_number) for c in thread] == [
            ("这是第2", 1), ("这是第3", 2), ("这是第4", 2)]
        assert len(_comments(pg_url, "/news/1.html", site)) == 3
        with session_factory(pg_url)() as session:
            second_page = session.scalars(select(Page).where(
                Page.url == site.url + thread_url(2))).one()
            assert (second_page.thread_url, second_page.thread_page) == (
                site.url + thread_url(1), 2)
            assert second_page.article is None  # its posts are the thread's comments

        _publish_second_edition(site)
        time.sleep(1.1)
        second = _crawl(pg_url, tmp_path)
        one = _comments(pg_url, "/news/1.html", site)
        assert _shown(one) == ["停车问题也要解决一下才行啊。",
                               "我觉得这个改造很好，希望继续推进。（已编辑）",
                               "我家楼下终于开始施工了。"]
        assert len(one) == 4  # the deleted one is kept, marked gone
        assert [c.text[:4] for c in one if c.gone_at] == ["我们小区"]
        assert [c.text[-5:] for c in one if c.edited_at] == ["（已编辑）"]
        two = _comments(pg_url, "/news/2.html", site)
        assert _shown(two) == [c.text for c in NEWS_TWO[1:]] + ["希望施工期间注意噪音。"]
        assert [c.text for c in two if c.gone_at] == [NEWS_TWO[0].text]
        thread = _comments(pg_url, thread_url(1), site)
        assert [(c.text[:4], c.page_number) for c in thread] == [
            ("这是第2", 1), ("这是第3", 2), ("这是第4", 2), ("这是第5", 2), ("这是第6", 3),
            ("这是第7", 3)]
        with session_factory(pg_url)() as session:
            versions = session.scalars(select(ArticleVersion)).all()
            assert [PARAGRAPH[:10] in v.body_text and "更正" not in v.body_text
                    for v in versions] == [True]
            assert "更正：" in versions[0].article.body_text
            assert versions[0].replaced_at == versions[0].article.body_seen_at
        assert (second["comments/new"], second["comments/gone"], second["versions/new"]) == (
            5, 2, 1)
        # due: both news pages, the thread's first page and its last known page (page 2);
        # page 3 is new, found from page 2. The first page's new pager changed its bytes
        # but not what is extracted from it.
        assert (second["revisits/fetched"], second["revisits/changed"],
                second["revisits/unchanged"]) == (4, 3, 1)

        time.sleep(1.1)
        before = _rows(pg_url)
        hashes = _page_hashes(pg_url)
        page_two_hits = site.hits[thread_url(2)]
        third = _crawl(pg_url, tmp_path)
        assert _rows(pg_url) == before  # nothing extracted, nothing written but the schedule
        assert _page_hashes(pg_url) == hashes
        assert site.not_modified["/news/1.html"] == 1  # the ETag was sent back: a 304
        assert third["revisits/304"] == 1
        # news two, the thread's first and last page: the same bytes, not extracted
        assert third["revisits/unchanged"] == 3 and "revisits/changed" not in third
        assert site.hits[thread_url(2)] == page_two_hits  # a full page is not revisited

        for _ in range(2):
            time.sleep(1.1)
            _crawl(pg_url, tmp_path)
    with session_factory(pg_url)() as session:
        comments = session.scalars(select(Comment)).all()
        assert len(comments) == 4 + 4 + 6  # zero duplicates after four revisits
        assert len({(c.article_id, c.text) for c in comments}) == len(comments)


def _page_hashes(url: str) -> dict[str, tuple[str, str | None]]:
    """Each page's content hash and the hash of the body a revisit compares with."""
    with session_factory(url)() as session:
        return {url: (content, body) for url, content, body in session.execute(
            select(Page.url, Page.content_hash, Page.body_hash))}


def test_a_source_sets_its_own_revisit_interval(pg_url: str, tmp_path: Path) -> None:
    with RevisitSite() as site:
        _source(pg_url, site, {"REVISIT_MIN_INTERVAL": 3600})
        _publish_first_edition(site)
        _crawl(pg_url, tmp_path)
        second = _crawl(pg_url, tmp_path)
    assert site.hits["/"] == 2 and site.hits["/news/1.html"] == 1  # not due for an hour
    assert "revisits/fetched" not in second
    with session_factory(pg_url)() as session:
        pages = {p.url.removeprefix(site.url): p for p in session.scalars(select(Page))}
    news = pages["/news/1.html"]
    assert news.revisit_seconds == 3600
    assert news.next_visit_at == news.fetched_at + timedelta(seconds=3600)
    assert pages["/"].next_visit_at is None  # a start page is fetched every run anyway
    assert pages[thread_url(2)].next_visit_at is not None  # the thread's last page
    assert pages[thread_url(1)].next_visit_at is not None


def test_a_thread_s_later_page_reached_directly_keeps_its_posts_as_comments(
        pg_url: str, tmp_path: Path) -> None:
    """Page 2 of a thread as the crawl's only page (no next page led there): its pager tells
    the thread, so its first post is no body but a comment like the others, and the page
    row names the thread's first page (a later crawl that stores it merges them)."""
    with RevisitSite() as site:
        site.pages.update({thread_url(1): Served(thread_page(1, 2, POSTS[:2])),
                           thread_url(2): Served(thread_page(2, 2, POSTS[2:4]))})
        with session_factory(pg_url).begin() as session:
            session.add(Source(name="revisits", start_urls=[site.url + thread_url(2)],
                               allowed_domains=[], max_depth=0, page_type_rules=RULES,
                               settings={}))
        _crawl(pg_url, tmp_path)
        with session_factory(pg_url)() as session:
            page = session.scalars(select(Page).where(Page.url == site.url + thread_url(2))).one()
            assert (page.thread_url, page.thread_page) == (site.url + thread_url(1), 2)
            assert page.article.body_text == ""
            assert [c.text[:4] for c in page.article.comments] == ["这是第3", "这是第4"]
