"""Which linked URLs are stored detail pages not yet due for a revisit: a run does not fetch
them again (due ones it does: crawler/revisits.py).

The database is asked from a thread, so the reactor keeps fetching and extracting
meanwhile, and in batches: while one query runs, the URLs of every page that asks in the
meantime wait for the next query together, so a busy worker pays no round trip per page
(see docs/DECISIONS.md, "Stored-page checks in batches").
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial

# Per-worker memos (requested URLs, stored-detail answers) are dropped past this size.
MEMO_LIMIT = 500_000
_NOT_STORED = object()


class KnownDetailPages:
    """Answers 'which of these URLs are stored articles (news, blog, forum threads) not due
    for a revisit at this time?', one database query in flight at a time. A run skips those;
    lists and 'other' pages (a hub the classifier was unsure of, a forum's index of boards) are
    fetched again, since new articles appear there.

    A page's next visit is remembered (up to MEMO_LIMIT pages) only until it is due: an
    answer "not stored" or "due" is asked again, since the page may have been stored or
    revisited (and rescheduled) since. A long-lived cluster worker that kept such answers
    fetched every article it had once found due, or new, again in every later run (the live
    demo: each article on every 5-minute cycle; docs/BENCHMARKS.md, "Freshness"). Within a
    run the run's own seen-set keeps a URL from being asked twice.

    `stored_details` answers with the stored articles among some URLs and their next visit
    (None: never)."""

    def __init__(self,
                 stored_details: Callable[[list[str]], dict[str, datetime | None]]) -> None:
        self._stored_details = stored_details  # runs in a thread: touches only the database
        self._due: dict[str, float] = {}  # POSIX time each URL is due from (-inf: not stored)
        self._next: set[str] = set()  # asked while a query runs: the next query's URLs
        self._next_answer: asyncio.Future[None] | None = None
        self._querying = False

    async def among(self, urls: Iterable[str], now: datetime) -> set[str]:
        """The URLs that are stored detail pages not due at `now`. Raises the database's
        error, if any, to every page that waited for the failed query."""
        urls, moment = set(urls), now.timestamp()
        unasked = {url for url in urls if self._due.get(url, -math.inf) <= moment}
        if unasked:  # shielded: a page cancelled while waiting cancels no other page's answer
            await asyncio.shield(self._ask(unasked))
        return {url for url in urls if self._due.get(url, -math.inf) > moment}

    @property
    def busy(self) -> bool:
        """A query is in flight (one that hangs, in a partition, stays so)."""
        return self._querying

    def _ask(self, urls: set[str]) -> asyncio.Future[None]:
        if self._next_answer is None:
            self._next_answer = asyncio.get_running_loop().create_future()
            # its waiters may have given up (a timeout): a failure nobody awaits is no error
            self._next_answer.add_done_callback(lambda answer: answer.cancelled()
                                                or answer.exception())
        self._next |= urls
        answer = self._next_answer
        if not self._querying:
            self._query()
        return answer

    def _query(self) -> None:
        urls, answer = sorted(self._next), self._next_answer
        assert answer is not None  # URLs and the future that answers them come together
        self._next, self._next_answer, self._querying = set(), None, True
        query = asyncio.get_running_loop().run_in_executor(None, self._stored_details, urls)
        query.add_done_callback(partial(self._answered, urls=urls, answer=answer))

    def _answered(self, query: asyncio.Future[dict[str, datetime | None]], urls: list[str],
                  answer: asyncio.Future[None]) -> None:
        self._querying = False
        error = query.exception()
        if error is not None:
            answer.set_exception(error)
        else:
            if len(self._due) > MEMO_LIMIT:  # a long-lived worker must not grow for ever
                self._due.clear()
            stored = query.result()
            for url in urls:
                due = stored.get(url, _NOT_STORED)
                self._due[url] = (-math.inf if due is _NOT_STORED else math.inf if due is None
                                  else due.timestamp())
            answer.set_result(None)
        if self._next:
            self._query()
