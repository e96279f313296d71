"""Distributed crawling for real: scrapy-redis on the local Redis, PostgreSQL, the demo site;
some tests also with each worker on a host of its own (a network namespace, tests/netns.py),
reaching them over a LAN as separate machines would."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from redis import Connection, ConnectionPool, Redis
from scrapy import Request, Spider
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from crawler.cluster import keys, politeness
from crawler.cluster.enqueue import Entry, Frontier
from crawler.cluster.ledger import RunLedger
from crawler.cluster.politeness import POLL_SECONDS, SPARE_SECONDS, DomainLeases
from crawler.cluster.queue import AckPriorityQueue
from crawler.cluster.runs import create_run, push_start_urls
from crawler.cluster.schedule import schedule_due
from models import CrawlRun, Page, Source
from models.db import session_factory
from tests import netns
from tests.crawling import ROOT, stored
from tests.demosite import DemoServer, SiteConfig
from tests.netns import Host, Lan, forwarded
from tests.services import redis_database

FAST = ["-s", "CLUSTER_HEARTBEAT_SECONDS=1", "-s", "AUTOTHROTTLE_ENABLED=False",
        "-s", "PERSIST_FLUSH_SECONDS=0.3", "-s", "LOG_LEVEL=INFO"]


@pytest.fixture
def cluster_redis() -> Iterator[str]:
    with redis_database(7) as url:
        yield url


class CountingConnection(Connection):
    """Counts round trips: a command, a pipeline or a script call is one send."""

    sent = 0

    def send_packed_command(self, *args: object, **kwargs: object) -> None:
        CountingConnection.sent += 1
        super().send_packed_command(*args, **kwargs)


def counted(redis: str) -> Redis:
    return Redis(connection_pool=ConnectionPool.from_url(redis,
                                                         connection_class=CountingConnection))


def round_trips(action: object) -> int:
    before = CountingConnection.sent
    action()  # type: ignore[operator]
    return CountingConnection.sent - before


@dataclass(frozen=True)
class Network:
    """Where the workers run and how they reach PostgreSQL, Redis and the site: all on
    this machine's loopback (hosts None), or each worker on a host of its own."""

    database: str
    redis: str
    site_host: str = "127.0.0.1"
    hosts: Sequence[Host | None] = (None, None, None)


@pytest.fixture(params=["loopback", "hosts"])
def network(request: pytest.FixtureRequest, pg_url: str, cluster_redis: str) -> Iterator[Network]:
    if request.param == "loopback":
        yield Network(pg_url, cluster_redis)
        return
    with on_hosts(3, pg_url, cluster_redis) as lan_network:
        yield lan_network


@contextmanager
def on_hosts(hosts: int, pg_url: str, redis: str) -> Iterator[Network]:
    """A LAN of `hosts` hosts (the test skips where namespaces cannot be made), with
    PostgreSQL and Redis forwarded to its gateway address, where the test serves its site."""
    reason = netns.available()
    if reason is not None:
        pytest.skip(reason)
    with Lan(hosts) as lan, forwarded(pg_url, lan.gateway) as database, \
            forwarded(redis, lan.gateway) as redis_on_lan:
        yield Network(database, redis_on_lan, lan.gateway, lan.hosts)


def worker(database_url: str, redis: str, journal: Path, log: Path, *args: str,
           idle: int = 4, host: Host | None = None) -> subprocess.Popen[bytes]:
    """One `scrapy crawl site` worker process, logging to a file (on `host` if given)."""
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis,
           "JOURNAL_DIR": str(journal), "MAX_IDLE_TIME_BEFORE_CLOSE": str(idle)}
    handle = log.open("ab")  # the test's own -s settings come last, so they win
    command = [sys.executable, "-m", "scrapy", "crawl", "site", *FAST, *args]
    return subprocess.Popen(host.command(command) if host else command,
                            cwd=ROOT, env=env, stdout=handle, stderr=handle)


def wait_all(*processes: subprocess.Popen[bytes], timeout: float = 240) -> None:
    for process in processes:
        assert process.wait(timeout=timeout) == 0


def wait_for_log(log: Path, text: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while text not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, f"{log.name} never said {text!r}"
        time.sleep(0.1)


def wait_until_busy(redis: str, process: subprocess.Popen[bytes], log: Path,
                    timeout: float = 60) -> None:
    """Block until the worker holds in-flight requests (its ledger hash); fail at once, with
    its log, if it has exited."""
    server = Redis.from_url(redis)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, f"worker exited ({process.returncode}):\n{tail(log)}"
        for key in server.scan_iter(match=f"site:inflight:*-{process.pid}-*"):
            if server.hlen(key) >= 2:
                return
        time.sleep(0.05)
    raise AssertionError(f"worker {process.pid} never took work:\n{tail(log)}")


def tail(log: Path, lines: int = 30) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def allowed_paths(server: DemoServer) -> set[str]:
    return {path for path, record in server.site.ground_truth().items()
            if not record["meta"].get("robots_disallowed")}


def runs(database_url: str) -> list[CrawlRun]:
    with session_factory(database_url)() as session:
        return list(session.scalars(select(CrawlRun).order_by(CrawlRun.id)))


def test_two_workers_crawl_each_page_once_and_match_a_single_worker(
        network: Network, pg_url: str, tmp_path: Path) -> None:
    database, redis, [host_a, host_b, _] = network.database, network.redis, network.hosts
    with DemoServer(host=network.site_host) as server:
        # the second waits for work however slow the first starts
        second = worker(database, redis, tmp_path, tmp_path / "b.log", idle=600, host=host_b)
        wait_for_log(tmp_path / "b.log", "Spider opened")
        first = worker(database, redis, tmp_path, tmp_path / "a.log",
                       "-a", f"start_urls={server.url}/", "-a", "depth=8", idle=8, host=host_a)
        wait_all(first)  # idle once the run's queue is drained
        second.send_signal(signal.SIGTERM)
        wait_all(second)
        hits = dict(server.hits)
    pages = stored(pg_url)
    paths = {url.removeprefix(server.url) for url in pages}
    assert paths == allowed_paths(server)  # the union equals what one worker stores alone
    [run] = runs(pg_url)
    assert run.finished_at is not None and run.stats["pages/new"] == len(pages)
    refetched = sum(count - 1 for path, count in hits.items() if path in paths and count > 1)
    assert refetched <= run.stats.get("template/sibling_fetches", 0)  # only S2 siblings
    for log in ("a.log", "b.log"):  # both workers did real work
        assert "'item_scraped_count'" in (tmp_path / log).read_text()


def test_a_host_cut_off_mid_run_hands_its_requests_to_the_others(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    """Three workers on three hosts; the host that started the run has its cable pulled while
    it holds requests (no reset: its connections just go silent). Its heartbeat stops, the
    others take over what it held, and the run ends with every page stored once."""
    slow = ["-s", "DOWNLOAD_DELAY=0.05", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2"]
    small = SiteConfig(articles_per_section=10, threads_per_board=6, blog_posts=12,
                       history_days=8)  # about a fifth of the demo site: seconds, not minutes
    redis = Redis.from_url(cluster_redis)
    with on_hosts(3, pg_url, cluster_redis) as network:
        database, lan_redis, [cut, *others] = network.database, network.redis, network.hosts
        logs = [tmp_path / f"{name}.log" for name in ("cut", "a", "b")]
        with DemoServer(host=network.site_host, config=small) as server:
            victim = worker(database, lan_redis, tmp_path / "cut", logs[0], "-a",
                            f"start_urls={server.url}/", "-a", "depth=8", *slow, idle=600,
                            host=cut)
            survivors = [worker(database, lan_redis, tmp_path / log.stem, log, *slow, idle=600,
                                host=host) for host, log in zip(others, logs[1:], strict=True)]
            try:
                wait_until_busy(cluster_redis, victim, logs[0])
                cut.cut_off()  # type: ignore[union-attr]
                time.sleep(0.5)  # what was on the wire before lands; its heartbeat still lives
                in_flight = sum(redis.hlen(key) for key in
                                redis.scan_iter(match=f"site:inflight:*-{victim.pid}-*"))
                assert in_flight, "the cut host held nothing: cut it sooner"
                deadline = time.monotonic() + 120
                while not any(run.finished_at for run in runs(pg_url)):  # the others drain it
                    assert time.monotonic() < deadline, tail(logs[1]) + tail(logs[2])
                    time.sleep(0.5)
                hits = dict(server.hits)
            finally:
                victim.kill()  # the host is gone
                for process in survivors:
                    process.terminate()
                for process in [victim, *survivors]:
                    process.wait(timeout=60)
    pages = stored(pg_url)
    paths = {url.removeprefix(server.url) for url in pages}
    assert paths == allowed_paths(server)  # nothing lost
    with session_factory(pg_url)() as session:  # nothing stored twice
        assert session.scalar(select(func.count()).select_from(Page)) == len(pages)
    recovered = f"recovered {in_flight} in-flight requests of stopped worker"
    assert recovered in logs[1].read_text() + logs[2].read_text()
    [run] = runs(pg_url)
    refetched = sum(count - 1 for path, count in hits.items() if path in paths and count > 1)
    # fetched twice: at most what the cut host held, and the S2 template siblings
    assert refetched <= in_flight + run.stats.get("template/sibling_fetches", 0)


def test_a_killed_worker_loses_nothing_and_its_restart_finishes(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    slow = ["-s", "DOWNLOAD_DELAY=0.05", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2"]
    with DemoServer() as server:  # the victim is ready before the work appears (it never idles out)
        victim = worker(pg_url, cluster_redis, tmp_path, tmp_path / "b.log", *slow, idle=600)
        wait_for_log(tmp_path / "b.log", "Spider opened")
        survivor = worker(pg_url, cluster_redis, tmp_path, tmp_path / "a.log",
                          "-a", f"start_urls={server.url}/", "-a", "depth=8", *slow, idle=8)
        wait_until_busy(cluster_redis, victim, tmp_path / "b.log")
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        restarted = worker(pg_url, cluster_redis, tmp_path, tmp_path / "c.log", idle=8)
        wait_all(survivor, restarted)
    assert "recovered" in (tmp_path / "a.log").read_text() + (tmp_path / "c.log").read_text()
    pages = stored(pg_url)
    assert {url.removeprefix(server.url) for url in pages} == allowed_paths(server)
    [run] = runs(pg_url)
    assert run.finished_at is not None  # the run's pending count drained to zero
    assert not list(tmp_path.glob("**/*.jsonl"))


def test_scheduled_revisit_fetches_lists_and_only_new_details(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    sessions = session_factory(pg_url)
    redis = Redis.from_url(cluster_redis)
    with DemoServer() as server:
        with sessions.begin() as session:
            # a run also revisits what falls due before the next run (600 s on): the stored
            # articles' first revisit (30 min) is not due by then
            session.add(Source(name="demo", start_urls=[server.url + "/"], allowed_domains=[],
                               max_depth=8, interval_seconds=600, page_type_rules=[],
                               settings={"REVISIT_MIN_INTERVAL": 1800}))
        assert len(schedule_due(sessions, redis)) == 1
        assert schedule_due(sessions, redis) == []  # not due again yet
        wait_all(worker(pg_url, cluster_redis, tmp_path, tmp_path / "1.log"))
        before = stored(pg_url)
        server.set_edition(1)
        later = datetime.now(UTC) + timedelta(seconds=601)
        assert len(schedule_due(sessions, redis, now=later)) == 1
        wait_all(worker(pg_url, cluster_redis, tmp_path, tmp_path / "2.log"))
        truth = server.site.ground_truth()
    first, second = runs(pg_url)
    after = stored(pg_url)
    in_second = {url.removeprefix(server.url) for url, page in after.items()
                 if page.crawl_run_id == second.id}
    new_details = {path for path, record in truth.items() if record["edition"] == 1}
    old_details = {path for path, record in truth.items() if record["edition"] == 0}
    assert new_details <= in_second
    assert not in_second & old_details  # no stored article, post or thread fetched again
    assert {url.removeprefix(server.url) for url in after} == allowed_paths(server)
    assert set(before) <= set(after)
    assert second.finished_at is not None and first.finished_at is not None


def test_ledger_settles_a_batch_with_its_buffered_stats_in_one_round_trip(
        cluster_redis: str) -> None:
    server = counted(cluster_redis)
    ledger = RunLedger(server, "site", "w1")
    metas = [{"run_id": 7}, {"run_id": 7}, {"run_id": 7, "ticket": None}]
    for meta in metas[:2]:
        ledger.issue(meta)
        server.hset(keys.inflight("site", "w1"), meta["ticket"], "entry")
    server.set(keys.pending("site", 7), 2)
    server.set(keys.live("site", 7), 1)
    assert round_trips(lambda: [ledger.count(7, "pages/new") for _ in range(3)]) == 0
    drained: list[object] = []
    assert round_trips(lambda: drained.extend(ledger.settle(metas))) == 1
    assert drained == [7]
    assert ledger.settle(metas[:1]) == []  # a ticket counts down once only
    assert server.hlen(keys.inflight("site", "w1")) == 0
    assert ledger.close_run(7) == {"pages/new": 3}
    assert not server.exists(keys.live("site", 7))


def test_a_run_without_its_live_marker_never_drains(cluster_redis: str) -> None:
    """A Redis restart without persistence takes the run's marker: settling what the workers
    still held must not count a fresh pending count down to 'drained'."""
    server = Redis.from_url(cluster_redis)
    ledger = RunLedger(server, "site", "w1")
    metas = [{"run_id": 9}]
    ledger.issue(metas[0])
    server.set(keys.pending("site", 9), 1)
    assert ledger.settle(metas) == []
    assert server.get(keys.pending("site", 9)) == b"1"


def test_returned_leases_ride_on_the_next_acquisition_and_limits_hold(
        cluster_redis: str) -> None:
    server = counted(cluster_redis)
    workers = [DomainLeases(server, concurrency=2, delay=0, transfer_timeout=30)
               for _ in range(2)]
    leases = keys.domain_leases("a.cn")

    async def scenario() -> None:
        first = await workers[0].acquire("a.cn")
        second = await workers[1].acquire("a.cn")
        third = asyncio.ensure_future(workers[1].acquire("a.cn"))
        await asyncio.sleep(3 * POLL_SECONDS)
        assert not third.done()  # two workers, one domain, two leases at most
        assert round_trips(lambda: workers[0].give_back("a.cn", first)) == 0
        assert server.zcard(leases) == 2  # given back, not yet sent: it still counts
        await asyncio.wait_for(third, 1)  # the timer sent it, within a poll period
        assert server.zcard(leases) == 2
        workers[1].give_back("a.cn", second)
        before = CountingConnection.sent
        assert await workers[1].acquire("a.cn") == second  # handed on: no round trip
        assert CountingConnection.sent == before
        assert server.zcard(leases) == 2
        workers[1].return_leases()

    asyncio.run(scenario())


def test_an_old_lease_goes_back_with_the_next_acquisition(
        cluster_redis: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Handing a lease on stops before it could expire under the next transfer; a domain
    with a delay between requests always asks Redis, which keeps the spacing."""
    server = counted(cluster_redis)
    aged = DomainLeases(server, concurrency=1, delay=0, transfer_timeout=30)
    spaced = DomainLeases(server, concurrency=1, delay=0.001, transfer_timeout=30)

    async def scenario() -> None:
        lease = await aged.acquire("a.cn")
        aged.give_back("a.cn", lease)
        later = politeness.monotonic() + SPARE_SECONDS / 2 + 1
        monkeypatch.setattr(politeness, "monotonic", lambda: later)
        before = CountingConnection.sent
        fresh = await aged.acquire("a.cn")
        assert fresh != lease and CountingConnection.sent - before == 1  # old one rode along
        assert server.zrange(keys.domain_leases("a.cn"), 0, -1) == [fresh.encode()]
        aged.give_back("a.cn", fresh)
        aged.return_leases()
        first = await spaced.acquire("b.cn")
        spaced.give_back("b.cn", first)
        await asyncio.sleep(0.01)
        before = CountingConnection.sent
        assert await spaced.acquire("b.cn") != first
        assert CountingConnection.sent - before == 1
        spaced.return_leases()

    asyncio.run(scenario())


def test_a_worker_holds_leases_only_for_transfers_not_for_queued_requests(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    """Requests waiting in Scrapy's per-domain slot hold no lease: a worker allowed two
    transfers per domain takes two of the domain's four shared leases, leaving the rest
    to the other workers, although it has eight requests under way."""
    redis = Redis.from_url(cluster_redis)
    most = 0
    with DemoServer() as server:
        crawl = worker(pg_url, cluster_redis, tmp_path, tmp_path / "w.log",
                       "-a", f"start_urls={server.url}/", "-a", "depth=1",
                       "-s", "CONCURRENT_REQUESTS=8", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2",
                       "-s", "GLOBAL_DOMAIN_CONCURRENCY=4", idle=2)
        while crawl.poll() is None:
            most = max(most, redis.zcard(keys.domain_leases("127.0.0.1")))
            time.sleep(0.002)
        assert crawl.returncode == 0
        assert len(stored(pg_url)) > 20
    assert most == 2


def test_a_page_s_links_enter_the_frontier_in_one_round_trip(cluster_redis: str) -> None:
    """Seen-set, queue and the run's pending count change together, for every request of
    the call; a duplicate is neither queued nor counted, an unfiltered one always is."""
    server = counted(cluster_redis)
    frontier = Frontier(server, "site", "site:requests")
    entries = [Entry(7, "f1", -10, b"a", True), Entry(7, "f2", -5, b"b", True),
               Entry(7, "f1", -10, b"a again", True), Entry(7, "", 0, b"retry", False)]
    frontier.add([Entry(6, "f0", 0, b"warm", True)])  # connects and loads the script
    queued: list[bool] = []
    assert round_trips(lambda: queued.extend(frontier.add(entries))) == 1
    assert queued == [True, True, False, True]
    assert server.zrange("site:requests", 0, -1) == [b"a", b"b", b"retry", b"warm"]
    assert server.get(keys.pending("site", 7)) == b"2"  # the retry had its ticket already
    assert server.ttl(keys.seen("site", 7)) > 0 and server.ttl(keys.pending("site", 7)) > 0
    other_run = Entry(8, "f1", -10, b"a", True)  # another run has its own seen-set
    assert frontier.add([entries[0], other_run]) == [False, True]


class Callbacks(Spider):
    name = "site"

    def parse(self, response: object) -> None: ...

    def on_error(self, failure: object) -> None: ...


def test_queued_requests_keep_their_callbacks_and_meta(cluster_redis: str) -> None:
    spider = Callbacks()
    queue = AckPriorityQueue(Redis.from_url(cluster_redis), spider, "site:requests")
    request = Request("http://a.cn/1", callback=spider.parse, errback=spider.on_error,
                      priority=3, meta={"ticket": "t1", "run_id": 7, "depth": 2})
    back = queue._decode_request(queue._encode_request(request))
    assert (back.url, back.priority, back.meta) == (request.url, 3, request.meta)
    assert back.callback == spider.parse and back.errback == spider.on_error
    assert request.callback == spider.parse and request.errback == spider.on_error  # kept
    stranger = Request("http://a.cn/2", callback=lambda response: None, meta={"ticket": "t2"})
    with pytest.raises(ValueError, match="not an instance method"):
        queue._encode_request(stranger)  # not the spider's: refused, as Scrapy refuses it
    assert stranger.callback is not None


def test_a_batch_pop_holds_every_taken_request_as_in_flight(cluster_redis: str) -> None:
    server = Redis.from_url(cluster_redis)
    queue = AckPriorityQueue(server, Spider("site"), "site:requests")
    queue.inflight_key, queue.pop_batch = keys.inflight("site", "w1"), 3
    for n in range(5):
        queue.push(Request(f"http://a.cn/{n}", priority=n, meta={"ticket": f"t{n}"}))
    first = queue.pop()
    assert first is not None and first.url == "http://a.cn/4"  # highest priority first
    assert server.hlen(queue.inflight_key) == 3 and len(queue) == 4
    urls = [queue.pop().url for _ in range(4)]  # type: ignore[union-attr]
    assert urls == [f"http://a.cn/{n}" for n in (3, 2, 1, 0)]
    assert queue.pop() is None and len(queue) == 0
    assert set(server.hkeys(queue.inflight_key)) == {f"t{n}".encode() for n in range(5)}


def test_a_pop_takes_the_domains_with_the_fewest_requests_in_flight_first(
        cluster_redis: str) -> None:
    """A list page queues its records together at a high priority: popped in strict order,
    they filled the worker's concurrency with one domain while the others' slots stood
    empty. Among the lookahead's entries a pop takes the least busy domain's first, in
    priority order among equals, as Scrapy's own DownloaderAwarePriorityQueue does."""
    server = Redis.from_url(cluster_redis)
    queue = AckPriorityQueue(server, Spider("site"), "site:requests")
    queue.inflight_key, queue.pop_batch, queue.lookahead = keys.inflight("site", "w1"), 4, 16
    queue.domains_key = keys.queued_by_domain("site")
    for n in range(6):  # a list's records
        queue.push(Request(f"http://a.cn/{n}", priority=50, meta={"ticket": f"a{n}"}))
    for host, n in (("b.cn", 0), ("b.cn", 1), ("c.cn", 0)):
        queue.push(Request(f"http://{host}/{n}", meta={"ticket": f"{host[0]}{n}"}))
    queue.in_flight = lambda: Counter({"a.cn": 2, "b.cn": 1})
    urls = [queue.pop().url for _ in range(4)]  # type: ignore[union-attr]
    assert urls == ["http://c.cn/0", "http://b.cn/0", "http://a.cn/0", "http://b.cn/1"]
    assert server.hlen(queue.inflight_key) == 4  # all four held as this worker's
    assert server.hgetall(queue.domains_key) == {b"a.cn": b"5"}
    assert [queue.pop().url for _ in range(5)] == [  # type: ignore[union-attr]
        f"http://a.cn/{n}" for n in range(1, 6)]  # one domain left: priority order
    queue.pop_batch = queue.lookahead = 1  # scrapy-redis's order: by priority alone
    for n in range(2):
        queue.push(Request(f"http://a.cn/x{n}", priority=9, meta={"ticket": f"x{n}"}))
    queue.push(Request("http://c.cn/1", meta={"ticket": "c1"}))
    assert [queue.pop().url for _ in range(3)] == [  # type: ignore[union-attr]
        "http://a.cn/x0", "http://a.cn/x1", "http://c.cn/1"]


def news_paths(server: DemoServer) -> list[str]:
    """The demo site's news articles, in path order."""
    return sorted(path for path, record in server.site.ground_truth().items()
                  if record["type"] == "news")


def demo_source(sessions: sessionmaker[Session]) -> int:
    """A source row for runs pushed by hand (no start URLs of its own)."""
    with sessions.begin() as session:
        source = Source(name="demo", start_urls=[], allowed_domains=[], max_depth=0,
                        page_type_rules=[], settings={})
        session.add(source)
        session.flush()
        return source.id


def test_an_idle_worker_takes_work_queued_by_others_within_a_second(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    """Scrapy's engine looks for work only every 5 s when it has none: a cluster worker
    must look far more often, or it idles while the others queue pages."""
    sessions = session_factory(pg_url)
    redis = Redis.from_url(cluster_redis)
    with DemoServer() as server:
        details, source_id = news_paths(server)[:3], demo_source(sessions)
        idle = worker(pg_url, cluster_redis, tmp_path, tmp_path / "w.log", idle=60)
        wait_for_log(tmp_path / "w.log", "Spider opened")
        delays = []
        for path in details:
            time.sleep(1.5)  # the worker has nothing to do
            run_id = create_run(sessions, "site", source_id)
            queued = time.monotonic()
            push_start_urls(redis, "site", run_id, source_id, [server.url + path])
            while not server.hits[path]:
                assert time.monotonic() - queued < 15, f"{path} never fetched"
                time.sleep(0.01)
            delays.append(time.monotonic() - queued)
        idle.send_signal(signal.SIGTERM)
        wait_all(idle)
    assert max(delays) < 1.5, delays


def test_a_worker_that_runs_out_of_work_stores_what_it_holds_at_once(
        pg_url: str, cluster_redis: str, tmp_path: Path) -> None:
    """Pages wait in the journal for a full batch or the flush tick; when the work runs
    out they are written at once, not a tick (here a minute) later."""
    sessions = session_factory(pg_url)
    redis = Redis.from_url(cluster_redis)
    with DemoServer() as server:
        details, source_id = news_paths(server)[:3], demo_source(sessions)
        lazy = worker(pg_url, cluster_redis, tmp_path, tmp_path / "w.log",
                      "-s", "PERSIST_FLUSH_SECONDS=60", "-s", "PERSIST_BATCH_SIZE=1000", idle=60)
        wait_for_log(tmp_path / "w.log", "Spider opened")
        run_id = create_run(sessions, "site", source_id)
        push_start_urls(redis, "site", run_id, source_id, [server.url + p for p in details])
        deadline = time.monotonic() + 10
        while len(stored(pg_url)) < len(details):
            assert time.monotonic() < deadline, "pages not stored while the worker idles"
            time.sleep(0.1)
        lazy.send_signal(signal.SIGTERM)
        wait_all(lazy)
    assert " ERROR: " not in (tmp_path / "w.log").read_text()
