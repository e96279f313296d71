"""Watching a crawl, tested by causing what it reports: a scheduler and a worker crawl a small
local site with their metrics on, logging JSON lines; one start page answers only after
SLOW_SECONDS, so the run is in flight long enough to look at, whatever the machine's load;
`status` is asked during the run and after; the metrics scraped over HTTP must count what
was stored, and name every metric the Grafana dashboard queries.

Redis database 2 is this module's own.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest
from prometheus_client.parser import text_string_to_metric_families
from redis import Redis
from sqlalchemy import func, select

from crawler.cluster import keys
from crawler.cluster.enqueue import Entry, Frontier
from crawler.cluster.progress import read_progress
from models import CrawlRun, Page, Source
from models.db import session_factory
from tests.crawling import ROOT
from tests.demosite import DemoServer, SiteConfig
from tests.integration.crawler.test_cluster import FAST, tail
from tests.services import redis_database

DASHBOARD = ROOT / "deploy" / "grafana" / "opinion-crawler.json"
SMALL = SiteConfig(articles_per_section=4, threads_per_board=2, blog_posts=4,
                   history_days=10)
# Under DOWNLOAD_TIMEOUT; long enough for a `status` command, which takes seconds to start on
# a busy machine.
SLOW_SECONDS = 15
HEARTBEAT = 2  # seconds; a heartbeat key lives three beats
LIVE = ["-s", "STATUS_PUBLISH_SECONDS=0.5", "-s", "RETRY_TIMES=0",
        "-s", f"CLUSTER_HEARTBEAT_SECONDS={HEARTBEAT}"]
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def operate_redis() -> Iterator[str]:
    with redis_database(2) as url:
        yield url


def _env(database_url: str, redis_url: str | None, journal: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": database_url, "JOURNAL_DIR": str(journal),
           "LOG_FORMAT": "json", **extra}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def _metrics_port(log: Path, who: str, process: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, tail(log)
        found = re.search(rf"{who} metrics on http://127\.0\.0\.1:(\d+)/metrics",
                          log.read_text(errors="replace"))
        if found:
            return int(found[1])
        time.sleep(0.1)
    raise AssertionError(f"no metrics port logged:\n{tail(log)}")


def scrape(port: int) -> Samples:
    """Every sample of /metrics, by name and labels."""
    text = urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def total(samples: Samples, name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(value for (sample, tags), value in samples.items()
               if sample == name and wanted <= tags)


def by_label(samples: Samples, name: str, label: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for (sample, tags), value in samples.items():
        if sample == name and value:
            key = dict(tags)[label]
            found[key] = found.get(key, 0) + value
    return found


def status(env: dict[str, str], *args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "crawler", "status", "--json", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def json_lines(log: Path) -> list[dict[str, object]]:
    """Every line of a log, each a JSON object with the promised fields."""
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    return lines


def dashboard_metrics() -> set[str]:
    expressions = [target["expr"] for panel in json.loads(DASHBOARD.read_text())["panels"]
                   for target in panel["targets"]]
    return {name for expr in expressions for name in re.findall(r"\bcrawler_[a-z_]+", expr)}


def _wait_for(condition: object, what: str, log: Path, timeout: float = 120) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()  # type: ignore[operator]
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"never {what}:\n{tail(log)}")


def _finished_run(database_url: str) -> CrawlRun | None:
    with session_factory(database_url)() as session:
        return session.scalars(select(CrawlRun).where(CrawlRun.finished_at.is_not(None))).first()


def test_a_scheduled_cluster_crawl_is_watched_through_status_metrics_and_json_logs(
        pg_url: str, operate_redis: str, tmp_path: Path) -> None:
    with DemoServer(config=SMALL, faults=True, slow_seconds=SLOW_SECONDS) as server:
        with session_factory(pg_url).begin() as session:
            session.add(Source(name="watched", start_urls=[server.url + "/",
                                                           server.url + "/faults/slow.html",
                                                           server.url + "/no-such-page.html"],
                               allowed_domains=[], page_type_rules=[], settings={},
                               interval_seconds=3600, enabled=True))
        env = _env(pg_url, operate_redis, tmp_path / "journal", MAX_IDLE_TIME_BEFORE_CLOSE="600")
        worker_log, scheduler_log = tmp_path / "worker.log", tmp_path / "scheduler.log"
        with worker_log.open("wb") as out:
            worker = subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "site", *FAST,
                                       *LIVE, "-s", "METRICS_PORT=0"], cwd=ROOT, env=env,
                                      stdout=out, stderr=out)
        worker_port = _metrics_port(worker_log, "crawl worker", worker)
        with scheduler_log.open("wb") as out:
            scheduler = subprocess.Popen([sys.executable, "-m", "crawler", "schedule",
                                          "--every", "0.5", "--metrics-port", "0"], cwd=ROOT,
                                         env=env, stdout=out, stderr=out)
        try:
            scheduler_port = _metrics_port(scheduler_log, "scheduler", scheduler)

            # in flight: the metrics show its pending requests ...
            def pending_in_metrics() -> Samples | None:
                samples = {**scrape(worker_port), **scrape(scheduler_port)}
                pending = total(samples, "crawler_run_pending_requests", run="1")
                return samples if pending > 0 else None
            in_flight_samples = _wait_for(pending_in_metrics, "saw the run pending",
                                          worker_log)

            # ... and status shows the run, its queue, the worker and its heartbeat
            def run_under_way() -> dict[str, object] | None:
                look = status(env)
                runs = look["runs"]
                return look if runs and runs[0]["outcomes"].get("new") else None
            during = _wait_for(run_under_way, "saw the run store pages", worker_log)
            run = during["runs"][0]
            assert run["run_id"] == 1 and run["source"] == "watched" and run["finished_at"] is None
            assert run["pending"] > 0 and run["pages_by_type"]
            assert during["mode"] == "cluster"
            assert during["queued"] == sum(during["queued_by_domain"].values())
            # counted per host, as Scrapy's download slots are (no port)
            assert set(during["queued_by_domain"]) <= {urlsplit(server.url).hostname}
            [seen] = during["workers"]
            assert seen["alive"] and 0 <= seen["last_beat_seconds_ago"] < 3 * HEARTBEAT

            finished = _wait_for(lambda: _finished_run(pg_url), "finished the run", worker_log)
            _wait_for(lambda: not status(env)["runs"], "saw status empty", worker_log)
            worker_samples, scheduler_samples = scrape(worker_port), scrape(scheduler_port)
            after = status(env, "1")
        finally:
            for process in (scheduler, worker):
                process.terminate()
            for process in (scheduler, worker):
                process.wait(timeout=60)

    with session_factory(pg_url)() as session:
        pages = session.scalar(select(func.count()).select_from(Page))
    stats = finished.stats
    labels = {"source": "watched", "run": "1"}
    # the metrics count what was stored, and what the run's own statistics say
    assert pages and total(worker_samples, "crawler_pages_stored_total", outcome="new",
                           **labels) == pages == stats["pages/new"]
    assert by_label(worker_samples, "crawler_pages_read_total", "type") == {
        name.split("/")[-1]: value for name, value in stats.items()
        if name.startswith("pages/type/")}
    assert by_label(worker_samples, "crawler_errors_total", "kind") == {"http_404": 1} == {
        name.split("/")[-1]: value for name, value in stats.items()
        if name.startswith("errors/")}
    read = sum(value for name, value in stats.items() if name.startswith("pages/type/"))
    assert total(worker_samples, "crawler_extraction_seconds_count", source="watched") == read
    assert total(worker_samples, "crawler_store_seconds_count") > 0
    assert total(worker_samples, "crawler_journal_backlog_pages") == 0
    assert total(worker_samples, "crawler_queue_requests") == 0
    assert total(worker_samples, "crawler_redis_up") == 1
    assert total(scheduler_samples, "crawler_runs_started_total", source="watched") == 1
    assert total(scheduler_samples, "crawler_schedule_checks_total", outcome="ok") >= 1
    # status of the finished run, from the database
    [done] = after["runs"]
    assert done["status"] == "finished" and done["finished_at"]
    assert done["outcomes"]["new"] == pages and done["errors"] == {"http_404": 1}
    # every metric the dashboard queries exists in a real crawl's /metrics
    scraped = {name for name, _ in [*in_flight_samples, *worker_samples, *scheduler_samples]}
    assert dashboard_metrics() and dashboard_metrics() <= scraped, \
        dashboard_metrics() - scraped
    # both processes logged JSON lines only; the run's end names its run
    worker_lines, scheduler_lines = json_lines(worker_log), json_lines(scheduler_log)
    assert any(line.get("run") == 1 and "crawl run 1 finished" in line["message"]
               for line in worker_lines)
    assert any("started 1 run: watched (run 1)" in line["message"] for line in scheduler_lines)


def test_a_single_process_crawl_shows_its_progress_from_the_database(
        pg_url: str, tmp_path: Path) -> None:
    """Without Redis, status reads the run's row, which the crawl updates while it runs."""
    with DemoServer(config=SMALL, faults=True, slow_seconds=SLOW_SECONDS) as server:
        env = _env(pg_url, None, tmp_path / "journal")
        log = tmp_path / "crawl.log"
        with log.open("wb") as out:
            crawl = subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "site", "-a",
                                      f"start_urls={server.url}/,{server.url}/faults/slow.html",
                                      *FAST, *LIVE,
                                      "-s", "METRICS_PORT=0"], cwd=ROOT, env=env,
                                     stdout=out, stderr=out)
        try:
            port = _metrics_port(log, "crawl worker", crawl)

            def stored_some() -> dict[str, object] | None:
                look = status(env)
                return look if look["runs"] and look["runs"][0]["outcomes"].get("new") else None
            during = _wait_for(stored_some, "saw pages stored", log)
            in_flight = scrape(port)
            assert crawl.wait(timeout=120) == 0, tail(log)
        finally:
            if crawl.poll() is None:
                crawl.terminate()
    [run] = during["runs"]
    assert during["mode"] == "database" and run["finished_at"] is None
    assert run["updated_seconds_ago"] < 5 and run["per_minute"] is not None
    assert total(in_flight, "crawler_pages_read_total", run=str(run["run_id"])) > 0
    assert status(env)["runs"] == []  # finished
    lines = json_lines(log)
    assert all(line["run"] == run["run_id"] for line in lines
               if line["logger"] == "crawler.run_record")


def test_the_cluster_s_queue_workers_and_runs_are_read_as_redis_holds_them(
        operate_redis: str) -> None:
    """The shared queue per domain and the runs' pending counts as the frontier keeps them;
    a worker as its heartbeat, in-flight hash and published figures say."""
    server = Redis.from_url(operate_redis)
    frontier = Frontier(server, "site", keys.queue("site"))
    entries = [Entry(5, f"fp{n}", 0, f"t{n}\t{domain}\nx".encode(), True, domain)
               for n, domain in enumerate(["a.cn", "a.cn", "b.cn"])]
    frontier.add(entries)
    server.set(keys.live("site", 5), "1")
    server.hset(keys.run_stats("site", 5), mapping={"pages/new": 3, "errors/http_503": 1})
    server.set(keys.heartbeat("site", "w1"), f"{time.time() - 2:.3f}")
    server.hset(keys.inflight("site", "w1"), mapping={"t9": "x"})
    server.hset(keys.worker_status("site", "w1"), mapping={"stored": "3", "runs": '{"5": 6.0}'})
    server.hset(keys.worker_status("site", "w2"), mapping={"stored": "1"})  # beat stopped
    progress = read_progress(server, "site")
    [run] = progress.runs
    assert (run.run_id, run.pending, run.stats) == ("5", 3, {"pages/new": 3,
                                                            "errors/http_503": 1})
    assert progress.queued == 3 and progress.queued_by_domain == {"a.cn": 2, "b.cn": 1}
    first, second = progress.workers
    assert first.name == "w1" and first.in_flight == 1 and first.published["stored"] == 3
    assert first.last_beat is not None and 1 < time.time() - first.last_beat < 4
    assert second.name == "w2" and second.last_beat is None


def test_status_and_the_scheduler_say_in_one_line_what_they_cannot_reach(
        pg_url: str, empty_pg_url: str, operate_redis: str, tmp_path: Path) -> None:
    env = _env(pg_url, None, tmp_path / "journal")
    done = subprocess.run([sys.executable, "-m", "crawler", "status", "--redis-url",
                           "redis://127.0.0.1:1/0"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and "(from the database)" in done.stdout
    assert done.stderr.startswith("status: Redis out of reach") and done.stderr.count("\n") == 1
    unmigrated = subprocess.run([sys.executable, "-m", "crawler", "status", "--database-url",
                                 empty_pg_url], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=60, check=False)
    assert unmigrated.returncode == 1 and "migrate" in unmigrated.stderr
    assert "Traceback" not in unmigrated.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = subprocess.run([sys.executable, "-m", "crawler", "schedule", "--redis-url",
                               operate_redis, "--metrics-port", str(taken.getsockname()[1])],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
                              check=False)
    assert busy.returncode == 2 and "cannot serve metrics" in busy.stderr
    assert "Traceback" not in busy.stderr


def test_migrate_logs_each_step_as_json_lines_when_asked(tmp_path: Path) -> None:
    """A command's log (here migrate's progress, a line per migration) as JSON lines."""
    env = {**os.environ, "LOG_FORMAT": "json"}
    done = subprocess.run([sys.executable, "-m", "crawler", "migrate", "--database-url",
                           f"sqlite:///{tmp_path / 'new.sqlite3'}"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "schema is at head" in done.stdout
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    steps = [line for line in lines if str(line["message"]).startswith("Running upgrade")]
    migrations = list((ROOT / "migrations" / "versions").glob("[0-9]*.py"))
    assert migrations and len(steps) == len(migrations)


def test_status_watch_looks_again_every_interval(pg_url: str, tmp_path: Path) -> None:
    env = _env(pg_url, None, tmp_path / "journal")
    watching = subprocess.Popen([sys.executable, "-m", "crawler", "status", "--watch", "0.2",
                                 "--json"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert watching.stdout is not None
        looks = [json.loads(watching.stdout.readline()) for _ in range(3)]
    finally:
        watching.terminate()
        watching.wait(timeout=30)
    assert [look["mode"] for look in looks] == ["database"] * 3
    assert looks[0]["taken_at"] < looks[1]["taken_at"] < looks[2]["taken_at"]
