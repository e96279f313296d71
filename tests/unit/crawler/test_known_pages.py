"""The revisit check batches its database questions: one query in flight at a time."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from crawler.known_pages import KnownDetailPages

# Stored articles and their next visit (None: never due); lists are not among them.
STORED: dict[str, datetime | None] = {"http://a.cn/1.html": None, "http://a.cn/2.html": None}
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


class FakeDatabase:
    """Answers from STORED after a delay, from a thread, and remembers every query."""

    def __init__(self, fail: bool = False,
                 stored: dict[str, datetime | None] | None = None) -> None:
        self.stored = STORED if stored is None else stored
        self.queries: list[list[str]] = []
        self.threads: set[str] = set()
        self.fail = fail

    def __call__(self, urls: list[str]) -> dict[str, datetime | None]:
        self.queries.append(urls)
        self.threads.add(threading.current_thread().name)
        time.sleep(0.05)
        if self.fail:
            raise ConnectionError("database gone")
        return {url: self.stored[url] for url in urls if url in self.stored}


def test_pages_asking_while_a_query_runs_share_the_next_query() -> None:
    database = FakeDatabase()
    known = KnownDetailPages(database)

    async def crawl() -> list[set[str]]:
        asked = {"http://a.cn/1.html", "http://a.cn/3.html"}
        first = asyncio.ensure_future(known.among(asked, NOW))
        await asyncio.sleep(0.01)  # the first query is running now
        later = [asyncio.ensure_future(
            known.among({f"http://a.cn/{n}.html", "http://a.cn/list/"}, NOW)) for n in (2, 4, 5)]
        return [await first, *await asyncio.gather(*later)]

    answers = asyncio.run(crawl())
    assert answers == [{"http://a.cn/1.html"}, {"http://a.cn/2.html"}, set(), set()]
    assert database.queries == [
        ["http://a.cn/1.html", "http://a.cn/3.html"],
        ["http://a.cn/2.html", "http://a.cn/4.html", "http://a.cn/5.html", "http://a.cn/list/"]]
    assert threading.main_thread().name not in database.threads  # the reactor never waits
    assert asyncio.run(known.among({"http://a.cn/1.html", "http://a.cn/list/"}, NOW)) == {
        "http://a.cn/1.html"}
    assert database.queries[2:] == [["http://a.cn/list/"]]  # a stored page's answer is kept


def test_a_failed_query_reaches_every_page_that_waited_for_it_and_is_not_remembered() -> None:
    database = FakeDatabase(fail=True)
    known = KnownDetailPages(database)

    async def ask_twice() -> list[BaseException | set[str]]:
        return await asyncio.gather(known.among({"http://a.cn/1.html"}, NOW),
                                    known.among({"http://a.cn/2.html"}, NOW),
                                    return_exceptions=True)

    answers = asyncio.run(ask_twice())
    assert all(isinstance(answer, ConnectionError) for answer in answers)
    database.fail = False
    assert asyncio.run(known.among({"http://a.cn/1.html"}, NOW)) == {"http://a.cn/1.html"}


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("crawler.known_pages.MEMO_LIMIT", 1)
    database = FakeDatabase()
    known = KnownDetailPages(database)
    for url in ("http://a.cn/1.html", "http://a.cn/2.html", "http://a.cn/3.html"):
        asyncio.run(known.among({url}, NOW))
    assert asyncio.run(known.among({"http://a.cn/1.html"}, NOW)) == {"http://a.cn/1.html"}
    assert len(database.queries) == 4  # the first answer was dropped with the memo


def test_a_page_cancelled_while_waiting_does_not_cancel_the_others() -> None:
    """A worker shutting down cancels the pages in its pipeline; the pages that share a
    query with one of them still get their answer, and later questions are still asked."""
    database = FakeDatabase()
    known = KnownDetailPages(database)

    async def crawl() -> tuple[set[str], set[str]]:
        doomed = asyncio.ensure_future(known.among({"http://a.cn/1.html"}, NOW))
        kept = asyncio.ensure_future(known.among({"http://a.cn/2.html"}, NOW))
        await asyncio.sleep(0.01)
        doomed.cancel()
        later = await asyncio.wait_for(known.among({"http://a.cn/1.html"}, NOW), 2)
        return await asyncio.wait_for(kept, 2), later

    assert asyncio.run(crawl()) == ({"http://a.cn/2.html"}, {"http://a.cn/1.html"})


def test_a_stored_article_is_known_until_its_next_visit_is_due() -> None:
    due_at = NOW + timedelta(hours=1)
    stored = {"http://a.cn/t.html": due_at, "http://a.cn/old.html": None}
    database = FakeDatabase(stored=stored)
    known = KnownDetailPages(database)
    urls = set(stored) | {"http://a.cn/new.html"}
    assert asyncio.run(known.among(urls, NOW)) == {"http://a.cn/t.html", "http://a.cn/old.html"}
    assert asyncio.run(known.among(urls, NOW)) == {"http://a.cn/t.html", "http://a.cn/old.html"}
    assert database.queries[1:] == [["http://a.cn/new.html"]]  # known pages are not asked
    later = asyncio.run(known.among(urls, due_at))
    assert later == {"http://a.cn/old.html"}  # due now: fetched again; never due: skipped
    assert database.queries[2:] == [["http://a.cn/new.html", "http://a.cn/t.html"]]


def test_a_page_stored_or_revisited_since_it_was_asked_is_known_at_the_next_ask() -> None:
    """A long-lived worker: the article a run found new, or revisited, is not fetched again
    by the next run's links before its next visit is due."""
    due_at = NOW + timedelta(hours=1)
    stored: dict[str, datetime | None] = {"http://a.cn/t.html": NOW}
    known = KnownDetailPages(FakeDatabase(stored=stored))
    urls = {"http://a.cn/t.html", "http://a.cn/new.html"}
    assert asyncio.run(known.among(urls, NOW)) == set()  # due, and not stored: both fetched
    stored.update({"http://a.cn/t.html": due_at, "http://a.cn/new.html": due_at})
    assert asyncio.run(known.among(urls, NOW + timedelta(minutes=5))) == urls
