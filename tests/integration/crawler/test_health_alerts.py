"""Crawl-health alerts, each caused for real: a source whose runs store nothing new and one
whose pages answer 500 (the scheduler's --once check, to a local webhook), a worker killed
and started again, then stopped cleanly (the long-running scheduler, no target: the log),
the database and Redis cut off from a worker and its journal growing (the worker itself, to
the webhook, the rows stored once the database is back)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from sqlalchemy import select
from sqlalchemy.engine import make_url

from crawler import settings
from crawler.cluster import keys, schedule
from models import HealthAlert, Source
from models.db import session_factory
from reading.health_alerts import SCHEDULER, HealthAlerts, targets_from
from reading.watch_cli import alerts_main
from tests.crawling import ROOT, run_spider
from tests.demosite import DemoServer
from tests.integration.crawler.test_cluster import tail, wait_for_log, worker
from tests.integration.reading.test_health_alerts import health_database
from tests.receivers import WebhookReceiver, wait_for, webhook_receiver
from tests.services import redis_database
from tests.tcp_proxy import TcpProxy

ARTICLE = ("<html><head><title>第{n}条新闻_新闻中心</title></head><body><h1>第{n}条新闻</h1>"
           "<div class='info'>2023-05-0{day} 10:00 来源：本报</div><div class='content'>"
           "<p>记者从有关部门获悉，今年以来全市新建充电桩一万余个，覆盖主要城区。第{n}条。</p>"
           "<p>相关负责人表示，下一步将继续完善配套设施，方便市民绿色出行。</p></div></body></html>")
FAST_HEALTH = ("-s", "HEALTH_CHECK_SECONDS=0.3", "-s", "HEALTH_UNREACHABLE_SECONDS=1.5")


class TinySite:
    """A list page linking ten articles, which answer 200, or 500 when `broken`."""

    def __init__(self, broken: bool = False) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                status, body = 404, "not found"
                if self.path == "/":
                    status, body = 200, "<html><body><ul>" + "".join(
                        f"<li><a href='/news/{n}.html'>第{n}条新闻的标题</a> 2023-05-01</li>"
                        for n in range(1, 11)) + "</ul></body></html>"
                elif self.path.startswith("/news/"):
                    n = int(self.path.split("/")[-1].split(".")[0])
                    status, body = 500 if broken else 200, ARTICLE.format(n=n, day=n % 9 + 1)
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def health_pg(postgres_admin_url: str) -> Iterator[str]:
    with health_database(postgres_admin_url) as url:
        yield url


@pytest.fixture
def webhook() -> Iterator[WebhookReceiver]:
    with webhook_receiver() as receiver:
        yield receiver


def _env(**values: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if name not in ("REDIS_URL", "DATABASE_URL", "HEALTH_ALERT_URLS")}
    return {**env, **values}


def _schedule(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crawler", "schedule", *args], cwd=ROOT,
                          env=_env(**env), capture_output=True, text=True, timeout=120,
                          check=False)


def _posts(receiver: WebhookReceiver) -> list[tuple[str, str]]:
    """(title, message) of each JSON post the webhook received."""
    return [(body["title"], body["message"]) for _, body in receiver.posts]


def _rows(database_url: str) -> list[HealthAlert]:
    with session_factory(database_url)() as session:
        return list(session.scalars(select(HealthAlert).order_by(HealthAlert.id)))


def _source(database_url: str, name: str, url: str) -> None:
    """A source the scheduler finds not due (it was just started, and runs daily)."""
    with session_factory(database_url).begin() as session:
        session.add(Source(name=name, start_urls=[url], allowed_domains=[], page_type_rules=[],
                           settings={}, interval_seconds=86_400,
                           last_scheduled_at=datetime.now(UTC)))


def _crawl(database_url: str, journal: Path, source: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"source={source}",
         "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "RETRY_TIMES=0"],
        cwd=ROOT, env={**_env(DATABASE_URL=database_url, JOURNAL_DIR=str(journal))},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _finished(*crawls: subprocess.Popen[str]) -> None:
    for crawl in crawls:
        _, err = crawl.communicate(timeout=120)
        assert crawl.returncode == 0, err[-3000:]


def test_runs_that_store_nothing_new_and_a_run_of_500s_alert_once_each(
        health_pg: str, webhook: WebhookReceiver, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    tiny, broken = TinySite(), TinySite(broken=True)
    _source(health_pg, "tiny", tiny.url)
    _source(health_pg, "broken", broken.url)
    try:
        # tiny stores its 11 pages, and broken's articles answer 500; then two runs of tiny
        # find every page known
        _finished(*(_crawl(health_pg, tmp_path, name) for name in ("tiny", "broken")))
        _finished(*(_crawl(health_pg, tmp_path, name) for name in ("tiny", "tiny")))
    finally:
        tiny.close()
        broken.close()
    target = webhook.url + "/health"
    with redis_database(4) as redis:
        first = _schedule("--once", DATABASE_URL=health_pg, REDIS_URL=redis,
                          HEALTH_EMPTY_RUNS="2", HEALTH_ERROR_MIN_PAGES="5",
                          HEALTH_ALERT_URLS=target)
        assert first.returncode == 0 and first.stdout.strip() == "nothing due", first.stderr
        # another scheduler's check while the conditions hold raises nothing again
        monkeypatch.setattr(settings, "HEALTH_EMPTY_RUNS", 2)
        monkeypatch.setattr(settings, "HEALTH_ERROR_MIN_PAGES", 5)
        sessions = session_factory(health_pg)
        with caplog.at_level(logging.INFO):
            schedule.check(sessions, Redis.from_url(redis),
                           HealthAlerts(SCHEDULER, targets_from(target), sessions))
        assert "crawl health" not in caplog.text
    assert alerts_main(["--health", "--database-url", health_pg]) == 0
    listed = capsys.readouterr().out
    posts = dict(_posts(webhook))
    assert sorted(posts) == ["[crawl health] empty_runs: tiny",
                             "[crawl health] error_rate: broken"], posts
    assert "its last 2 runs stored no new page" in posts["[crawl health] empty_runs: tiny"]
    assert "failed on 10 of 11 pages (91%, over 20%): http_500 10" in \
        posts["[crawl health] error_rate: broken"]
    assert "crawl health: source tiny" in first.stderr  # the log says it too
    rows = _rows(health_pg)
    assert sorted((row.key, row.origin, row.cleared_at) for row in rows) == [
        ("empty_runs:tiny", "scheduler", None), ("error_rate:broken", "scheduler", None)]
    assert all(row.delivery and row.delivery.startswith("sent to json://127.0.0.1/")
               for row in rows)
    assert listed.count("OPEN") == 2 and "http_500 10" in listed


def test_a_killed_worker_is_missed_once_until_it_is_back_and_a_clean_stop_is_not(
        health_pg: str, tmp_path: Path) -> None:
    """A worker killed: one alert; started again on the same host: one "cleared" note; that
    worker stopped cleanly (SIGTERM) for longer than the silence limit: nothing."""
    with redis_database(4) as redis:
        server = Redis.from_url(redis)
        log = tmp_path / "schedule.log"
        with log.open("w") as handle:
            scheduler = subprocess.Popen(
                [sys.executable, "-m", "crawler", "schedule", "--every", "0.3"], cwd=ROOT,
                env=_env(DATABASE_URL=health_pg, REDIS_URL=redis,
                         HEALTH_WORKER_SILENT_SECONDS="2"), stdout=handle, stderr=handle)
        beat_fast = ("-s", "CLUSTER_HEARTBEAT_SECONDS=0.3")
        victim = worker(health_pg, redis, tmp_path, tmp_path / "worker.log", *beat_fast,
                        idle=600)
        back: subprocess.Popen[bytes] | None = None
        try:
            assert wait_for(lambda: server.hlen(keys.workers("site")) == 1, 60), \
                tail(tmp_path / "worker.log")
            [name] = [name.decode() for name in server.hkeys(keys.workers("site"))]
            time.sleep(3)  # beating: no alert
            assert "crawl health" not in log.read_text()
            victim.kill()
            victim.wait(timeout=30)
            wait_for_log(log, f"crawl health: worker {name}: no heartbeat for", timeout=30)
            back = worker(health_pg, redis, tmp_path, tmp_path / "back.log", *beat_fast,
                          idle=600)
            wait_for_log(log, f"crawl health: cleared: worker {name}: no heartbeat", timeout=60)
            [back_name] = [name.decode() for name in server.hkeys(keys.workers("site"))]
            back.send_signal(signal.SIGTERM)
            assert back.wait(timeout=60) == 0, tail(tmp_path / "back.log")
            assert not server.hexists(keys.workers("site"), back_name)
            time.sleep(4)  # twice the silence limit: a dozen checks
        finally:
            for process in (victim, back):
                if process is not None:
                    process.kill()
            scheduler.send_signal(signal.SIGTERM)
            scheduler.wait(timeout=30)
    said = [line for line in log.read_text().splitlines() if "crawl health:" in line]
    assert len(said) == 2 and "WARNING" in said[0] and "cleared" in said[1], said
    assert [(row.key, row.cleared_at is not None) for row in _rows(health_pg)] == [
        (f"worker_stopped:{name}", True)]


def test_a_database_cut_off_from_a_worker_and_its_growing_journal_alert_and_clear(
        health_pg: str, webhook: WebhookReceiver, tmp_path: Path) -> None:
    proxy = TcpProxy(make_url(health_pg).port or 5432).start()
    via_proxy = make_url(health_pg).set(port=proxy.port).render_as_string(hide_password=False)

    def cut(server: DemoServer) -> None:
        while server.total_hits() < 15:
            time.sleep(0.01)
        proxy.stop()
        wait_for(lambda: len(webhook.posts) >= 2, 30)  # both conditions raised
        proxy.start()

    try:
        with DemoServer() as server:
            threading.Thread(target=cut, args=(server,), daemon=True).start()
            done = run_spider(
                via_proxy, tmp_path, "-a", f"start_urls={server.url}/", "-a", "max_pages=200",
                "-a", "depth=8", "-s", "DOWNLOAD_DELAY=0.05",
                "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2", "-s", "PERSIST_BATCH_SIZE=5",
                "-s", "PERSIST_FLUSH_SECONDS=0.3", "-s", "PERSIST_RETRY_SECONDS=0.3", *FAST_HEALTH,
                "-s", f"HEALTH_ALERT_URLS={webhook.url}/health",
                # more than a healthy crawl's backlog (a batch, and what comes during its write)
                "-s", "HEALTH_JOURNAL_GROWTH_SECONDS=2", "-s", "HEALTH_JOURNAL_GROWTH_PAGES=20")
    finally:
        proxy.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    posts = _posts(webhook)
    titles = [title.rsplit(":", 1)[0] for title, _ in posts]
    assert sorted(titles[:2]) == ["[crawl health] database_unreachable",
                                  "[crawl health] journal_backlog"], posts
    assert sorted(titles[2:]) == ["[crawl health] cleared: database_unreachable",
                                  "[crawl health] cleared: journal_backlog"], posts
    raised = dict(posts[:2])
    [database] = [body for title, body in raised.items() if "database" in title]
    assert "the database unreachable for" in database
    [journal] = [body for title, body in raised.items() if "journal" in title]
    assert "pages wait in the journal" in journal
    rows = _rows(health_pg)  # stored once the database was back, cleared since
    assert sorted(row.kind for row in rows) == ["database_unreachable", "journal_backlog"]
    assert all(row.cleared_at is not None and "sent to json://127.0.0.1/" in (row.delivery or "")
               for row in rows), [(row.key, row.delivery) for row in rows]


def test_redis_cut_off_from_a_worker_alerts_and_clears(
        health_pg: str, webhook: WebhookReceiver, tmp_path: Path) -> None:
    with redis_database(5) as redis:
        proxy = TcpProxy(make_url(redis).port or 6379).start()
        via_proxy = redis.replace(":6379/", f":{proxy.port}/")
        try:
            with DemoServer() as server:
                crawl = worker(health_pg, via_proxy, tmp_path, tmp_path / "worker.log",
                               "-a", f"start_urls={server.url}/", "-a", "max_pages=60",
                               "-s", "DOWNLOAD_DELAY=0.05", "-s", "REDIS_RETRY_ATTEMPTS=1",
                               "-s", "CLUSTER_HEARTBEAT_SECONDS=0.3", *FAST_HEALTH,
                               "-s", f"HEALTH_ALERT_URLS={webhook.url}/health", idle=3)
                assert wait_for(lambda: server.total_hits() >= 10, 60), \
                    tail(tmp_path / "worker.log")
                proxy.stop()
                arrived = wait_for(lambda: len(webhook.posts) >= 1, 30)
                proxy.start()
                assert arrived, tail(tmp_path / "worker.log")
                assert crawl.wait(timeout=120) == 0, tail(tmp_path / "worker.log")
        finally:
            proxy.stop()
    [(title, body), (cleared, note)] = _posts(webhook)
    assert title.startswith("[crawl health] redis_unreachable: ") and "Redis unreachable for" \
        in body
    assert cleared.startswith("[crawl health] cleared: redis_unreachable:") and body in note
    [row] = _rows(health_pg)
    assert row.kind == "redis_unreachable" and row.cleared_at is not None
