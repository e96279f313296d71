"""The crawl's limits hold on the distributed crawl (scrapy-redis, Redis database 3): the
trap ends by itself at depth 0, a run's page limit holds across workers, and the shared
queue holds no more than a domain's limit (`crawler.cluster.enqueue`, `.queue`)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis
from scrapy import Request, Spider

from crawler import settings
from crawler.cluster import keys
from crawler.cluster.enqueue import Entry, Frontier, Outcome
from crawler.cluster.queue import AckPriorityQueue
from tests.integration.crawler.test_cluster import runs, wait_all, wait_for_log, worker
from tests.services import redis_database
from tests.trapsite import TrapServer

QUEUED, OVER_DOMAIN, OVER_PAGES = (Outcome.QUEUED, Outcome.OVER_DOMAIN_LIMIT,
                                   Outcome.OVER_PAGE_LIMIT)


@pytest.fixture
def bounded_redis() -> Iterator[str]:
    with redis_database(3) as url:
        yield url


def test_pagination_is_bounded_at_depth_zero_on_the_cluster(
        pg_url: str, bounded_redis: str, tmp_path: Path) -> None:
    with TrapServer() as trap:
        alone = worker(pg_url, bounded_redis, tmp_path, tmp_path / "a.log",
                       "-a", f"start_urls={trap.url}/list?page=1,"
                       f"{trap.url}/calendar?day=2024-01-01", "-a", "depth=0", idle=5)
        wait_all(alone)
    chain = settings.PAGINATION_CHAIN_LIMIT
    assert trap.hits["list"] == trap.hits["calendar"] == chain + 1
    [run] = runs(pg_url)
    assert run.finished_at is not None and run.stats["bounds/pagination_chain"] == 2


def test_a_run_s_page_limit_holds_across_workers(pg_url: str, bounded_redis: str,
                                                 tmp_path: Path) -> None:
    # neither worker takes all the work alone
    slow = ["-s", "DOWNLOAD_DELAY=0.2", "-s", "CONCURRENT_REQUESTS=2"]
    with TrapServer() as trap:
        second = worker(pg_url, bounded_redis, tmp_path, tmp_path / "b.log", *slow, idle=600)
        wait_for_log(tmp_path / "b.log", "Spider opened")
        first = worker(pg_url, bounded_redis, tmp_path, tmp_path / "a.log", *slow,
                       "-a", f"start_urls={trap.url}/", "-a", "max_pages=40", idle=6)
        wait_all(first)
        second.send_signal(signal.SIGTERM)
        wait_all(second)
    assert sum(trap.hits.values()) - trap.hits["robots.txt"] == 40
    [run] = runs(pg_url)
    assert run.finished_at is not None  # requests kept out never count as pending
    assert run.stats["bounds/max_pages"] > 0 and run.stats["pages/new"] == 40
    for log in ("a.log", "b.log"):  # both workers fetched a part of the forty
        assert "'item_scraped_count'" in (tmp_path / log).read_text()


def _entry(queue: AckPriorityQueue, url: str, ticket: str, new: bool = True,
           page_limit: int = 0) -> Entry:
    request = Request(url, meta={"ticket": ticket})
    return Entry(9, ticket, 0, queue._encode_request(request), new,
                 url.split("/")[2], page_limit, 3)


def test_the_shared_queue_holds_a_domain_s_limit(bounded_redis: str) -> None:
    server = Redis.from_url(bounded_redis)
    frontier = Frontier(server, "site", "site:requests")
    queue = AckPriorityQueue(server, Spider("site"), "site:requests")
    queue.inflight_key, queue.pop_batch = keys.inflight("site", "w1"), 1
    queue.domains_key = keys.queued_by_domain("site")
    a = [_entry(queue, f"http://a.cn/{n}", f"a{n}") for n in range(5)]
    b = _entry(queue, "http://b.cn/1", "b1")
    assert frontier.add([*a, b]) == [QUEUED] * 3 + [OVER_DOMAIN] * 2 + [QUEUED]
    assert server.hgetall(queue.domains_key) == {b"a.cn": b"3", b"b.cn": b"1"}
    assert server.get(keys.pending("site", 9)) == b"4"  # dropped ones are no run's work
    taken = queue.pop()
    assert taken is not None and server.hget(queue.domains_key, taken.url.split("/")[2])
    assert server.hget(queue.domains_key, b"a.cn") == b"2"  # a pop frees a place
    later = _entry(queue, "http://a.cn/9", "a9")
    retry = _entry(queue, "http://a.cn/10", "a10", new=False)  # a run's own request
    assert frontier.add([later, retry]) == [QUEUED, QUEUED]
    server.delete("site:requests")  # a queue emptied by hand leaves no counts behind
    assert frontier.add([_entry(queue, "http://a.cn/11", "a11")]) == [QUEUED]
    assert server.hgetall(queue.domains_key) == {b"a.cn": b"1"}
    queue.push(Request("http://c.cn/1", meta={"ticket": "c1"}))  # a recovered request
    assert server.hget(queue.domains_key, b"c.cn") == b"1"


def test_a_run_s_page_limit_is_counted_in_redis(bounded_redis: str) -> None:
    server = Redis.from_url(bounded_redis)
    frontier = Frontier(server, "site", "site:requests")
    queue = AckPriorityQueue(server, Spider("site"), "site:requests")
    entries = [_entry(queue, f"http://d{n}.cn/", f"d{n}", page_limit=2) for n in range(3)]
    assert frontier.add(entries[:1]) == [QUEUED]  # one worker
    assert frontier.add(entries[1:]) == [QUEUED, OVER_PAGES]  # and another, same run
