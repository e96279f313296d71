"""The revisit check batches its database questions: one query in flight at a time."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from crawler.known_pages import KnownDetailPages

STORED = {"http://a.cn/1.html": "news", "http://a.cn/list/": "list", "http://a.cn/2.html": "blog"}


class FakeDatabase:
    """Answers from STORED after a delay, from a thread, and remembers every query."""

    def __init__(self, fail: bool = False) -> None:
        self.queries: list[list[str]] = []
        self.threads: set[str] = set()
        self.fail = fail

    def __call__(self, urls: list[str]) -> dict[str, str | None]:
        self.queries.append(urls)
        self.threads.add(threading.current_thread().name)
        time.sleep(0.05)
        if self.fail:
            raise ConnectionError("database gone")
        return {url: STORED[url] for url in urls if url in STORED}


def test_pages_asking_while_a_query_runs_share_the_next_query() -> None:
    database = FakeDatabase()
    known = KnownDetailPages(database)

    async def crawl() -> list[set[str]]:
        first = asyncio.ensure_future(known.among({"http://a.cn/1.html", "http://a.cn/3.html"}))
        await asyncio.sleep(0.01)  # the first query is running now
        later = [asyncio.ensure_future(known.among({f"http://a.cn/{n}.html", "http://a.cn/list/"}))
                 for n in (2, 4, 5)]
        return [await first, *await asyncio.gather(*later)]

    answers = asyncio.run(crawl())
    assert answers == [{"http://a.cn/1.html"}, {"http://a.cn/2.html"}, set(), set()]
    assert database.queries == [
        ["http://a.cn/1.html", "http://a.cn/3.html"],
        ["http://a.cn/2.html", "http://a.cn/4.html", "http://a.cn/5.html", "http://a.cn/list/"]]
    assert threading.main_thread().name not in database.threads  # the reactor never waits
    assert asyncio.run(known.among({"http://a.cn/1.html", "http://a.cn/list/"})) == {
        "http://a.cn/1.html"}
    assert len(database.queries) == 2  # remembered answers ask nothing


def test_a_failed_query_reaches_every_page_that_waited_for_it_and_is_not_remembered() -> None:
    database = FakeDatabase(fail=True)
    known = KnownDetailPages(database)

    async def ask_twice() -> list[BaseException | set[str]]:
        return await asyncio.gather(known.among({"http://a.cn/1.html"}),
                                    known.among({"http://a.cn/2.html"}), return_exceptions=True)

    answers = asyncio.run(ask_twice())
    assert all(isinstance(answer, ConnectionError) for answer in answers)
    database.fail = False
    assert asyncio.run(known.among({"http://a.cn/1.html"})) == {"http://a.cn/1.html"}


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("crawler.known_pages.MEMO_LIMIT", 1)
    database = FakeDatabase()
    known = KnownDetailPages(database)
    for url in ("http://a.cn/1.html", "http://a.cn/2.html", "http://a.cn/3.html"):
        asyncio.run(known.among({url}))
    assert asyncio.run(known.among({"http://a.cn/1.html"})) == {"http://a.cn/1.html"}
    assert len(database.queries) == 4  # the first answer was dropped with the memo


def test_a_page_cancelled_while_waiting_does_not_cancel_the_others() -> None:
    """A worker shutting down cancels the pages in its pipeline; the pages that share a
    query with one of them still get their answer, and later questions are still asked."""
    database = FakeDatabase()
    known = KnownDetailPages(database)

    async def crawl() -> tuple[set[str], set[str]]:
        doomed = asyncio.ensure_future(known.among({"http://a.cn/1.html"}))
        kept = asyncio.ensure_future(known.among({"http://a.cn/2.html"}))
        await asyncio.sleep(0.01)
        doomed.cancel()
        later = await asyncio.wait_for(known.among({"http://a.cn/1.html"}), 2)
        return await asyncio.wait_for(kept, 2), later

    assert asyncio.run(crawl()) == ({"http://a.cn/2.html"}, {"http://a.cn/1.html"})


def test_only_stored_articles_are_known_lists_and_other_pages_are_revisited() -> None:
    stored = {"http://a.cn/t.html": "forum", "http://a.cn/hub/": "other",
              "http://a.cn/list/": "list", "http://a.cn/x": None}
    known = KnownDetailPages(lambda urls: {url: stored[url] for url in urls if url in stored})
    assert asyncio.run(known.among(set(stored) | {"http://a.cn/new.html"})) == {
        "http://a.cn/t.html"}
