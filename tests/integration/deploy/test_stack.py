"""The whole stack of compose.yaml, for real, as the README runs it (`make stack-test`).

Runs, in order, the README's blocks marked `<!-- store: stack -->` (test_readme.py leaves them
to this test): `make stack` (Docker installed and started when missing, the images built from
Debian's packages with cached layers, the stack up with two workers and the API); a source of
the demo site added, which the scheduler starts and both workers crawl into the stack's
PostgreSQL, checked against the site's ground truth; the metrics profile's Prometheus scraping
both workers and the scheduler, and every query of the Grafana dashboard on it; scaling to
four workers; an upgrade (images, the migrate job while the workers run, the services
recreated); a backup restored into a second database; `docker-compose down`. Everything the
test started goes, also when it fails: the containers, their network and volumes (the images
stay, as build cache).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from models import CrawlRun, Page
from models.db import PROJECT_ROOT as ROOT
from tests.demosite import DemoServer
from tests.demosite.catalog import SiteConfig
from tests.integration.test_readme import STACK, Block, _run_shell, _substitute, readme_blocks

# Its own containers, network and volumes (STACK_TEST_PROJECT: checkouts sharing a machine).
PROJECT = os.environ.get("STACK_TEST_PROJECT", "opinioncrawlerstacktest")
TOKEN, PASSWORD = "stack-test-token", "stack-test-password"  # over any .env of the checkout
CRAWL_TIMEOUT = 300  # seconds for the demo crawl through the stack (under a loaded machine)
# A smaller demo site than `make demo`'s (about 500 pages): every kind of page, a crawl of
# seconds, enough requests for both workers.
SITE = SiteConfig(articles_per_section=12, threads_per_board=10, blog_posts=15)
TYPED_OTHERWISE = 0.05  # pages whose type may differ from the truth (`make demo` lists them)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "REDIS_URL")}
    return {**env, "COMPOSE_PROJECT_NAME": PROJECT, "API_TOKEN": TOKEN,
            "POSTGRES_PASSWORD": PASSWORD, "API_PORT": str(_free_port()), "SCHEDULE_EVERY": "1",
            "COMPOSE_PROFILES": "metrics", "PROMETHEUS_PORT": str(_free_port()),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"}


def _compose(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["docker-compose", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, (args, done.stderr[-3000:])
    return done.stdout


def _containers(env: dict[str, str], service: str) -> list[str]:
    return _compose(env, "ps", "-q", service).split()


def _address(container: str, field: str = "IPAddress") -> str:
    return subprocess.run(["docker", "inspect", "-f",
                           f"{{{{range .NetworkSettings.Networks}}}}{{{{.{field}}}}}{{{{end}}}}",
                           container], capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()


def _state(container: str, field: str) -> str:
    return subprocess.run(["docker", "inspect", "-f", f"{{{{.State.{field}}}}}", container],
                          capture_output=True, text=True, check=True, timeout=60).stdout.strip()


def _started(container: str) -> str:
    """When the container last started, RFC 3339 in UTC (so strings compare as times)."""
    return _state(container, "StartedAt")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment the README's stack blocks run in; the stack is removed afterwards."""
    env = _env()
    down = ["docker-compose", "down", "-v", "--remove-orphans", "-t", "20"]
    subprocess.run(down, cwd=ROOT, env=env, capture_output=True, timeout=300, check=False)
    try:
        yield env
    finally:
        subprocess.run(down, cwd=ROOT, env=env, capture_output=True, timeout=300, check=False)


class _Steps:
    """The stack blocks of the README, run one at a time in one shell session's environment."""

    def __init__(self, env: dict[str, str], examples: dict[str, str], scratch: Path) -> None:
        self.blocks: list[Block] = [block for block in readme_blocks() if block.store == STACK]
        self.env, self.examples, self.scratch = env, examples, scratch

    def run(self, expected_start: str) -> None:
        block = self.blocks.pop(0)
        assert block.text.startswith(expected_start), (block.line, block.text)
        done, self.env = _run_shell(_substitute(block.text, self.examples), self.env,
                                    self.scratch / "shell.env")
        assert done.returncode == 0, (block.line, done.stdout[-2000:], done.stderr[-3000:])


def _session(database_url: str) -> Session:
    """A session on the stack's database that keeps no connection open after it (the
    project's cached engines would, and PostgreSQL's shutdown waits for its clients)."""
    return Session(create_engine(database_url, poolclass=NullPool), expire_on_commit=False)


def _wait_for_run(database_url: str) -> CrawlRun:
    deadline = time.monotonic() + CRAWL_TIMEOUT
    while time.monotonic() < deadline:
        with _session(database_url) as session:
            run = session.scalars(select(CrawlRun)).first()
            if run is not None and run.finished_at is not None:
                return run
        time.sleep(1)
    raise AssertionError(f"the demo crawl did not finish within {CRAWL_TIMEOUT}s")


def _stored_types(database_url: str) -> dict[str, str]:
    with _session(database_url) as session:
        return dict(session.execute(select(Page.url, Page.page_type)).all())


def _wait_for_workers(env: dict[str, str], count: int) -> None:
    """Until `count` workers have opened their spider: a worker that starts after the crawl
    ended would prove nothing about sharing it."""
    deadline = time.monotonic() + 120
    while True:
        workers = _containers(env, "worker")
        logs = [subprocess.run(["docker", "logs", worker], capture_output=True, text=True,
                               timeout=60, check=False) for worker in workers]
        opened = [log for log in logs if "Spider opened" in log.stdout + log.stderr]
        if len(opened) >= count:
            return
        assert time.monotonic() < deadline, f"{len(opened)} of {count} workers started"
        time.sleep(1)


def _check_api(env: dict[str, str]) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{env['API_PORT']}/sources",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == 200
                return
        except OSError:
            assert time.monotonic() < deadline, "the API never answered"
            time.sleep(1)


def _stored_by_metrics(env: dict[str, str]) -> float:
    """New pages committed, summed over the workers' Prometheus metrics (compose: port 9410)."""
    total = 0.0
    for worker in _containers(env, "worker"):
        url = f"http://{_address(worker)}:9410/metrics"
        with urllib.request.urlopen(url, timeout=10) as answer:
            for family in text_string_to_metric_families(answer.read().decode()):
                total += sum(sample.value for sample in family.samples
                             if sample.name == "crawler_pages_stored_total"
                             and sample.labels["outcome"] == "new")
    return total


def _prometheus(env: dict[str, str], path: str, **query: str) -> Any:
    """The answer of the metrics profile's Prometheus HTTP API to one GET."""
    url = f"http://127.0.0.1:{env['PROMETHEUS_PORT']}/api/v1/{path}?{urlencode(query)}"
    with urllib.request.urlopen(url, timeout=10) as answer:
        body = json.load(answer)
    assert body["status"] == "success", body
    return body["data"]


def _check_prometheus(env: dict[str, str], stored: int) -> None:
    """Prometheus found both workers and the scheduler by DNS and scrapes them, the workers'
    new pages sum to the pages stored, and every query of the Grafana dashboard runs on it."""
    deadline, up, new = time.monotonic() + 60, Counter[str](), None
    while True:
        try:
            up = Counter(target["labels"]["job"] for target
                         in _prometheus(env, "targets", state="active")["activeTargets"]
                         if target["health"] == "up")
            new = _prometheus(env, "query", query='sum(crawler_pages_stored_total{job="worker",'
                                                  'outcome="new"})')["result"]
        except OSError:
            pass
        if up == {"worker": 2, "scheduler": 1} and new and float(new[0]["value"][1]) == stored:
            break
        assert time.monotonic() < deadline, (up, new, stored)
        time.sleep(1)
    # Every series the dashboard reads is scraped, but the errors' (the demo crawl has none)
    # and a run's pending requests (only while a run is in flight: the demo run may end
    # before Prometheus's first scrape of the scheduler).
    names = {*_prometheus(env, "label/__name__/values"), "crawler_errors_total",
             "crawler_run_pending_requests"}
    dashboard = json.loads((ROOT / "deploy/grafana/opinion-crawler.json").read_text())
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            query = target["expr"].replace("$source", ".*")
            _prometheus(env, "query", query=query)  # valid PromQL
            assert set(re.findall(r"crawler_[a-z_]+", query)) <= names, (panel["title"], query)


def test_the_stack_crawls_the_demo_site_and_is_operated_as_the_readme_says(
        stack: dict[str, str], tmp_path: Path) -> None:
    sources, dump = tmp_path / "sources.yaml", tmp_path / "opinion.dump"
    steps = _Steps(stack, {"sources.yaml": str(sources), "opinion.dump": str(dump)}, tmp_path)
    assert len(steps.blocks) == 6, [block.line for block in steps.blocks]
    steps.run("make stack")
    assert len(_containers(stack, "worker")) == 2
    _wait_for_workers(stack, 2)
    postgres = _containers(stack, "postgres")[0]
    database_url = f"postgresql+psycopg2://crawler:{PASSWORD}@{_address(postgres)}/opinion"
    gateway = _address(postgres, "Gateway")  # this machine, as the containers reach it

    with DemoServer(host=gateway, config=SITE) as server:
        clients: Counter[str] = Counter()  # requests per worker container
        handler = server.httpd.RequestHandlerClass

        class CountingHandler(handler):  # type: ignore[misc,valid-type]
            def do_GET(self) -> None:
                clients[self.client_address[0]] += 1
                super().do_GET()

        server.httpd.RequestHandlerClass = CountingHandler
        sources.write_text(json.dumps({"sources": [{
            "name": "demo", "start_urls": [server.url + "/"], "interval_seconds": 86400,
            "settings": {"ALLOW_PRIVATE_ADDRESSES": True}}]}), encoding="utf-8")
        steps.run("docker-compose run --rm -T migrate python -m crawler sources import")
        run = _wait_for_run(database_url)
        truth = server.site.ground_truth()

    assert run.status == "finished", (run.status, run.stats)
    stored = {url.removeprefix(server.url): page_type
              for url, page_type in _stored_types(database_url).items()}
    fetchable = {path: record["type"] for path, record in truth.items()
                 if not record["meta"].get("robots_disallowed")}
    assert set(stored) == set(fetchable), set(stored) ^ set(fetchable)
    typed_otherwise = {path: (stored[path], page_type) for path, page_type in fetchable.items()
                       if stored[path] != page_type}
    assert len(typed_otherwise) <= TYPED_OTHERWISE * len(fetchable), typed_otherwise
    assert len(clients) == 2 and min(clients.values()) > 0.2 * sum(clients.values()), clients
    assert _stored_by_metrics(stack) == len(stored)
    _check_api(stack)
    _check_prometheus(stack, len(stored))

    steps.run("docker-compose up -d --no-deps --scale worker=4 worker")
    assert len(_containers(stack, "worker")) == 4
    before_upgrade = _started(_containers(stack, "migrate")[0])
    steps.run("make images")  # the upgrade: images, the migrate job, recreated services
    assert len(_containers(stack, "worker")) == 4
    migrate = _containers(stack, "migrate")[0]
    assert _started(migrate) > before_upgrade and _state(migrate, "ExitCode") == "0"
    _check_api(stack)
    steps.run("docker-compose exec -T postgres pg_dump")
    assert dump.stat().st_size > 0
    restored = database_url.replace("/opinion", "/restore_check")
    with _session(restored) as session:
        assert session.scalar(select(func.count()).select_from(Page)) == len(stored)
    steps.run("docker-compose down")
    assert not _compose(stack, "ps", "-q").split()
