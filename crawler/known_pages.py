"""Which linked URLs are already stored as detail pages: a revisit does not fetch them again.

The database is asked from a thread, so the reactor keeps fetching and extracting
meanwhile, and in batches: while one query runs, the URLs of every page that asks in the
meantime wait for the next query together, so a busy worker pays no round trip per page
(see docs/DECISIONS.md, "Stored-page checks in batches").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from functools import partial

from pipelines import ARTICLE_TYPES

# Per-worker memos (requested URLs, stored-detail answers) are dropped past this size.
MEMO_LIMIT = 500_000


class KnownDetailPages:
    """Answers 'which of these URLs are stored articles (news, blog, forum threads)?',
    remembered for the worker's life (up to MEMO_LIMIT), one database query in flight at a
    time. A revisit skips those; lists and 'other' pages (a hub the classifier was unsure
    of, a forum's index of boards) are fetched again, since new articles appear there."""

    def __init__(self, stored_types: Callable[[list[str]], dict[str, str | None]]) -> None:
        self._stored_types = stored_types  # runs in a thread: touches nothing but the database
        self._known: dict[str, bool] = {}
        self._next: set[str] = set()  # asked while a query runs: the next query's URLs
        self._next_answer: asyncio.Future[None] | None = None
        self._querying = False

    async def among(self, urls: Iterable[str]) -> set[str]:
        """The URLs that are stored detail pages. Raises the database's error, if any, to
        every page that waited for the failed query."""
        urls = set(urls)
        unasked = {url for url in urls if url not in self._known}
        if unasked:  # shielded: a page cancelled while waiting cancels no other page's answer
            await asyncio.shield(self._ask(unasked))
        return {url for url in urls if self._known.get(url)}

    def _ask(self, urls: set[str]) -> asyncio.Future[None]:
        if self._next_answer is None:
            self._next_answer = asyncio.get_running_loop().create_future()
        self._next |= urls
        answer = self._next_answer
        if not self._querying:
            self._query()
        return answer

    def _query(self) -> None:
        urls, answer = sorted(self._next), self._next_answer
        assert answer is not None  # URLs and the future that answers them come together
        self._next, self._next_answer, self._querying = set(), None, True
        query = asyncio.get_running_loop().run_in_executor(None, self._stored_types, urls)
        query.add_done_callback(partial(self._answered, urls=urls, answer=answer))

    def _answered(self, query: asyncio.Future[dict[str, str | None]], urls: list[str],
                  answer: asyncio.Future[None]) -> None:
        self._querying = False
        error = query.exception()
        if error is not None:
            answer.set_exception(error)
        else:
            if len(self._known) > MEMO_LIMIT:  # a long-lived worker must not grow for ever
                self._known.clear()
            stored = query.result()
            for url in urls:
                self._known[url] = stored.get(url) in ARTICLE_TYPES
            answer.set_result(None)
        if self._next:
            self._query()
