"""Articles written from changed pages: one row per page, kept across fetches, with its
earlier text kept as a version and its comments merged by identity (models/comments.py).

A later page of a paginated thread has no article of its own: its posts (its first post
included) are comments of the thread's article, numbered by the thread page they are on.
The crawl tells which pages are a thread's later pages (reached through the thread's next
page, or read as one by the extraction, pipelines.article.thread_pages, which then reads
every post as a reply already). Where the thread's first page is not stored, the page
stands as an article of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from models.comments import CommentMerge
from models.page import Article, ArticleVersion, Page
from models.stored import to_datetime

_ARTICLES, _VERSIONS = Article.__table__, ArticleVersion.__table__
_FIELDS = ("title", "author", "source", "published_at", "published_raw", "language",
           "body_text", "body_html")


def _fields(article: dict[str, Any]) -> dict[str, Any]:
    return {"title": article.get("title"), "author": article.get("author"),
            "source": article.get("source"),
            "published_at": to_datetime(article.get("published_at")),
            "published_raw": article.get("published_raw"), "language": article.get("language"),
            "body_text": article.get("body_text", ""), "body_html": article.get("body_html", "")}


def _later_thread_page(page: dict[str, Any]) -> bool:
    return bool(page.get("article") and page.get("thread_url")
                and (page.get("thread_page") or 1) > 1)


def _posts(article: dict[str, Any]) -> list[dict[str, Any]]:
    """A later thread page's posts as comments of the thread: its first post too, where the
    extraction read it as the page's body (a page it did not know for a later page)."""
    comments = article.get("comments") or []
    if not article.get("body_text"):
        return comments
    return [{"text": article["body_text"], "author": article.get("author"),
             "published_at": article.get("published_at"), "anchor": article.get("post_anchor")},
            *comments]


def save_articles(session: Session, ids: dict[str, int],
                  pages: Sequence[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Write the articles of changed pages; per URL, how many versions and comments were
    new and how many comments went."""
    events: dict[str, Counter[str]] = {page["url"]: Counter() for page in pages}
    later = [page for page in pages if _later_thread_page(page)]
    owned = _save_own(session, ids, [p for p in pages if p.get("article") and p not in later],
                      events)
    threads = _thread_articles(session, later)  # a first page of this batch is written now
    owned.update(_save_own(session, ids, [p for p in later if p["thread_url"] not in threads],
                           events))
    _drop_articles(session, [ids[p["url"]] for p in pages if p["url"] not in owned])
    merge = CommentMerge(session, [*owned.values(), *threads.values()])
    for page in pages:
        fetched_at = to_datetime(page["fetched_at"])
        number = page.get("thread_page") or 1
        later_page = _later_thread_page(page)
        if page["url"] in owned:
            article = page["article"]
            comments = _posts(article) if later_page else article.get("comments") or []
            found = merge.merge(owned[page["url"]], number, comments, fetched_at)
        elif later_page:
            found = merge.merge(threads[page["thread_url"]], number, _posts(page["article"]),
                                fetched_at)
        else:
            continue
        events[page["url"]].update({f"comments/{name}": n for name, n in found.items()})
    merge.write()
    return events


def _thread_articles(session: Session, pages: Sequence[dict[str, Any]]) -> dict[str, int]:
    """The article id of each stored thread's first page these later pages belong to."""
    urls = sorted({page["thread_url"] for page in pages})
    if not urls:
        return {}
    return dict(session.execute(select(Page.url, Article.id)
                                .join(Article, Article.page_id == Page.id)
                                .where(Page.url.in_(urls))).all())


def _drop_articles(session: Session, page_ids: list[int]) -> None:
    if page_ids:
        session.execute(delete(Article).where(Article.page_id.in_(page_ids)))


def _save_own(session: Session, ids: dict[str, int], pages: Sequence[dict[str, Any]],
              events: dict[str, Counter[str]]) -> dict[str, int]:
    """Insert or update each page's article; a changed body first becomes a version.
    Returns the article id of each page's URL."""
    if not pages:
        return {}
    by_page = {ids[page["url"]]: page for page in pages}
    columns = (Article.id, Article.page_id, Article.body_seen_at,
               *(getattr(Article, name) for name in _FIELDS))
    stored = {row.page_id: row for row in session.execute(
        select(*columns).where(Article.page_id.in_(list(by_page))))}
    versions, updates, inserts = [], [], []
    for page_id, page in by_page.items():
        fields = _fields(page["article"])
        fetched_at = to_datetime(page["fetched_at"])
        old = stored.get(page_id)
        if old is None:
            inserts.append({"page_id": page_id, **fields, "body_seen_at": fetched_at})
            continue
        seen_at = old.body_seen_at
        if old.body_text != fields["body_text"]:
            versions.append({"article_id": old.id, "title": old.title,
                             "body_text": old.body_text, "body_html": old.body_html,
                             "seen_at": old.body_seen_at, "replaced_at": fetched_at})
            events[page["url"]]["versions/new"] += 1
            seen_at = fetched_at
        updates.append({"id": old.id, **fields, "body_seen_at": seen_at})
    if versions:
        session.execute(insert(_VERSIONS), versions)
    if updates:
        session.execute(update(Article), updates)
    found = {page_id: row.id for page_id, row in stored.items()}
    if inserts:
        found.update(session.execute(
            insert(_ARTICLES).returning(_ARTICLES.c.page_id, _ARTICLES.c.id), inserts).all())
    return {page["url"]: found[page_id] for page_id, page in by_page.items()}
